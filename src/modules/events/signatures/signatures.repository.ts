/**
 * SQL of signature requests and signatures. Tokens are found by their hash (the indexed column),
 * never by the plaintext, which is not stored. Expiry is decided by the database clock (`now()`),
 * the same clock that wrote `expires_at`, so the service and the database never disagree.
 */
import { and, asc, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { actors } from '../../../kernel/auth/actors.table.ts';
import type { Executor } from '../../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import { editions } from '../editions/index.ts';
import { events } from '../events/index.ts';
import {
  type SignatureRequestRow,
  type SignatureRow,
  signatureRequests,
  signatures,
} from './signatures.table.ts';

export type NewSignatureRequest = Omit<typeof signatureRequests.$inferInsert, 'expires_at'>;
export type NewSignature = Omit<typeof signatures.$inferInsert, 'revoke_expires_at'>;
export type RequestStatus = SignatureRequestRow['status'];
/** The states a pending request may be moved to by a person (expiry has its own update). */
export type Decision = 'completed' | 'denied' | 'cancelled';

const days = (count: number) => sql`now() + make_interval(days => ${count})`;
/** Still pending and not past its expiry: the only state a decision may leave. */
const isOpen = and(eq(signatureRequests.status, 'pending'), sql`${signatureRequests.expires_at} > now()`);

export async function insertRequest(
  db: Executor,
  values: NewSignatureRequest,
  expiresInDays: number,
): Promise<SignatureRequestRow> {
  const [row] = await db
    .insert(signatureRequests)
    .values({ ...values, expires_at: days(expiresInDays) })
    .returning();
  return row!;
}

export async function findRequest(db: Executor, id: string): Promise<SignatureRequestRow | undefined> {
  const [row] = await db.select().from(signatureRequests).where(eq(signatureRequests.id, id)).limit(1);
  return row;
}

/** What a request token opens: the request, whether it is past its expiry, its live edition and event. */
export async function findRequestByTokenHash(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({
      request: signatureRequests,
      isPastExpiry: sql<boolean>`${signatureRequests.expires_at} <= now()`,
      edition: {
        id: editions.id,
        name: editions.name,
        starts_at: editions.starts_at,
        ends_at: editions.ends_at,
        location_name: editions.location_name,
      },
      event: { id: events.id, name: events.name },
      // Who asked: their token's name, or their e-mail when no token of theirs carried one.
      requestedBy: sql<string>`coalesce(${actors.name}, ${actors.email}, '')`,
    })
    .from(signatureRequests)
    .innerJoin(editions, and(eq(editions.id, signatureRequests.edition_id), isNull(editions.deleted_at)))
    .innerJoin(events, eq(events.id, editions.event_id))
    .leftJoin(actors, eq(actors.user_id, signatureRequests.created_by))
    .where(eq(signatureRequests.token_hash, tokenHash))
    .limit(1);
  return row;
}

/**
 * Lazy expiry: pending requests past `expires_at` become `expired` (one request, or every request
 * of an edition). `decided_at` is the moment it expired, not the moment it was noticed.
 */
export async function expireRequests(
  db: Executor,
  where: { id: string } | { editionId: string },
): Promise<void> {
  await db
    .update(signatureRequests)
    .set({ status: 'expired', decided_at: sql`${signatureRequests.expires_at}`, updated_at: sql`now()` })
    .where(
      and(
        'id' in where
          ? eq(signatureRequests.id, where.id)
          : eq(signatureRequests.edition_id, where.editionId),
        eq(signatureRequests.status, 'pending'),
        lte(signatureRequests.expires_at, sql`now()`),
      ),
    );
}

/**
 * Moves an open request (pending, not past expiry) to `status`. Conditional, so of two concurrent
 * decisions exactly one gets the row back; the other gets undefined.
 */
export async function decideRequest(
  db: Executor,
  id: string,
  status: Decision,
  reason: string | null,
): Promise<SignatureRequestRow | undefined> {
  const [row] = await db
    .update(signatureRequests)
    .set({ status, reason, decided_at: sql`now()`, updated_at: sql`now()` })
    .where(and(eq(signatureRequests.id, id), isOpen))
    .returning();
  return row;
}

/** Requests of an edition, newest first. */
export function listRequests(
  db: Executor,
  editionId: string,
  status: RequestStatus | undefined,
  window: Window,
) {
  const where = and(
    eq(signatureRequests.edition_id, editionId),
    status === undefined ? undefined : eq(signatureRequests.status, status),
  );
  return pageOf(
    window,
    db
      .select()
      .from(signatureRequests)
      .where(where)
      .orderBy(desc(signatureRequests.created_at), desc(signatureRequests.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(signatureRequests).where(where),
  );
}

export async function insertSignature(
  db: Executor,
  values: NewSignature,
  revokeInDays: number,
): Promise<SignatureRow> {
  const [row] = await db
    .insert(signatures)
    .values({ ...values, revoke_expires_at: days(revokeInDays) })
    .returning();
  return row!;
}

export async function findSignatureByRevokeHash(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({
      signature: signatures,
      isPastExpiry: sql<boolean>`${signatures.revoke_expires_at} <= now()`,
    })
    .from(signatures)
    .where(eq(signatures.revoke_token_hash, tokenHash))
    .limit(1);
  return row;
}

/** Revokes an active signature whose revoke token has not expired; undefined when it did not apply. */
export async function revokeSignature(db: Executor, id: string): Promise<SignatureRow | undefined> {
  const [row] = await db
    .update(signatures)
    .set({ status: 'revoked', revoked_at: sql`now()` })
    .where(
      and(
        eq(signatures.id, id),
        eq(signatures.status, 'active'),
        sql`${signatures.revoke_expires_at} > now()`,
      ),
    )
    .returning();
  return row;
}

/** Active signatures of an edition, in the order they were given. */
export function listActiveSignatures(db: Executor, editionId: string, window: Window) {
  const where = and(eq(signatures.edition_id, editionId), eq(signatures.status, 'active'));
  return pageOf(
    window,
    db
      .select()
      .from(signatures)
      .where(where)
      .orderBy(asc(signatures.created_at), asc(signatures.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(signatures).where(where),
  );
}

/** Ids of the first `limit` active signatures of an edition, in the order given. */
export async function activeSignatureIds(db: Executor, editionId: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: signatures.id })
    .from(signatures)
    .where(and(eq(signatures.edition_id, editionId), eq(signatures.status, 'active')))
    .orderBy(asc(signatures.created_at), asc(signatures.id))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** Signatures by id, in the order of `ids`, whatever their status now. */
export async function signaturesByIds(db: Executor, ids: string[]): Promise<SignatureRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(signatures).where(inArray(signatures.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The first `limit` signatures of an edition that were active at `at` (given by then, not
 * revoked by then), in the order given: what a certificate issued at `at` showed.
 */
export function signaturesActiveAt(
  db: Executor,
  editionId: string,
  at: Date,
  limit: number,
): Promise<SignatureRow[]> {
  return db
    .select()
    .from(signatures)
    .where(
      and(
        eq(signatures.edition_id, editionId),
        lte(signatures.created_at, at),
        or(isNull(signatures.revoked_at), gt(signatures.revoked_at, at)),
      ),
    )
    .orderBy(asc(signatures.created_at), asc(signatures.id))
    .limit(limit);
}
