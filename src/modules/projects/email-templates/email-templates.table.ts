import { sql } from 'drizzle-orm';
import { check, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../../kernel/db/columns.ts';
import { projects } from '../projects/projects.table.ts';

export const EMAIL_TEMPLATE_KINDS = ['verify', 'reset', 'invite', 'magic_link'] as const;

export type EmailTemplateKind = (typeof EMAIL_TEMPLATE_KINDS)[number];

/**
 * A project's override of one e-mail template kind. No row: the built-in default applies
 * (the defaults live in code, email-templates.defaults.ts).
 */
export const emailTemplates = pgTable(
  'email_templates',
  {
    project_id: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: EMAIL_TEMPLATE_KINDS }).notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    updated_by: uuid('updated_by').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (table) => [
    primaryKey({ name: 'email_templates_pk', columns: [table.project_id, table.kind] }),
    check('email_templates_kind_check', sql`${table.kind} in ('verify', 'reset', 'invite', 'magic_link')`),
  ],
);

export type EmailTemplateRow = typeof emailTemplates.$inferSelect;
