import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from '../../../kernel/db/columns.ts';
import { events } from '../events/events.table.ts';

export const editions = pgTable(
  'editions',
  {
    id: uuid('id').primaryKey(),
    event_id: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    tagline: text('tagline'),
    description: text('description'),
    is_draft: boolean('is_draft').notNull().default(true),
    registration_opens_at: timestamptz('registration_opens_at'),
    starts_at: timestamptz('starts_at').notNull(),
    ends_at: timestamptz('ends_at').notNull(),
    location_name: text('location_name'),
    location_description: text('location_description'),
    logo_url: text('logo_url'),
    banner_url: text('banner_url'),
    contact_email: text('contact_email'),
    created_by: uuid('created_by').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: timestamptz('deleted_at'),
  },
  (table) => [
    // Slugs are unique among the live editions of an event; a deleted edition frees its slug.
    uniqueIndex('editions_event_slug_unique')
      .on(table.event_id, table.slug)
      .where(sql`${table.deleted_at} is null`),
    index('editions_event_starts_idx').on(table.event_id, table.starts_at),
    check('editions_dates_check', sql`${table.ends_at} > ${table.starts_at}`),
    check(
      'editions_registration_check',
      sql`${table.registration_opens_at} is null or ${table.registration_opens_at} <= ${table.starts_at}`,
    ),
  ],
);

export type EditionRow = typeof editions.$inferSelect;
