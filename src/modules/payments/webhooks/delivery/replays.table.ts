import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from '../../../../kernel/db/columns.ts';
import { wallets } from '../../wallets/wallets.table.ts';
import { webhookEndpoints } from '../endpoints/endpoints.table.ts';

/** Which deliveries a replay sends again: `all` is both, never `pending` ones (already owed an attempt). */
export const REPLAY_SELECTIONS = ['failed', 'delivered', 'all'] as const;
export type ReplaySelection = (typeof REPLAY_SELECTIONS)[number];
export const REPLAY_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ReplayStatus = (typeof REPLAY_STATUSES)[number];

/**
 * A replay of an endpoint's deliveries (docs/reference/webhooks.md, "Replaying deliveries"): the
 * request, its progress, and a durable cursor. The job (kernel/jobs, keyed by the replay's id) walks
 * the endpoint's deliveries of `[since, until)` in `(created_at, id)` order, a batch per
 * transaction; each batch queues its deliveries and moves the cursor past them in the same
 * transaction. So a process killed mid-replay leaves whole batches behind, and whichever process
 * claims the job next starts after the last committed one: no delivery is queued twice by one replay.
 */
export const webhookReplays = pgTable(
  'webhook_replays',
  {
    id: uuid('id').primaryKey(),
    endpoint_id: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    wallet_id: uuid('wallet_id')
      .notNull()
      .references(() => wallets.id, { onDelete: 'cascade' }),
    requested_by: uuid('requested_by').notNull(),
    since: timestamptz('since').notNull(),
    until: timestamptz('until').notNull(),
    /** The deliveries it sends again, by status. */
    selection: text('selection', { enum: REPLAY_SELECTIONS }).notNull(),
    status: text('status', { enum: REPLAY_STATUSES }).notNull().default('queued'),
    /** Deliveries that matched when the replay started. */
    total: integer('total').notNull().default(0),
    /** Of those, how many the replay has looked at. */
    done: integer('done').notNull().default(0),
    /** Of those, how many it queued for a new attempt. */
    queued: integer('queued').notNull().default(0),
    /** Of those, how many no longer matched when their batch came (retried or attempted since). */
    skipped: integer('skipped').notNull().default(0),
    /** The last delivery a committed batch looked at: the next batch starts after it. */
    cursor_created_at: timestamptz('cursor_created_at'),
    cursor_id: uuid('cursor_id'),
    last_error: text('last_error'),
    created_at: createdAt(),
    started_at: timestamptz('started_at'),
    finished_at: timestamptz('finished_at'),
    updated_at: updatedAt(),
  },
  (table) => [
    index('webhook_replays_endpoint_idx').on(table.endpoint_id, table.created_at),
    check('webhook_replays_selection_check', sql`${table.selection} in ('failed', 'delivered', 'all')`),
    check(
      'webhook_replays_status_check',
      sql`${table.status} in ('queued', 'running', 'completed', 'failed')`,
    ),
    check('webhook_replays_window_check', sql`${table.since} <= ${table.until}`),
  ],
);

export type WebhookReplayRow = typeof webhookReplays.$inferSelect;
