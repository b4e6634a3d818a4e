/** SQL of intent refunds: the reservation, its settlement or release (README, "Refunds"). */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { type IntentRefundRow, intentRefunds } from './refunds.table.ts';

export type NewIntentRefund = Omit<typeof intentRefunds.$inferInsert, 'status' | 'settled_at'>;

/** Inserts a pending refund; a second pending one of the same intent meets the unique index. */
export async function insertPendingRefund(db: Executor, values: NewIntentRefund): Promise<IntentRefundRow> {
  const [row] = await db
    .insert(intentRefunds)
    .values({ ...values, status: 'pending' })
    .returning();
  return row!;
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

export async function markRefundSettled(db: Executor, id: string): Promise<void> {
  await db
    .update(intentRefunds)
    .set({ status: 'settled', settled_at: sql`now()` })
    .where(eq(intentRefunds.id, id));
}

/** Deletes a pending refund the provider did not make: the intent is as if it was never asked. */
export async function releaseRefund(db: Executor, id: string): Promise<void> {
  await db.delete(intentRefunds).where(and(eq(intentRefunds.id, id), eq(intentRefunds.status, 'pending')));
}
