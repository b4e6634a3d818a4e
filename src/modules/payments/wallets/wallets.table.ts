import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from '../../../kernel/db/columns.ts';
import { PROVIDERS } from '../providers/index.ts';

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

export type WalletRow = typeof wallets.$inferSelect;

/**
 * Provider accounts that receive funds (docs/reference/payments.md), bound after an OAuth connect.
 * Credentials are encrypted with SECRETS_KEY (AES-256-GCM, `kernel`'s secret box) and erased on revocation.
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

export type CollectorRow = typeof collectors.$inferSelect;
