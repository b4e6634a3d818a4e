/**
 * The one place an intent's status changes and its payment event is written (contract 7.2).
 * Test mode, cancellation and provider notifications all come through here; `recordEvent` writes
 * the event's deliveries beside it, inside the caller's transaction (the outbox: the change, its
 * event and its deliveries commit together or not at all).
 */
import type { Executor } from '../../kernel/db/client.ts';
import { uuidv7 } from '../../kernel/db/ids.ts';
import { conflict } from '../../kernel/http/errors.ts';
import * as repo from './intents.repository.ts';
import { type DeliveryPolicy, enqueueDeliveries } from './outbox.ts';
import type { IntentRow, IntentStatus, IntentStatusDetail, PaymentEventRow } from './payments.table.ts';

/** What produced a change: `testmode`, `simulate`, `cancel`, or a provider slug. */
export type EventSource = 'testmode' | 'simulate' | 'cancel' | (string & {});

export interface StatusChange {
  status: IntentStatus;
  status_detail?: IntentStatusDetail | null | undefined;
}

/**
 * The transition rule: `pending`/`processing` may move to any other status, `succeeded` only to
 * `refunded`; every other status is final. Staying in the same status is not a transition.
 */
export function canTransition(from: IntentStatus, to: IntentStatus): boolean {
  if (from === to) return false;
  if (from === 'pending' || from === 'processing') return true;
  if (from === 'succeeded') return to === 'refunded';
  return false;
}

/** The `data` object of the outbound webhook body (contract 7.3), stored as the event payload. */
export function eventPayload(eventId: string, intent: IntentRow): Record<string, unknown> {
  const transactionId = intent.provider_data?.transaction_id;
  return {
    event_id: eventId,
    intent_id: intent.id,
    wallet_id: intent.wallet_id,
    provider: intent.provider,
    external_id:
      typeof transactionId === 'string' || typeof transactionId === 'number' ? String(transactionId) : null,
    status: intent.status,
    status_detail: intent.status_detail,
    amount_cents: intent.amount_cents,
    currency: intent.currency,
    sandbox: intent.sandbox,
    metadata: intent.metadata,
  };
}

async function recordEvent(
  tx: Executor,
  intent: IntentRow,
  source: EventSource,
  policy: DeliveryPolicy,
): Promise<PaymentEventRow> {
  const id = uuidv7();
  const event = await repo.insertPaymentEvent(tx, {
    id,
    wallet_id: intent.wallet_id,
    intent_id: intent.id,
    type: `payment.${intent.status}`,
    source,
    payload: eventPayload(id, intent),
  });
  await enqueueDeliveries(tx, event, policy);
  return event;
}

/** Records the `payment.<status>` event of a newly created intent (same transaction). */
export function recordIntentCreated(
  tx: Executor,
  intent: IntentRow,
  source: EventSource,
  policy: DeliveryPolicy,
) {
  return recordEvent(tx, intent, source, policy);
}

/**
 * Moves `intent` (as last read) to `change.status` inside the caller's transaction and records the
 * event, or refuses with 409 `{from, to}` when the rule forbids it. The update is conditional on
 * the status read: if another writer moved the intent meanwhile, this is the same 409 (with the
 * status found now), never a lost update.
 */
export async function applyIntentStatus(
  tx: Executor,
  intent: IntentRow,
  change: StatusChange,
  source: EventSource,
  policy: DeliveryPolicy,
): Promise<{ intent: IntentRow; event: PaymentEventRow }> {
  const refuse = (from: IntentStatus) =>
    conflict(`An intent cannot move from ${from} to ${change.status}`, { from, to: change.status });
  if (!canTransition(intent.status, change.status)) throw refuse(intent.status);
  const moved = await repo.moveIntent(tx, intent.id, intent.status, {
    status: change.status,
    status_detail: change.status_detail ?? null,
  });
  if (moved === undefined) {
    const now = await repo.findIntent(tx, intent.id);
    throw refuse(now?.status ?? intent.status);
  }
  return { intent: moved, event: await recordEvent(tx, moved, source, policy) };
}
