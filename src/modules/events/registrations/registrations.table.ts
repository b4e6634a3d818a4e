import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { actors } from '../../../kernel/auth/actors.table.ts';
import { createdAt, timestamptz, updatedAt } from '../../../kernel/db/columns.ts';
import { LANGUAGES } from '../../../kernel/pages/language.ts';
import { editions } from '../editions/editions.table.ts';
import { ticketTypes } from '../tickets/tickets.table.ts';

export const REGISTRATION_STATUSES = [
  'pending_payment',
  'confirmed',
  'cancelled',
  'expired',
  'refunded',
] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];
/** The statuses that hold a seat and block a second registration of the same person. */
export const ACTIVE_REGISTRATION_STATUSES = ['pending_payment', 'confirmed'] as const;
/**
 * Registrations: at most one active (pending payment or confirmed) registration per person per
 * edition. A paid one starts `pending_payment` with a seat held until `hold_expires_at`; its intent
 * lives in the payments module, named here by id only (no foreign key across modules).
 */
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
    /** Why it ended as it did (`refunded`, `sold_out_after_expiry`, …); null otherwise. */
    status_reason: text('status_reason'),
    intent_id: uuid('intent_id'),
    hold_expires_at: timestamptz('hold_expires_at'),
    /** Where the payer pays, kept while the registration is pending. */
    checkout_url: text('checkout_url'),
    /** Who made the registration: the registrant, or a staff member registering them. */
    created_by: uuid('created_by').notNull(),
    /** The language of the request that made it: its holder's mails are written in it (docs/mail.md). */
    language: text('language', { enum: LANGUAGES }).notNull().default('en'),
    created_at: createdAt(),
    updated_at: updatedAt(),
    cancelled_at: timestamptz('cancelled_at'),
  },
  (table) => [
    uniqueIndex('registrations_one_active_unique')
      .on(table.edition_id, table.user_id)
      .where(sql`${table.status} in ('pending_payment', 'confirmed')`),
    uniqueIndex('registrations_intent_unique').on(table.intent_id),
    index('registrations_edition_idx').on(table.edition_id, table.created_at),
    index('registrations_user_idx').on(table.user_id),
    check(
      'registrations_status_check',
      sql`${table.status} in ('pending_payment', 'confirmed', 'cancelled', 'expired', 'refunded')`,
    ),
  ],
);

export type RegistrationRow = typeof registrations.$inferSelect;
