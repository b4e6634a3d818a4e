import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../../kernel/db/columns.ts';
import { sellers } from '../connections/connections.table.ts';
import { INTENT_STATUS_DETAILS, INTENT_STATUSES, PROVIDERS } from '../providers/index.ts';
import { collectors, wallets } from '../wallets/wallets.table.ts';

// The status vocabulary is the providers' (what each adapter maps to); intents store it.
export {
  INTENT_STATUS_DETAILS,
  INTENT_STATUSES,
  type IntentStatus,
  type IntentStatusDetail,
} from '../providers/index.ts';

/** Payment intents (docs/reference/payments.md). Status changes go through intents' one transition function. */
export const intents = pgTable(
  'intents',
  {
    id: uuid('id').primaryKey(),
    wallet_id: uuid('wallet_id')
      .notNull()
      .references(() => wallets.id),
    seller_id: uuid('seller_id')
      .notNull()
      .references(() => sellers.id),
    collector_id: uuid('collector_id').references(() => collectors.id),
    amount_cents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** What the provider gave back so far (docs/reference/checkout.md: a partial refund keeps `succeeded`). */
    refunded_cents: bigint('refunded_cents', { mode: 'number' }).notNull().default(0),
    currency: text('currency').notNull(),
    /**
     * The wallet's marketplace fee (basis points) sent with a ticket checkout's preference, so the
     * platform's fee on it is known later whatever the wallet's fee is then (the sales summary,
     * docs/reference/tickets.md). Null for an intent no checkout made (test mode): it names the
     * checkouts, whose `metadata` the service wrote itself.
     */
    fee_bps: integer('fee_bps'),
    sandbox: boolean('sandbox').notNull(),
    provider: text('provider', { enum: PROVIDERS }).notNull(),
    status: text('status', { enum: INTENT_STATUSES }).notNull(),
    status_detail: text('status_detail', { enum: INTENT_STATUS_DETAILS }),
    provider_data: jsonb('provider_data').$type<Record<string, unknown>>().notNull().default({}),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (table) => [
    index('intents_wallet_created_idx').on(table.wallet_id, table.created_at),
    // Inbound notifications find their intent by the provider's transaction id (issue 6).
    index('intents_transaction_idx').on(table.provider, sql`(${table.provider_data} ->> 'transaction_id')`),
    // A ticket checkout's intents by edition (the sales summary): checkouts only, as their metadata
    // is the service's own (a test-mode intent's is whatever its creator sent).
    index('intents_checkout_edition_idx')
      .on(sql`(${table.metadata} ->> 'edition_id')`)
      .where(sql`${table.fee_bps} is not null`),
    check('intents_fee_check', sql`${table.fee_bps} between 0 and 10000`),
    check('intents_refunded_check', sql`${table.refunded_cents} between 0 and ${table.amount_cents}`),
    check('intents_amount_check', sql`${table.amount_cents} > 0`),
    check('intents_currency_check', sql`${table.currency} ~ '^[A-Z]{3}$'`),
    check(
      'intents_status_check',
      sql`${table.status} in ('pending', 'processing', 'succeeded', 'rejected', 'cancelled', 'failed', 'refunded')`,
    ),
  ],
);

/**
 * Normalized payment events (`payment.<status>`), written in the same transaction as the intent
 * change that caused them; the webhook pipeline (issue 6) adds one delivery per endpoint.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: uuid('id').primaryKey(),
    wallet_id: uuid('wallet_id')
      .notNull()
      .references(() => wallets.id),
    /** Null only for `webhook.test`, which belongs to no intent. */
    intent_id: uuid('intent_id').references(() => intents.id),
    type: text('type').notNull(),
    /** What produced it: `testmode`, `simulate`, `cancel`, `test` (webhook.test), or a provider slug. */
    source: text('source').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    created_at: createdAt(),
  },
  (table) => [
    index('payment_events_wallet_idx').on(table.wallet_id, table.created_at),
    index('payment_events_intent_idx').on(table.intent_id, table.created_at),
  ],
);

export type IntentRow = typeof intents.$inferSelect;
/** What an intent is, before the database adds its timestamps. */
export type IntentFields = Omit<IntentRow, 'created_at' | 'updated_at'>;
/** An intent to create: the collector is the wallet's, as bound when the statement runs. */
export type NewIntent = Omit<IntentFields, 'collector_id' | 'refunded_cents' | 'fee_bps'> & {
  fee_bps?: number | null;
};

/**
 * Why a test-mode intent was not created, in the order the checks apply: the wallet is not the
 * caller's (404; unknown and someone else's are one reason, so the answer cannot tell them apart
 * and nothing else about the wallet is looked at), the seller is not this wallet's (404), the
 * seller is revoked (409), or a live intent was sent to a sandbox wallet (409).
 */
export type IntentRefusal = 'no_wallet' | 'no_seller' | 'seller_revoked' | 'sandbox_only';
export type PaymentEventRow = typeof paymentEvents.$inferSelect;
