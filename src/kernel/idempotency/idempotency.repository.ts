/** SQL of idempotency keys (docs/reference/errors.md). */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { type IdempotencyRow, idempotencyKeys } from './idempotency.table.ts';

/** How long a key and its answer are kept. */
const TTL = sql`now() + interval '24 hours'`;
/** A request still `running` after this is taken to have died with its process. */
const ABANDONED = sql`now() - interval '2 minutes'`;

/**
 * Claims the key for a new request: inserted, or taken over when the earlier one expired or was
 * abandoned. Undefined when the key is held (the caller reads it to answer).
 */
export async function claimKey(
  db: Executor,
  userId: string,
  key: string,
  fingerprint: string,
): Promise<boolean> {
  const rows = await db
    .insert(idempotencyKeys)
    .values({ user_id: userId, key, fingerprint, status: 'running', expires_at: TTL })
    .onConflictDoUpdate({
      target: [idempotencyKeys.user_id, idempotencyKeys.key],
      set: {
        fingerprint,
        status: 'running',
        response_status: null,
        response_body: null,
        created_at: sql`now()`,
        expires_at: TTL,
      },
      setWhere: sql`${idempotencyKeys.expires_at} < now() or (${idempotencyKeys.status} = 'running' and ${idempotencyKeys.created_at} < ${ABANDONED})`,
    })
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

export async function findKey(
  db: Executor,
  userId: string,
  key: string,
): Promise<IdempotencyRow | undefined> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.user_id, userId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return row;
}

/** Stores the answer of a request that completed; `body` is already sealed. */
export async function completeKey(
  db: Executor,
  userId: string,
  key: string,
  response: { status: number; body: string },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ status: 'done', response_status: response.status, response_body: response.body })
    .where(and(eq(idempotencyKeys.user_id, userId), eq(idempotencyKeys.key, key)));
}

/** Forgets a key whose request was refused or failed, so that a retry runs again. */
export async function releaseKey(db: Executor, userId: string, key: string): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.user_id, userId),
        eq(idempotencyKeys.key, key),
        eq(idempotencyKeys.status, 'running'),
      ),
    );
}

/** Deletes expired keys (the hourly sweep job). */
export async function deleteExpiredKeys(db: Executor): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expires_at, sql`now()`));
}
