import { boolean, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from '../../../../kernel/db/columns.ts';
import { wallets } from '../../wallets/wallets.table.ts';

/**
 * Webhook endpoints of a wallet (contract 7.3). The signing secret (`whsec_…`) is shown once and
 * kept sealed with SECRETS_KEY (the worker needs it to sign, so it cannot be a hash). During a
 * rotation the previous secret keeps signing alongside until `previous_secret_expires_at`.
 * `event_types` null means every type.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey(),
    wallet_id: uuid('wallet_id')
      .notNull()
      .references(() => wallets.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    event_types: jsonb('event_types').$type<string[] | null>(),
    secret: text('secret').notNull(),
    previous_secret: text('previous_secret'),
    previous_secret_expires_at: timestamptz('previous_secret_expires_at'),
    /** Why the service disabled it (`gone` after a 410), null when enabled or disabled by hand. */
    disabled_reason: text('disabled_reason'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (table) => [index('webhook_endpoints_wallet_idx').on(table.wallet_id, table.created_at)],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
