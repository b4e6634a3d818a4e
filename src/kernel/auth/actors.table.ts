import { sql } from 'drizzle-orm';
import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from '../db/columns.ts';

/**
 * The actor directory: everyone who has called the service with a valid token. "An existing
 * actor" (adding members by e-mail) means a row here. E-mail is compared case-insensitively; an
 * address is not unique because the identity service, not us, owns identities.
 */
export const actors = pgTable(
  'actors',
  {
    user_id: uuid('user_id').primaryKey(),
    email: text('email').notNull(),
    /** The token's `name` claim when it carried one (docs/reference/attendance.md: holder names); kept when a later token has none. */
    name: text('name'),
    created_at: createdAt(),
    last_seen_at: timestamptz('last_seen_at').notNull().defaultNow(),
  },
  (table) => [
    index('actors_email_lower_idx').on(sql`lower(${table.email})`),
    // The organisers' search of registrations (`q`, docs/reference/tickets.md): a substring of the
    // e-mail or the name, case-insensitive, found through trigrams (pg_trgm) instead of a scan.
    index('actors_email_trgm_idx').using('gin', sql`lower(${table.email}) gin_trgm_ops`),
    index('actors_name_trgm_idx').using('gin', sql`lower(${table.name}) gin_trgm_ops`),
  ],
);
