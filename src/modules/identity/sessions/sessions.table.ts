import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, createdAt, timestamptz } from '../../../kernel/db/columns.ts';

/**
 * Browser sessions (docs/reference/sign-in.md): the cookie's random id is never stored, only its
 * SHA-256, so a copy of the table signs no one in. A session ends at `expires_at` (absolute) or
 * two hours after `last_seen_at` (idle), whichever comes first; signing out deletes the row.
 */
export const identitySessions = pgTable(
  'identity_sessions',
  {
    id_hash: bytea('id_hash').primaryKey(),
    user_id: uuid('user_id').notNull(),
    email: text('email').notNull(),
    name: text('name'),
    created_at: createdAt(),
    expires_at: timestamptz('expires_at').notNull(),
    last_seen_at: timestamptz('last_seen_at').notNull().defaultNow(),
  },
  (table) => [
    index('identity_sessions_user_idx').on(table.user_id),
    index('identity_sessions_expires_idx').on(table.expires_at),
  ],
);
