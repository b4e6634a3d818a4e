import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { actors } from '../../../kernel/auth/actors.table.ts';
import { createdAt, updatedAt } from '../../../kernel/db/columns.ts';

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

export type EventRow = typeof events.$inferSelect;
