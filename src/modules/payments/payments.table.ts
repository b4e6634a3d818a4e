import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from '../../kernel/db/columns.ts';

export const PROVIDERS = ['mercadopago'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const CONNECT_FLOWS = ['collector', 'seller'] as const;
export type ConnectFlow = (typeof CONNECT_FLOWS)[number];
export const INTENT_STATUSES = [
  'pending',
  'processing',
  'succeeded',
  'rejected',
  'cancelled',
  'failed',
  'refunded',
] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];
export const INTENT_STATUS_DETAILS = [
  'insufficient_funds',
  'high_risk',
  'invalid_card',
  'card_disabled',
  'expired_card',
  'invalid_security_code',
  'pending_review',
  'expired',
  'other',
] as const;
export type IntentStatusDetail = (typeof INTENT_STATUS_DETAILS)[number];

/**
 * Provider accounts that receive funds (contract 7.1), bound after an OAuth connect. Credentials
 * are encrypted with SECRETS_KEY (AES-256-GCM, `kernel`'s secret box) and erased on revocation.
 */
export const collectors = pgTable(
  'collectors',
  {
    id: uuid('id').primaryKey(),
    owner_id: uuid('owner_id').notNull(),
    provider: text('provider', { enum: PROVIDERS }).notNull(),
    provider_user_id: text('provider_user_id').notNull(),
    /** Encrypted access and refresh tokens (null once revoked). */
    credentials: text('credentials'),
    token_expires_at: timestamptz('token_expires_at'),
    created_at: createdAt(),
    updated_at: updatedAt(),
    revoked_at: timestamptz('revoked_at'),
  },
  (table) => [index('collectors_owner_idx').on(table.owner_id, table.created_at)],
);

export const wallets = pgTable(
  'wallets',
  {
    id: uuid('id').primaryKey(),
    owner_id: uuid('owner_id').notNull(),
    name: text('name').notNull(),
    sandbox: boolean('sandbox').notNull().default(false),
    fee_bps: integer('fee_bps').notNull().default(0),
    collector_id: uuid('collector_id').references(() => collectors.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (table) => [
    uniqueIndex('wallets_owner_name_unique').on(table.owner_id, table.name),
    check('wallets_fee_check', sql`${table.fee_bps} between 0 and 10000`),
  ],
);

/** Accounts selling through a wallet (flow `seller`, or test-mode sellers without OAuth). */
export const sellers = pgTable(
  'sellers',
  {
    id: uuid('id').primaryKey(),
    wallet_id: uuid('wallet_id')
      .notNull()
      .references(() => wallets.id, { onDelete: 'cascade' }),
    owner_id: uuid('owner_id').notNull(),
    provider: text('provider', { enum: PROVIDERS }).notNull(),
    provider_user_id: text('provider_user_id').notNull(),
    credentials: text('credentials'),
    token_expires_at: timestamptz('token_expires_at'),
    is_test: boolean('is_test').notNull().default(false),
    created_at: createdAt(),
    updated_at: updatedAt(),
    revoked_at: timestamptz('revoked_at'),
  },
  (table) => [index('sellers_wallet_idx').on(table.wallet_id, table.created_at)],
);

/**
 * Pending OAuth connections: a single-use `state` (stored hashed) and the PKCE verifier
 * (encrypted), expiring after ten minutes.
 */
export const oauthStates = pgTable(
  'oauth_states',
  {
    id: uuid('id').primaryKey(),
    state_hash: text('state_hash').notNull(),
    provider: text('provider', { enum: PROVIDERS }).notNull(),
    flow: text('flow', { enum: CONNECT_FLOWS }).notNull(),
    owner_id: uuid('owner_id').notNull(),
    wallet_id: uuid('wallet_id').references(() => wallets.id, { onDelete: 'cascade' }),
    final_redirect_url: text('final_redirect_url').notNull(),
    code_verifier: text('code_verifier').notNull(),
    expires_at: timestamptz('expires_at').notNull(),
    used_at: timestamptz('used_at'),
    created_at: createdAt(),
  },
  (table) => [uniqueIndex('oauth_states_state_unique').on(table.state_hash)],
);

/** Payment intents (contract 7.2). Status changes go through intents' one transition function. */
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
    currency: text('currency').notNull(),
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
    intent_id: uuid('intent_id')
      .notNull()
      .references(() => intents.id),
    type: text('type').notNull(),
    /** What produced it: `testmode`, `simulate`, `cancel`, or a provider slug. */
    source: text('source').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    created_at: createdAt(),
  },
  (table) => [
    index('payment_events_wallet_idx').on(table.wallet_id, table.created_at),
    index('payment_events_intent_idx').on(table.intent_id, table.created_at),
  ],
);

export type WalletRow = typeof wallets.$inferSelect;
export type CollectorRow = typeof collectors.$inferSelect;
export type SellerRow = typeof sellers.$inferSelect;
export type IntentRow = typeof intents.$inferSelect;
export type PaymentEventRow = typeof paymentEvents.$inferSelect;
