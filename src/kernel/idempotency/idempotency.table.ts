import { index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from '../db/columns.ts';

/**
 * `Idempotency-Key`s of authenticated POSTs (docs/reference/errors.md), per caller and key: the request's
 * fingerprint, and once it completed, the answer replayed to a retry for 24 hours.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    user_id: uuid('user_id').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the method, the route and its canonical input: a different request with the key is a 422. */
    fingerprint: text('fingerprint').notNull(),
    status: text('status', { enum: ['running', 'done'] }).notNull(),
    response_status: integer('response_status'),
    /** The answer's body sealed with SECRETS_KEY (kernel/secret-box.ts): some show a secret once. */
    response_body: text('response_body'),
    created_at: createdAt(),
    expires_at: timestamptz('expires_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.user_id, table.key] }),
    index('idempotency_keys_expires_idx').on(table.expires_at),
  ],
);

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;
