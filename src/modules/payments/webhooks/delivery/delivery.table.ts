import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from '../../../../kernel/db/columns.ts';
import { paymentEvents } from '../../intents/intents.table.ts';
import { wallets } from '../../wallets/wallets.table.ts';
import { webhookEndpoints } from '../endpoints/endpoints.table.ts';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event owed to one endpoint: the outbox row. It is written in the transaction that writes the
 * event, before any attempt, so a crash can never lose it. The worker claims due rows with
 * `FOR UPDATE SKIP LOCKED` and leases them (`leased_until`, `claim_id`): a process that dies
 * mid-attempt leaves the row claimable again when the lease ends, and a late result of a lost
 * lease (its `claim_id` no longer matches) is discarded. The claim touches no indexed column, so
 * PostgreSQL can update the row in place (HOT; the table keeps 30 % of each page free for it).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    event_id: uuid('event_id')
      .notNull()
      .references(() => paymentEvents.id),
    endpoint_id: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    wallet_id: uuid('wallet_id')
      .notNull()
      .references(() => wallets.id, { onDelete: 'cascade' }),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    last_attempted_at: timestamptz('last_attempted_at'),
    response_status: integer('response_status'),
    response_body: text('response_body'),
    /** Why the last attempt failed without a response (timeout, refused connection, …). */
    last_error: text('last_error'),
    /** When the next attempt is due; null once final. */
    next_attempt_at: timestamptz('next_attempt_at'),
    /** The claim holding the lease, null when not claimed. */
    claim_id: uuid('claim_id'),
    /** When the claim's lease ends: past it, any process may claim the delivery again. */
    leased_until: timestamptz('leased_until'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (table) => [
    // The worker's queue: only pending rows, in due order.
    index('webhook_deliveries_due_idx').on(table.next_attempt_at).where(sql`${table.status} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(table.endpoint_id, table.created_at),
    // One endpoint's waiting deliveries, moved to the end of its pause when its breaker trips.
    index('webhook_deliveries_endpoint_pending_idx')
      .on(table.endpoint_id, table.next_attempt_at)
      .where(sql`${table.status} = 'pending'`),
    check('webhook_deliveries_status_check', sql`${table.status} in ('pending', 'delivered', 'failed')`),
  ],
);

/** Every attempt of a delivery, numbered from 1 (a number is never used twice). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey(),
    delivery_id: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    started_at: timestamptz('started_at').notNull(),
    duration_ms: integer('duration_ms').notNull(),
    response_status: integer('response_status'),
    /** The first 4 KiB of the response body. */
    response_body: text('response_body'),
    error: text('error'),
  },
  (table) => [uniqueIndex('webhook_attempts_delivery_attempt_unique').on(table.delivery_id, table.attempt)],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
