import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { actors } from '../../kernel/auth/actors.table.ts';
import { createdAt, timestamptz, updatedAt } from '../../kernel/db/columns.ts';

export const EVENT_STATUSES = ['draft', 'active'] as const;
export const EVENT_ROLES = ['owner', 'admin', 'staff'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];
export type EventRole = (typeof EVENT_ROLES)[number];

export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description'),
    contact_email: text('contact_email'),
    logo_url: text('logo_url'),
    banner_url: text('banner_url'),
    status: text('status', { enum: EVENT_STATUSES }).notNull().default('draft'),
    owner_id: uuid('owner_id').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (table) => [
    uniqueIndex('events_slug_unique').on(table.slug),
    index('events_status_created_idx').on(table.status, table.created_at),
    check('events_status_check', sql`${table.status} in ('draft', 'active')`),
  ],
);

export const eventMembers = pgTable(
  'event_members',
  {
    event_id: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id')
      .notNull()
      .references(() => actors.user_id),
    role: text('role', { enum: EVENT_ROLES }).notNull(),
    created_at: createdAt(),
  },
  (table) => [
    primaryKey({ name: 'event_members_pk', columns: [table.event_id, table.user_id] }),
    index('event_members_user_idx').on(table.user_id),
    check('event_members_role_check', sql`${table.role} in ('owner', 'admin', 'staff')`),
  ],
);

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

export type EventRow = typeof events.$inferSelect;
export type EditionRow = typeof editions.$inferSelect;
