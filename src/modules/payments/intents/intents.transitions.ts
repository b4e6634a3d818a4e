/**
 * The one place an intent's status changes and its payment event is written (docs/reference/payments.md).
 * Test mode, cancellation and provider notifications all come through here; `recordEvent` writes
 * the event's deliveries beside it, inside the caller's transaction (the outbox: the change, its
 * event and its deliveries commit together or not at all).
 */
import type { Executor } from '../../../kernel/db/client.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { conflict } from '../../../kernel/http/errors.ts';
import type { Outbox } from '../deps.ts';
import * as repo from './intents.repository.ts';
import { findPendingRefund } from './refunds.repository.ts';

/**
 * What the transitions need of the outbox: the statement of an event's deliveries (waking the
 * workers is the caller's, after commit) and who hears a transition inside its transaction (the events
 * module, wired in `src/flows/`). Both are required: a caller cannot leave the listeners out and silently
 * skip confirming a paid registration.
 */
type DeliveryPolicy = Pick<Outbox, 'deliveriesOf' | 'listeners'>;

/** An event written, and how many deliveries it queued (wake the workers when any). */
export interface RecordedEvent {
  event: PaymentEventRow;
  queued: number;
}

import type {
  IntentRefusal,
  IntentRow,
  IntentStatus,
  IntentStatusDetail,
  NewIntent,
  PaymentEventRow,
} from './intents.table.ts';

/** What produced a change: `testmode`, `simulate`, `cancel`, or a provider slug. */
export type EventSource = 'testmode' | 'simulate' | 'cancel' | (string & {});

export interface StatusChange {
  status: IntentStatus;
  status_detail?: IntentStatusDetail | null | undefined;
  /** The provider's payment that caused it, recorded as `provider_data.transaction_id`. */
  transaction_id?: string | undefined;
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

/**
 * The fields of the `data` object of the outbound webhook body, in the order of docs/reference/webhooks.md.
 * The payload is stored as jsonb, which keeps its own key order; bodies are sent in this one.
 */
export const EVENT_DATA_FIELDS = [
  'event_id',
  'intent_id',
  'wallet_id',
  'provider',
  'external_id',
  'status',
  'status_detail',
  'amount_cents',
  'currency',
  'sandbox',
  'metadata',
] as const;
export type EventData = Record<(typeof EVENT_DATA_FIELDS)[number], unknown>;

/** The `data` object of the outbound webhook body (docs/reference/webhooks.md), stored as the event payload. */
export function eventPayload(eventId: string, intent: NewIntent): EventData {
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

/** Writes the intent's `payment.<status>` event and its deliveries in the caller's transaction. */
export async function recordEvent(
  tx: Executor,
  intent: IntentRow,
  source: EventSource,
  policy: DeliveryPolicy,
): Promise<RecordedEvent> {
  const id = uuidv7();
  const event = await repo.insertPaymentEvent(tx, {
    id,
    wallet_id: intent.wallet_id,
    intent_id: intent.id,
    type: `payment.${intent.status}`,
    source,
    payload: { ...eventPayload(id, intent) },
  });
  return { event, queued: await repo.enqueueDeliveries(tx, event, policy) };
}

/**
 * Checks the wallet (only one of `ownerId`'s is found at all, so someone else's takes the path of an
 * unknown one) and the seller, then creates the intent with its `payment.<status>` event and
 * the event's deliveries, all in one statement (`insertIntentWithEvent`): atomic without a
 * transaction and one round trip (intent creation is the hot write of test mode). Its wallet check
 * is `requireWalletOwner`'s, written in SQL; `testmode.test.ts` holds the two equal. The checks are read
 * without a lock: a seller revoked meanwhile still gets this one intent, as if the revocation had come a
 * moment later. Every column but the collector and the timestamps is what was sent, so the row is rebuilt
 * from the values and what the statement answers.
 */
export async function createIntent(
  db: Executor,
  ownerId: string,
  values: NewIntent,
  source: EventSource,
  policy: DeliveryPolicy,
): Promise<{ refusal: IntentRefusal } | { refusal: undefined; intent: IntentRow; queued: number }> {
  const eventId = uuidv7();
  const type = `payment.${values.status}`;
  const payload = eventPayload(eventId, values);
  const row = await repo.insertIntentWithEvent(
    db,
    ownerId,
    values,
    { id: eventId, type, source, payload },
    policy,
  );
  if (row === undefined) return { refusal: 'no_wallet' };
  if (row.refusal !== null || row.created_ms === null) return { refusal: row.refusal ?? 'no_wallet' };
  const createdAt = new Date(Number(row.created_ms));
  return {
    refusal: undefined,
    intent: {
      ...values,
      fee_bps: values.fee_bps ?? null,
      collector_id: row.collector_id,
      refunded_cents: 0,
      created_at: createdAt,
      updated_at: createdAt,
    },
    queued: Number(row.queued),
  };
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
): Promise<RecordedEvent & { intent: IntentRow }> {
  const refuse = (from: IntentStatus) =>
    conflict('invalid_transition', `An intent cannot move from ${from} to ${change.status}`, {
      from,
      to: change.status,
    });
  if (!canTransition(intent.status, change.status)) throw refuse(intent.status);
  const moved = await repo.moveIntent(tx, intent.id, intent.status, {
    status: change.status,
    status_detail: change.status_detail ?? null,
    transaction_id: change.transaction_id,
  });
  if (moved === undefined) {
    const now = await repo.findIntent(tx, intent.id);
    throw refuse(now?.status ?? intent.status);
  }
  const recorded = await recordEvent(tx, moved, source, policy);
  // A move to `refunded` completes the refund pending for the intent, if any (the service's own,
  // settled after this or announced by the provider first): its listeners learn why it was asked.
  const refundReason =
    moved.status === 'refunded' ? ((await findPendingRefund(tx, moved.id))?.reason ?? null) : null;
  for (const listener of policy.listeners) {
    await listener(tx, {
      intentId: moved.id,
      walletId: moved.wallet_id,
      from: intent.status,
      to: moved.status,
      amountCents: moved.amount_cents,
      currency: moved.currency,
      metadata: moved.metadata,
      refundReason,
    });
  }
  return { intent: moved, ...recorded };
}
