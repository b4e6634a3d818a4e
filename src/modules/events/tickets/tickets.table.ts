import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { actors } from '../../../kernel/auth/actors.table.ts';
import { createdAt, timestamptz, updatedAt } from '../../../kernel/db/columns.ts';
import { editions } from '../editions/editions.table.ts';

export const REGISTRATION_STATUSES = ['confirmed', 'cancelled'] as const;
/**
 * Ticket types of an edition (contract 5.5). `confirmed_count` is the number of confirmed
 * registrations, kept by the same statement that confirms or cancels one: a conditional
 * `confirmed_count + 1 … where confirmed_count < max_quantity` is what makes the last seat go to
 * exactly one of two concurrent registrations, and the check constraint backs it up.
 */
export const ticketTypes = pgTable(
  'ticket_types',
  {
    id: uuid('id').primaryKey(),
    edition_id: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    price_cents: integer('price_cents').notNull().default(0),
    access_level: integer('access_level').notNull().default(0),
    max_quantity: integer('max_quantity'),
    confirmed_count: integer('confirmed_count').notNull().default(0),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (table) => [
    index('ticket_types_edition_idx').on(table.edition_id, table.created_at),
    check('ticket_types_price_check', sql`${table.price_cents} >= 0`),
    check('ticket_types_access_level_check', sql`${table.access_level} >= 0`),
    check(
      'ticket_types_capacity_check',
      sql`${table.confirmed_count} >= 0 and (${table.max_quantity} is null or ${table.confirmed_count} <= ${table.max_quantity})`,
    ),
    check(
      'ticket_types_max_quantity_check',
      sql`${table.max_quantity} is null or ${table.max_quantity} >= 1`,
    ),
  ],
);

/** Registrations: at most one active (non-cancelled) registration per person per edition. */
export const registrations = pgTable(
  'registrations',
  {
    id: uuid('id').primaryKey(),
    edition_id: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    ticket_type_id: uuid('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    user_id: uuid('user_id')
      .notNull()
      .references(() => actors.user_id),
    status: text('status', { enum: REGISTRATION_STATUSES }).notNull(),
    /** Who made the registration: the registrant, or a staff member registering them. */
    created_by: uuid('created_by').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
    cancelled_at: timestamptz('cancelled_at'),
  },
  (table) => [
    uniqueIndex('registrations_one_active_unique')
      .on(table.edition_id, table.user_id)
      .where(sql`${table.status} <> 'cancelled'`),
    index('registrations_edition_idx').on(table.edition_id, table.created_at),
    index('registrations_user_idx').on(table.user_id),
    check('registrations_status_check', sql`${table.status} in ('confirmed', 'cancelled')`),
  ],
);

export type TicketTypeRow = typeof ticketTypes.$inferSelect;
export type RegistrationRow = typeof registrations.$inferSelect;
