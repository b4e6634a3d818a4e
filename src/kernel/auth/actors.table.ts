import { type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
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
    index('actors_search_trgm_idx').using('gin', sql`${actorSearchText(table)} gin_trgm_ops`),
  ],
);

/**
 * What the search of people matches a pattern against: the e-mail and the name, lowercased, in one
 * text, so that one trigram index answers (two indexes, one per column, read their lists of the
 * pattern's trigrams twice: about twice the index work of the search, bench/README.md "Organiser
 * console"). A line break between them, which no search box sends, keeps a pattern from matching
 * across the two. The index and the queries must use this same expression.
 */
export function actorSearchText(table: { email: AnyPgColumn; name: AnyPgColumn }): SQL {
  return sql`(lower(${table.email}) || chr(10) || lower(coalesce(${table.name}, '')))`;
}
