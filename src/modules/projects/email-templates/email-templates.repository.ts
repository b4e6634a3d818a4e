/** SQL of e-mail template overrides (one row per project and kind; no row: the default applies). */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { type EmailTemplateKind, type EmailTemplateRow, emailTemplates } from './email-templates.table.ts';

export async function findOverrides(db: Executor, projectId: string): Promise<EmailTemplateRow[]> {
  return db.select().from(emailTemplates).where(eq(emailTemplates.project_id, projectId));
}

export async function findOverride(
  db: Executor,
  projectId: string,
  kind: EmailTemplateKind,
): Promise<EmailTemplateRow | undefined> {
  const rows = await db
    .select()
    .from(emailTemplates)
    .where(and(eq(emailTemplates.project_id, projectId), eq(emailTemplates.kind, kind)))
    .limit(1);
  return rows[0];
}

export async function upsertOverride(
  db: Executor,
  values: { project_id: string; kind: EmailTemplateKind; subject: string; body: string; updated_by: string },
): Promise<EmailTemplateRow> {
  const rows = await db
    .insert(emailTemplates)
    .values(values)
    .onConflictDoUpdate({
      target: [emailTemplates.project_id, emailTemplates.kind],
      set: {
        subject: values.subject,
        body: values.body,
        updated_by: values.updated_by,
        updated_at: sql`now()`,
      },
    })
    .returning();
  const row = rows[0];
  if (row === undefined) throw new Error('upsert returned no row');
  return row;
}

/** Deletes the override; true when there was one. */
export async function deleteOverride(
  db: Executor,
  projectId: string,
  kind: EmailTemplateKind,
): Promise<boolean> {
  const rows = await db
    .delete(emailTemplates)
    .where(and(eq(emailTemplates.project_id, projectId), eq(emailTemplates.kind, kind)))
    .returning({ kind: emailTemplates.kind });
  return rows.length > 0;
}
