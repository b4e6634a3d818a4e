/**
 * SQL of intent refunds: the reservation, the attempts that ask the provider for it, its
 * settlement or release (docs/decisions.md, "Refunds").
 */
import { and, eq, lte, or, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Executor } from '../../../kernel/db/client.ts';
import { type IntentRefundRow, intentRefunds } from './refunds.table.ts';

export type NewIntentRefund = Omit<
  typeof intentRefunds.$inferInsert,
  'status' | 'settled_at' | 'attempt_until' | 'sends'
> & { attempt_id: string };

const leaseFor = (leaseMs: number) => sql`now() + make_interval(secs => ${leaseMs / 1000})`;
const isPending = (id: string) => and(eq(intentRefunds.id, id), eq(intentRefunds.status, 'pending'));

/**
 * Inserts a pending refund held by `attempt_id` (the request that reserves it) for `leaseMs`; a
 * second pending one of the same intent meets the unique index.
 */
export async function insertPendingRefund(
  db: Executor,
  values: NewIntentRefund,
  leaseMs: number,
): Promise<IntentRefundRow> {
  const [row] = await db
    .insert(intentRefunds)
    .values({ ...values, status: 'pending', attempt_until: leaseFor(leaseMs) })
    .returning();
  return row!;
}

/** Updates the refund while it is pending and `holds` (a condition) holds: whether it did. */
async function updatePending(
  db: Executor,
  id: string,
  set: PgUpdateSetSource<typeof intentRefunds>,
  holds: SQL | undefined,
): Promise<boolean> {
  const rows = await db
    .update(intentRefunds)
    .set(set)
    .where(and(isPending(id), holds))
    .returning({ id: intentRefunds.id });
  return rows.length > 0;
}

const heldBy = (attemptId: string) => eq(intentRefunds.attempt_id, attemptId);

/**
 * Hands a pending refund to `attemptId` for `leaseMs`, if no other attempt holds it (its time ran
 * out, or it let go): false while another does, or once it is settled or released.
 */
export function takeOverRefund(db: Executor, id: string, attemptId: string, leaseMs: number) {
  return updatePending(
    db,
    id,
    { attempt_id: attemptId, attempt_until: leaseFor(leaseMs) },
    or(sql`${intentRefunds.attempt_until} is null`, lte(intentRefunds.attempt_until, sql`now()`)),
  );
}

/**
 * Records that `attemptId` sends the provider a request now (its hold renewed for `leaseMs`, the
 * request's deadline with room to spare): false when the refund is no longer pending or another
 * attempt took it over, and then nothing may be sent.
 */
export function recordRefundSend(db: Executor, id: string, attemptId: string, leaseMs: number) {
  return updatePending(
    db,
    id,
    { attempt_until: leaseFor(leaseMs), sends: sql`${intentRefunds.sends} + 1` },
    heldBy(attemptId),
  );
}

/** Ends `attemptId`'s hold of a pending refund, so the resume job may take it over at once. */
export async function letGoOfRefund(db: Executor, id: string, attemptId: string): Promise<void> {
  await updatePending(db, id, { attempt_until: sql`now()` }, heldBy(attemptId));
}

export async function findRefund(db: Executor, id: string): Promise<IntentRefundRow | undefined> {
  const [row] = await db.select().from(intentRefunds).where(eq(intentRefunds.id, id)).limit(1);
  return row;
}

/** The intent's pending refund (its reservation), if any. */
export async function findPendingRefund(
  db: Executor,
  intentId: string,
): Promise<IntentRefundRow | undefined> {
  const [row] = await db
    .select()
    .from(intentRefunds)
    .where(and(eq(intentRefunds.intent_id, intentId), eq(intentRefunds.status, 'pending')))
    .limit(1);
  return row;
}

/**
 * The refund, if still pending, locked until the end of the caller's transaction: of the request
 * and the job that may both finish one refund, the one that gets it settles it.
 */
export async function lockPendingRefund(db: Executor, id: string): Promise<IntentRefundRow | undefined> {
  const [row] = await db
    .select()
    .from(intentRefunds)
    .where(and(eq(intentRefunds.id, id), eq(intentRefunds.status, 'pending')))
    .for('update')
    .limit(1);
  return row;
}

/** Settles a refund with what the provider gave back. */
export async function markRefundSettled(db: Executor, id: string, amountCents: number): Promise<void> {
  await db
    .update(intentRefunds)
    .set({ status: 'settled', amount_cents: amountCents, settled_at: sql`now()`, attempt_until: null })
    .where(eq(intentRefunds.id, id));
}

/**
 * Deletes a pending refund the provider did not make, the intent then as if it was never asked,
 * if `attemptId` still holds it: when the provider refused it (`sends` undefined), or when
 * `attemptId` learnt nothing and `sends` is all the requests ever sent for it (none by any other
 * attempt, whose outcome could be a refund). False when the reservation stays.
 */
export async function releaseRefund(
  db: Executor,
  id: string,
  attemptId: string,
  sends?: number,
): Promise<boolean> {
  const rows = await db
    .delete(intentRefunds)
    .where(
      and(isPending(id), heldBy(attemptId), sends === undefined ? undefined : eq(intentRefunds.sends, sends)),
    )
    .returning({ id: intentRefunds.id });
  return rows.length > 0;
}
