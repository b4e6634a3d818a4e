import { boolean, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from '../../../kernel/db/columns.ts';
import { PROVIDERS } from '../providers/index.ts';
import { wallets } from '../wallets/wallets.table.ts';

export const CONNECT_FLOWS = ['collector', 'seller'] as const;

export type ConnectFlow = (typeof CONNECT_FLOWS)[number];

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

export type SellerRow = typeof sellers.$inferSelect;
