/** SQL of intents and payment events. */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import { isOwnedBy } from '../wallets/wallets.repository.ts';
import {
  type IntentRow,
  type IntentStatus,
  type IntentStatusDetail,
  intents,
  type PaymentEventRow,
  paymentEvents,
} from './intents.table.ts';

export type NewPaymentEvent = typeof paymentEvents.$inferInsert;

export async function findIntent(db: Executor, id: string): Promise<IntentRow | undefined> {
  const [row] = await db.select().from(intents).where(eq(intents.id, id)).limit(1);
  return row;
}

/** The intent, if its wallet is `ownerId`'s: someone else's is undefined, as an unknown id. */
export async function findIntentOfOwner(
  db: Executor,
  id: string,
  ownerId: string,
): Promise<IntentRow | undefined> {
  const [row] = await db
    .select()
    .from(intents)
    .where(and(eq(intents.id, id), isOwnedBy(intents.wallet_id, ownerId)))
    .limit(1);
  return row;
}

/**
 * Moves an intent only if it is still in `from`: a concurrent change makes this match nothing
 * (undefined), so two writers can never both apply a transition from the same state.
 */
export async function moveIntent(
  db: Executor,
  id: string,
  from: IntentStatus,
  to: { status: IntentStatus; status_detail: IntentStatusDetail | null },
): Promise<IntentRow | undefined> {
  const [row] = await db
    .update(intents)
    .set({ status: to.status, status_detail: to.status_detail, updated_at: sql`now()` })
    .where(and(eq(intents.id, id), eq(intents.status, from)))
    .returning();
  return row;
}

export function listIntentsOfWallet(
  db: Executor,
  walletId: string,
  status: IntentStatus | undefined,
  window: Window,
) {
  const where =
    status === undefined
      ? eq(intents.wallet_id, walletId)
      : and(eq(intents.wallet_id, walletId), eq(intents.status, status));
  return pageOf(
    window,
    db
      .select()
      .from(intents)
      .where(where)
      .orderBy(desc(intents.created_at), desc(intents.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(intents).where(where),
  );
}

export async function insertPaymentEvent(db: Executor, values: NewPaymentEvent): Promise<PaymentEventRow> {
  const [row] = await db.insert(paymentEvents).values(values).returning();
  return row!;
}
