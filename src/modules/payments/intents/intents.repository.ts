/** SQL of intents and payment events (the owner's reads of events included). */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import { queryRows, queryRowsPrepared } from '../../../kernel/db/raw.ts';
import { sealedTokensOfSeller } from '../connections/index.ts';
import type { Outbox } from '../deps.ts';
import type { Provider } from '../providers/index.ts';
import { collectorOfWallet, isOwnedBy } from '../wallets/index.ts';
import {
  type IntentRefusal,
  type IntentRow,
  type IntentStatus,
  type IntentStatusDetail,
  intents,
  type NewIntent,
  type PaymentEventRow,
  paymentEvents,
} from './intents.table.ts';

export type NewPaymentEvent = typeof paymentEvents.$inferInsert;

/** What a paid checkout's intent took (`succeeded`) or took and gave back (`refunded`). */
const PAID = sql`${intents.status} in ('succeeded', 'refunded')`;

/**
 * The money of ticket checkouts' intents among `ids` (an intent with no `fee_bps` was made by no
 * checkout and is left out): one statement for a page of registrations, prepared on a server like
 * the next one (the organisers' sales screen asks both often).
 */
export function findCheckoutMoney(db: Executor, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return queryRowsPrepared<{
    id: string;
    status: IntentStatus;
    amount_cents: number;
    refunded_cents: number;
    currency: string;
  }>(
    db,
    'checkout_money',
    sql`select id, status, amount_cents::float8 as amount_cents, refunded_cents::float8 as refunded_cents, currency
          from ${intents}
         where id = any(${`{${ids.join(',')}}`}::uuid[]) and fee_bps is not null`,
  );
}

/**
 * The sums of an edition's paid checkouts per ticket type and currency, found by the edition their
 * checkout wrote in `metadata` (`intents_checkout_edition_idx`). The platform's fee is on what was
 * kept: the provider gives the marketplace fee back with a refund, in proportion.
 */
export function sumCheckoutSales(db: Executor, editionId: string) {
  return queryRowsPrepared<{
    ticket_type_id: string;
    currency: string;
    payments: number;
    revenue_cents: number;
    refunded_cents: number;
    fee_cents: number;
  }>(
    db,
    'checkout_sales_of_edition',
    sql`select metadata ->> 'ticket_type_id' as ticket_type_id, currency, count(*)::int as payments,
               sum(amount_cents)::float8 as revenue_cents, sum(refunded_cents)::float8 as refunded_cents,
               sum(round((amount_cents - refunded_cents) * fee_bps / 10000.0))::float8 as fee_cents
          from ${intents}
         where (metadata ->> 'edition_id') = ${editionId} and fee_bps is not null and ${PAID}
         group by 1, 2`,
  );
}

export async function findIntent(db: Executor, id: string): Promise<IntentRow | undefined> {
  const [row] = await db.select().from(intents).where(eq(intents.id, id)).limit(1);
  return row;
}

