import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from '../db/columns.ts';

/**
 * Background jobs of every module (hold expiry, reconciliation, refunds): a row per job, due at
 * `run_at`, claimed under a lease with `FOR UPDATE SKIP LOCKED` so that any number of processes
 * share them and none runs twice (kernel/jobs/jobs.repository.ts). `key` makes scheduling
 * idempotent: a job with the same kind and key is not scheduled twice.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status', { enum: ['pending', 'done', 'failed'] })
      .notNull()
      .default('pending'),
    run_at: timestamptz('run_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    claim_id: uuid('claim_id'),
    leased_until: timestamptz('leased_until'),
    last_error: text('last_error'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (table) => [
    index('jobs_due_idx').on(table.run_at).where(sql`${table.status} = 'pending'`),
    uniqueIndex('jobs_kind_key_unique').on(table.kind, table.key),
    check('jobs_status_check', sql`${table.status} in ('pending', 'done', 'failed')`),
  ],
);

export type JobRow = typeof jobs.$inferSelect;
