import { boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from '../../../../kernel/db/columns.ts';
import { LANGUAGES } from '../../../../kernel/pages/language.ts';
import { wallets } from '../../wallets/wallets.table.ts';

/**
 * Webhook endpoints of a wallet (docs/reference/webhooks.md). The signing secret (`whsec_…`) is shown once
 * and kept sealed with SECRETS_KEY (the worker needs it to sign, so it cannot be a hash). During a rotation
 * the previous secret keeps signing alongside until `previous_secret_expires_at`. `event_types` null means
 * every type.
 *
 * Health (issue 17), written by the delivery worker with each batch of recorded attempts: the
 * circuit breaker's state (`consecutive_failures`, `paused_until`, `breaker_trips`) and attempt
 * counts of the current clock hour and the one before it (`health_hour` names the current one), so
 * the recent success rate is exact and costs no scan of the attempts.
 *
 * Health mails (docs/reference/webhooks.md, "Health mails"): the owner is told when the breaker first
 * opens, a 410 disables the endpoint or a delivery uses up the retry schedule, at most once a day:
 * `health_mailed_at` is set by the very statement that records the cause and queues the mail, and only
 * when it is null or a day old, so two workers cannot both send one. `language` is the owner's, from
 * the request that created the endpoint.
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
    /** Failed attempts in a row (reset by a success). */
    consecutive_failures: integer('consecutive_failures').notNull().default(0),
    /** Set when the breaker trips: no attempt before it, one probe after it; null once it closes. */
    paused_until: timestamptz('paused_until'),
    /** Trips in a row without a success since (each doubles the pause). */
    breaker_trips: integer('breaker_trips').notNull().default(0),
    health_hour: timestamptz('health_hour'),
    hour_attempts: integer('hour_attempts').notNull().default(0),
    hour_successes: integer('hour_successes').notNull().default(0),
    previous_hour_attempts: integer('previous_hour_attempts').notNull().default(0),
    previous_hour_successes: integer('previous_hour_successes').notNull().default(0),
    /** The language of the owner's mails about it (`Accept-Language` of its creation). */
    language: text('language', { enum: LANGUAGES }).notNull().default('en'),
    /** When its owner was last mailed about its health (at most once a day). */
    health_mailed_at: timestamptz('health_mailed_at'),
    /** Why: `paused`, `gone` or `retries_exhausted`. */
    health_mail_reason: text('health_mail_reason'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (table) => [index('webhook_endpoints_wallet_idx').on(table.wallet_id, table.created_at)],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