/** The intent, locked until the end of the caller's transaction (a refund's reservation). */
export async function lockIntent(db: Executor, id: string): Promise<IntentRow | undefined> {
  const [row] = await db.select().from(intents).where(eq(intents.id, id)).for('update').limit(1);
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
 * (undefined), so two writers can never both apply a transition from the same state. `refunded`
 * means all of it was given back (a partial refund keeps `succeeded`), so it sets `refunded_cents`
 * to the amount, whichever way the news came: the service's own refund, or the provider's
 * notification of a refund or chargeback made elsewhere.
 */
export async function moveIntent(
  db: Executor,
  id: string,
  from: IntentStatus,
  to: { status: IntentStatus; status_detail: IntentStatusDetail | null; transaction_id?: string | undefined },
): Promise<IntentRow | undefined> {
  const [row] = await db
    .update(intents)
    .set({
      status: to.status,
      status_detail: to.status_detail,
      ...(to.status === 'refunded' ? { refunded_cents: sql`${intents.amount_cents}` } : {}),
      ...(to.transaction_id === undefined
        ? {}
        : {
            provider_data: sql`${intents.provider_data} || jsonb_build_object('transaction_id', ${to.transaction_id}::text)`,
          }),
      updated_at: sql`now()`,
    })
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

/** The row `insertIntentWithEvent` answers: why nothing was written, or what the database added. */
export interface IntentWithEventRow {
  refusal: IntentRefusal | null;
  collector_id: string | null;
  created_ms: number | null;
  queued: number;
}

/**
 * The hot write of test mode in one statement: the wallet guard (`w.owner_id` = the caller, as
 * `requireWalletOwner`), the seller checks, the intent, its event and the event's deliveries.
 * Nothing is written when a check refuses; no row at all when the wallet is not the caller's.
 */
export async function insertIntentWithEvent(
  db: Executor,
  ownerId: string,
  values: NewIntent,
  event: { id: string; type: string; source: string; payload: unknown },
  policy: Pick<Outbox, 'deliveriesOf'>,
): Promise<IntentWithEventRow | undefined> {
  const [row] = await queryRowsPrepared<IntentWithEventRow>(
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
        select ${event.id}, wallet_id, id, ${event.type}, ${event.source}, ${JSON.stringify(event.payload)}::jsonb
        from intent
        returning id, wallet_id, type
      ),
      queued as (${policy.deliveriesOf(sql`event`)})
      select checked.refusal, checked.collector_id,
             (extract(epoch from intent.created_at) * 1000)::float8 as created_ms,
             (select count(*)::int from queued) as queued
      from checked left join intent on true`,
  );
  return row;
}

/** Inserts an intent whose collector is its wallet's at this moment (a checkout's). */
export async function insertIntent(db: Executor, values: NewIntent): Promise<IntentRow> {
  const [row] = await db
    .insert(intents)
    .values({
      ...values,
      collector_id: collectorOfWallet(values.wallet_id),
    })
    .returning();
  return row!;
}

/**
 * Records a refund the provider made: `refunded_cents` grows by `amountCents`, never past the
 * amount. Whatever the intent's status: the provider's notification of the same refund may have
 * moved it to `refunded` (all given back) before the refund's own answer is recorded.
 */
export async function addRefund(db: Executor, id: string, amountCents: number): Promise<IntentRow> {
  const [row] = await db
    .update(intents)
    .set({
      refunded_cents: sql`least(${intents.refunded_cents} + ${amountCents}, ${intents.amount_cents})`,
      updated_at: sql`now()`,
    })
    .where(eq(intents.id, id))
    .returning();
  return row!;
}

export interface OutboxEvent {
  id: string;
  wallet_id: string;
  type: string;
}

/**
 * One pending delivery per enabled endpoint of the event's wallet that takes its type (no
 * `event_types`: every type), first attempt due after the schedule's first delay (the statement is
 * the webhooks' outbox's, `Outbox.deliveriesOf`). Returns how many were written.
 */
export async function enqueueDeliveries(
  tx: Executor,
  event: OutboxEvent,
  outbox: Pick<Outbox, 'deliveriesOf'>,
): Promise<number> {
  const [row] = await queryRows<{ queued: number }>(
    tx,
    sql`
      with queued as (${outbox.deliveriesOf(
        sql`(values (${event.id}::uuid, ${event.wallet_id}::uuid, ${event.type}::text)) as event (id, wallet_id, type)`,
      )})
      select count(*)::int as queued from queued`,
  );
  return Number(row?.queued ?? 0);
}

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

/**
 * Stores an event of the wallet that belongs to no intent: the one such event is `webhook.test`
 * (its type and source are the webhooks feature's, `webhooks/endpoints/endpoints.service.ts`).
 */
export async function insertEventOfNoIntent(
  tx: Executor,
  event: { id: string; wallet_id: string; type: string; source: string; payload: Record<string, unknown> },
): Promise<void> {
  await tx.insert(paymentEvents).values({ ...event, intent_id: null });
}

/**
 * The intent of `provider` whose `provider_data.transaction_id` is `transactionId`, with its
 * seller's sealed provider tokens (null for test or revoked sellers). The expression is the one of
 * `intents_transaction_idx`. Should several intents carry the id, the newest is the one meant.
 */
export async function findIntentByTransaction(
  db: Executor,
  provider: Provider,
  transactionId: string,
): Promise<{ intent: IntentRow; sealedTokens: string | null } | undefined> {
  const [row] = await db
    .select({ intent: intents, sealedTokens: sealedTokensOfSeller(intents.seller_id) })
    .from(intents)
    .where(
      and(
        eq(intents.provider, provider),
        sql`(${intents.provider_data} ->> 'transaction_id') = ${transactionId}`,
      ),
    )
    .orderBy(desc(intents.created_at), desc(intents.id))
    .limit(1);
  return row;
}
