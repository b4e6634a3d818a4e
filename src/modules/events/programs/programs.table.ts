import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from '../../../kernel/db/columns.ts';
import { editions } from '../editions/editions.table.ts';

export const PROGRAM_KINDS = ['activity', 'checkpoint'] as const;
/** Schedule items of an edition (docs/reference/events.md). Soft-deleted with `deleted_at`. */
export const programs = pgTable(
  'programs',
  {
    id: uuid('id').primaryKey(),
    edition_id: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: PROGRAM_KINDS }).notNull(),
    name: text('name').notNull(),
    description: text('description'),
    starts_at: timestamptz('starts_at'),
    ends_at: timestamptz('ends_at'),
    location: text('location'),
    min_access_level: integer('min_access_level').notNull().default(0),
    staff_only: boolean('staff_only').notNull().default(false),
    /** Minor currency units. */
    price: integer('price').notNull().default(0),
    banner_url: text('banner_url'),
    /** Most active sign-ups (docs/reference/attendance.md); null = no limit. Held by a row lock on sign-up. */
    max_participants: integer('max_participants'),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: timestamptz('deleted_at'),
  },
  (table) => [
    index('programs_edition_schedule_idx').on(table.edition_id, table.starts_at, table.created_at),
    check('programs_kind_check', sql`${table.kind} in ('activity', 'checkpoint')`),
    check('programs_access_level_check', sql`${table.min_access_level} >= 0`),
    check('programs_price_check', sql`${table.price} >= 0`),
    check(
      'programs_max_participants_check',
      sql`${table.max_participants} is null or ${table.max_participants} >= 1`,
    ),
    check(
      'programs_dates_check',
      sql`${table.starts_at} is null or ${table.ends_at} is null or ${table.ends_at} > ${table.starts_at}`,
    ),
  ],
);

export type ProgramRow = typeof programs.$inferSelect;
