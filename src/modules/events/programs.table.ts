import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from '../../kernel/db/columns.ts';
import { editions } from './events.table.ts';

export const PROGRAM_KINDS = ['activity', 'checkpoint'] as const;
export const CERTIFICATION_KINDS = ['edition_attendance', 'program_attendance'] as const;

/** Schedule items of an edition (contract 5.3). Soft-deleted with `deleted_at`. */
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
      'programs_dates_check',
      sql`${table.starts_at} is null or ${table.ends_at} is null or ${table.ends_at} > ${table.starts_at}`,
    ),
  ],
);

/** Certification templates of an edition (contract 5.4). Soft-deleted with `deleted_at`. */
export const certificationTemplates = pgTable(
  'certification_templates',
  {
    id: uuid('id').primaryKey(),
    edition_id: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: CERTIFICATION_KINDS }).notNull(),
    name: text('name').notNull(),
    description: text('description'),
    design_data: jsonb('design_data').$type<Record<string, unknown>>().notNull().default({}),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: timestamptz('deleted_at'),
  },
  (table) => [
    index('certification_templates_edition_idx').on(table.edition_id, table.created_at),
    check(
      'certification_templates_kind_check',
      sql`${table.kind} in ('edition_attendance', 'program_attendance')`,
    ),
  ],
);

/** Links of `program_attendance` templates to programs of the same edition. */
export const certificationTemplatePrograms = pgTable(
  'certification_template_programs',
  {
    template_id: uuid('template_id')
      .notNull()
      .references(() => certificationTemplates.id, { onDelete: 'cascade' }),
    program_id: uuid('program_id')
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    created_at: createdAt(),
  },
  (table) => [
    primaryKey({
      name: 'certification_template_programs_pk',
      columns: [table.template_id, table.program_id],
    }),
    index('certification_template_programs_program_idx').on(table.program_id),
  ],
);

export type ProgramRow = typeof programs.$inferSelect;
export type CertificationTemplateRow = typeof certificationTemplates.$inferSelect;
