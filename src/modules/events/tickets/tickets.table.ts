import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../../kernel/db/columns.ts';
import { editions } from '../editions/editions.table.ts';

/**
 * Ticket types of an edition (docs/reference/tickets.md and docs/reference/checkout.md). `confirmed_count` is
 * the number of confirmed registrations and `held_count` the seats held by checkouts not yet paid, each kept
 * by the same statement that changes a registration: a conditional `… + 1 where confirmed_count + held_count
 * < max_quantity` is what makes the last seat go to exactly one of two concurrent registrations, and the
 * check constraint backs it up.
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
    /** ISO 4217; required when the ticket is paid. */
    currency: text('currency'),
    access_level: integer('access_level').notNull().default(0),
    max_quantity: integer('max_quantity'),
    confirmed_count: integer('confirmed_count').notNull().default(0),
    held_count: integer('held_count').notNull().default(0),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (table) => [
    index('ticket_types_edition_idx').on(table.edition_id, table.created_at),
    check('ticket_types_price_check', sql`${table.price_cents} >= 0`),
    check('ticket_types_access_level_check', sql`${table.access_level} >= 0`),
    check(
      'ticket_types_capacity_check',
      sql`${table.confirmed_count} >= 0 and ${table.held_count} >= 0 and (${table.max_quantity} is null or ${table.confirmed_count} + ${table.held_count} <= ${table.max_quantity})`,
    ),
    check(
      'ticket_types_currency_check',
      sql`(${table.currency} is null or ${table.currency} ~ '^[A-Z]{3}$') and (${table.price_cents} = 0 or ${table.currency} is not null)`,
    ),
    check(
      'ticket_types_max_quantity_check',
      sql`${table.max_quantity} is null or ${table.max_quantity} >= 1`,
    ),
  ],
);

export type TicketTypeRow = typeof ticketTypes.$inferSelect;
