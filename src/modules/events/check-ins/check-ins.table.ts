import { sql } from 'drizzle-orm';
import { index, pgTable, text, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { actors } from '../../../kernel/auth/actors.table.ts';
import { timestamptz } from '../../../kernel/db/columns.ts';
import { badgeEmissions } from '../badges/badges.table.ts';
import { editions } from '../editions/editions.table.ts';
import { programs } from '../programs/programs.table.ts';

/**
 * Check-ins (docs/reference/attendance.md): one row per badge and place, the edition itself (`program_id`
 * null) or one of its programs. Only admitted scans are recorded; a refused scan (`unknown`, `revoked`, …)
 * writes nothing. `checked_in_at` is when the badge was scanned (an offline scanner's `scanned_at`), kept at
 * the earliest scan; `recorded_at` is when the service learnt of it. `nonce` lets a scanner re-upload a
 * batch: a scan whose nonce is known is answered again, not counted again.
 */
export const checkIns = pgTable(
  'check_ins',
  {
    id: uuid('id').primaryKey(),
    edition_id: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    emission_id: uuid('emission_id')
      .notNull()
      .references(() => badgeEmissions.id, { onDelete: 'cascade' }),
    /** The badge's holder, kept here so lists filter and qualification groups without a join. */
    user_id: uuid('user_id')
      .notNull()
      .references(() => actors.user_id),
    program_id: uuid('program_id').references(() => programs.id, { onDelete: 'cascade' }),
    checked_in_at: timestamptz('checked_in_at').notNull(),
    recorded_at: timestamptz('recorded_at').notNull().defaultNow(),
    scanned_by: uuid('scanned_by').notNull(),
    nonce: text('nonce'),
  },
  (table) => [
    // NULLS NOT DISTINCT (PostgreSQL 15): one edition-level check-in per badge, like one per program.
    unique('check_ins_place_unique').on(table.emission_id, table.program_id).nullsNotDistinct(),
    uniqueIndex('check_ins_nonce_unique')
      .on(table.edition_id, table.nonce)
      .where(sql`${table.nonce} is not null`),
    index('check_ins_edition_time_idx').on(table.edition_id, table.checked_in_at),
    index('check_ins_program_idx').on(table.program_id),
    index('check_ins_user_idx').on(table.edition_id, table.user_id),
  ],
);

export type CheckInRow = typeof checkIns.$inferSelect;
