/**
 * The one place an intent's status changes and its payment event is written (contract 7.2).
 * Test mode, cancellation and provider notifications all come through here; `recordEvent` writes
 * the event's deliveries beside it, inside the caller's transaction (the outbox: the change, its
 * event and its deliveries commit together or not at all).
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { queryRowsPrepared } from '../../../kernel/db/raw.ts';
import { conflict } from '../../../kernel/http/errors.ts';
import { enqueueDeliveries, insertDeliveries, type Outbox } from '../webhooks/delivery/outbox.ts';
import * as repo from './intents.repository.ts';

/** What the transitions need of the outbox (waking the workers is the caller's, after commit). */
type DeliveryPolicy = Pick<Outbox, 'retryScheduleSeconds'>;

/** What an intent is, before the database adds its timestamps. */
export type IntentFields = Omit<IntentRow, 'created_at' | 'updated_at'>;
/** An intent to create: the collector is the wallet's, as bound when the statement runs. */
export type NewIntent = Omit<IntentFields, 'collector_id'>;

/** An event written, and how many deliveries it queued (wake the workers when any). */
export interface RecordedEvent {
  event: PaymentEventRow;
  queued: number;
}

import type { IntentRow, IntentStatus, IntentStatusDetail, PaymentEventRow } from './intents.table.ts';

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

/**
 * The fields of the `data` object of the outbound webhook body, in the contract's order (7.3).
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

/** The `data` object of the outbound webhook body (contract 7.3), stored as the event payload. */
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

async function recordEvent(
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
  return { event, queued: await enqueueDeliveries(tx, event, policy) };
}

/**
 * Why a test-mode intent was not created, in the order the checks apply: the wallet is not the
 * caller's (404; unknown and someone else's are one reason, so the answer cannot tell them apart
 * and nothing else about the wallet is looked at), the seller is not this wallet's (404), the
 * seller is revoked (409), or a live intent was sent to a sandbox wallet (409).
 */
export type IntentRefusal = 'no_wallet' | 'no_seller' | 'seller_revoked' | 'sandbox_only';

/**
 * Checks the wallet (only one of `ownerId`'s is found at all, so someone else's takes the path of an
 * unknown one) and the seller, then creates the intent with its `payment.<status>` event and
 * the event's deliveries, all in one statement: atomic without a transaction and one round trip
 * (intent creation is the hot write of test mode). The checks are read without a lock: a seller
 * revoked meanwhile still gets this one intent, as if the revocation had come a moment later.
 * Every column but the collector and the timestamps is what was sent, so the row is rebuilt from
 * the values and what the statement answers.
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
  const [row] = await queryRowsPrepared<{
    refusal: IntentRefusal | null;
    collector_id: string | null;
    created_ms: number | null;
    queued: number;
  }>(
    db,
    'create_intent_with_event',
    sql`
      with checked as (
        select w.collector_id,
               case when s.id is null then 'no_seller'
                    when s.revoked_at is not null then 'seller_revoked'
                    when w.sandbox and not ${values.sandbox}::boolean then 'sandbox_only'
               end as refusal
        from wallets w
        left join sellers s on s.id = ${values.seller_id}::uuid and s.wallet_id = w.id
        where w.id = ${values.wallet_id}::uuid and w.owner_id = ${ownerId}::uuid
      ),
      intent as (
        insert into intents (id, wallet_id, seller_id, collector_id, amount_cents, currency, sandbox,
                             provider, status, status_detail, provider_data, metadata)
        select ${values.id}, ${values.wallet_id}, ${values.seller_id}, checked.collector_id,
               ${values.amount_cents}, ${values.currency}, ${values.sandbox}, ${values.provider},
               ${values.status}, ${values.status_detail}, ${JSON.stringify(values.provider_data)}::jsonb,
               ${JSON.stringify(values.metadata)}::jsonb
        from checked
        where checked.refusal is null
        returning id, wallet_id, created_at
      ),
      event as (
        insert into payment_events (id, wallet_id, intent_id, type, source, payload)
        select ${eventId}, wallet_id, id, ${type}, ${source}, ${JSON.stringify(payload)}::jsonb
        from intent
        returning id, wallet_id, type
      ),
      queued as (${insertDeliveries(sql`event`, policy)})
      select checked.refusal, checked.collector_id,
             (extract(epoch from intent.created_at) * 1000)::float8 as created_ms,
             (select count(*)::int from queued) as queued
      from checked left join intent on true`,
  );
  if (row === undefined) return { refusal: 'no_wallet' };
  if (row.refusal !== null || row.created_ms === null) return { refusal: row.refusal ?? 'no_wallet' };
  const createdAt = new Date(Number(row.created_ms));
  return {
    refusal: undefined,
    intent: { ...values, collector_id: row.collector_id, created_at: createdAt, updated_at: createdAt },
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
  return { intent: moved, ...(await recordEvent(tx, moved, source, policy)) };
}
