/**
 * Reads of the stored payment events. They are written by intents.transitions.ts (through
 * intents.repository.ts), in the transaction of the intent change that caused them; the one
 * exception, a `webhook.test` event, is written here.
 */
import { and, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../../../kernel/db/paging.ts';
import { type PaymentEventRow, paymentEvents } from '../../intents/intents.table.ts';
import { isOwnedBy } from '../../wallets/wallets.repository.ts';
import { WEBHOOK_TEST_TYPE } from './webhook-payloads.ts';

export interface EventFilter {
  type?: string | undefined;
  intentId?: string | undefined;
}

/** The event, if its wallet is `ownerId`'s: someone else's is undefined, as an unknown id. */
export async function findEventOfOwner(
  db: Executor,
  id: string,
  ownerId: string,
): Promise<PaymentEventRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentEvents)
    .where(and(eq(paymentEvents.id, id), isOwnedBy(paymentEvents.wallet_id, ownerId)))
    .limit(1);
  return row;
}

/** The wallet's events, newest first (ids are time-ordered, so they break ties). */
export function listEventsOfWallet(db: Executor, walletId: string, filter: EventFilter, window: Window) {
  // `and` skips the undefined conditions; the wallet index (wallet_id, created_at) serves the order.
  const where = and(
    eq(paymentEvents.wallet_id, walletId),
    filter.type === undefined ? undefined : eq(paymentEvents.type, filter.type),
    filter.intentId === undefined ? undefined : eq(paymentEvents.intent_id, filter.intentId),
  );
  return pageOf<PaymentEventRow>(
    window,
    db
      .select()
      .from(paymentEvents)
      .where(where)
      .orderBy(desc(paymentEvents.created_at), desc(paymentEvents.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(paymentEvents).where(where),
  );
}

/** Stores a `webhook.test` event of the wallet (it belongs to no intent). */
export async function insertTestEvent(
  tx: Executor,
  event: { id: string; wallet_id: string; payload: Record<string, unknown> },
): Promise<void> {
  await tx
    .insert(paymentEvents)
    .values({ ...event, intent_id: null, type: WEBHOOK_TEST_TYPE, source: 'test' });
}
