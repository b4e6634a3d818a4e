import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { actors } from '../../../kernel/auth/actors.table.ts';
import { createdAt, updatedAt } from '../../../kernel/db/columns.ts';

export const PROJECT_ROLES = ['owner', 'admin', 'member'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];
/** Projects (docs/reference/projects.md). The creator is the owner. */
export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    owner_id: uuid('owner_id').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (table) => [uniqueIndex('projects_slug_unique').on(table.slug)],
);

export const projectMembers = pgTable(
  'project_members',
  {
    project_id: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id')
      .notNull()
      .references(() => actors.user_id),
    role: text('role', { enum: PROJECT_ROLES }).notNull(),
    created_at: createdAt(),
  },
  (table) => [
    primaryKey({ name: 'project_members_pk', columns: [table.project_id, table.user_id] }),
    index('project_members_user_idx').on(table.user_id),
    check('project_members_role_check', sql`${table.role} in ('owner', 'admin', 'member')`),
  ],
);

export type ProjectRow = typeof projects.$inferSelect;
