import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { actors } from '../../../kernel/auth/actors.table.ts';
import { createdAt, timestamptz, updatedAt } from '../../../kernel/db/columns.ts';
import { editions } from '../editions/editions.table.ts';
import { registrations } from '../registrations/registrations.table.ts';
import { ticketTypes } from '../tickets/tickets.table.ts';

export const EMISSION_ORIGINS = ['participant', 'staff'] as const;

export const EMISSION_STATUSES = ['active', 'revoked'] as const;

export const EMISSION_REASONS = ['registration_cancelled', 'member_removed', 'refunded'] as const;

/**
 * Badge templates. One per scope and edition: the edition default (no origin, no ticket type),
 * one per ticket type, and one for staff. `scope` is derived in code ('default', 'staff' or
 * 'ticket:<id>') so that a single partial unique index can hold the rule.
 */
export const badgeTemplates = pgTable(
  'badge_templates',
  {
    id: uuid('id').primaryKey(),
    edition_id: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    design_data: jsonb('design_data').$type<Record<string, unknown>>().notNull().default({}),
    origin: text('origin', { enum: ['staff'] }),
    ticket_type_id: uuid('ticket_type_id').references(() => ticketTypes.id),
    scope: text('scope').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: timestamptz('deleted_at'),
  },
  (table) => [
    uniqueIndex('badge_templates_scope_unique')
      .on(table.edition_id, table.scope)
      .where(sql`${table.deleted_at} is null`),
    check(
      'badge_templates_scope_check',
      sql`not (${table.origin} is not null and ${table.ticket_type_id} is not null)`,
    ),
  ],
);

/**
 * Badge emissions: one per (edition, user, origin). Revocation keeps the row (status `revoked`
 * with a reason); re-emission re-activates it. The template and ticket name are resolved when
 * read, so a template created after the emission still applies.
 */
export const badgeEmissions = pgTable(
  'badge_emissions',
  {
    id: uuid('id').primaryKey(),
    edition_id: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id')
      .notNull()
      .references(() => actors.user_id),
    origin: text('origin', { enum: EMISSION_ORIGINS }).notNull(),
    status: text('status', { enum: EMISSION_STATUSES }).notNull().default('active'),
    status_reason: text('status_reason', { enum: EMISSION_REASONS }),
    /** The registration behind a participant badge (its ticket type names the badge). */
    registration_id: uuid('registration_id').references(() => registrations.id),
    emitted_at: timestamptz('emitted_at').notNull().defaultNow(),
    updated_at: updatedAt(),
  },
  (table) => [
    uniqueIndex('badge_emissions_holder_unique').on(table.edition_id, table.user_id, table.origin),
    index('badge_emissions_user_idx').on(table.user_id),
    // A registration's badge: found by its registration (the confirmation mail, a refund's revoke).
    index('badge_emissions_registration_idx').on(table.registration_id),
    check('badge_emissions_origin_check', sql`${table.origin} in ('participant', 'staff')`),
    check('badge_emissions_status_check', sql`${table.status} in ('active', 'revoked')`),
  ],
);

export type BadgeTemplateRow = typeof badgeTemplates.$inferSelect;

export type BadgeEmissionRow = typeof badgeEmissions.$inferSelect;
