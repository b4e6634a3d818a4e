import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from '../../../kernel/db/columns.ts';
import { editions } from '../editions/editions.table.ts';
import { programs } from '../programs/programs.table.ts';

export const CERTIFICATION_KINDS = ['edition_attendance', 'program_attendance'] as const;

/** Certification templates of an edition (docs/reference/events.md). Soft-deleted with `deleted_at`. */
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

export type CertificationTemplateRow = typeof certificationTemplates.$inferSelect;
