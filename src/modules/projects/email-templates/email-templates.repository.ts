/** SQL of e-mail template overrides (one row per project and kind; no row: the default applies). */
import { and, eq, sql } from 'drizzle-orm';
import type { OverrideStore } from '../../../kernel/mail-templates/overrides.service.ts';
import { type EmailTemplateKind, emailTemplates } from './email-templates.table.ts';

const matches = (projectId: string, kind: string) =>
  and(eq(emailTemplates.project_id, projectId), eq(emailTemplates.kind, kind as EmailTemplateKind));

export const overrideStore: OverrideStore = {
  findAll: (db, projectId) =>
    db.select().from(emailTemplates).where(eq(emailTemplates.project_id, projectId)),

  async find(db, projectId, kind) {
    const rows = await db.select().from(emailTemplates).where(matches(projectId, kind)).limit(1);
    return rows[0];
  },

  async upsert(db, row) {
    const rows = await db
      .insert(emailTemplates)
      .values({
        project_id: row.ownerId,
        kind: row.kind as EmailTemplateKind,
        subject: row.subject,
        body: row.body,
        updated_by: row.updatedBy,
      })
      .onConflictDoUpdate({
        target: [emailTemplates.project_id, emailTemplates.kind],
        set: { subject: row.subject, body: row.body, updated_by: row.updatedBy, updated_at: sql`now()` },
      })
      .returning();
    const stored = rows[0];
    if (stored === undefined) throw new Error('upsert returned no row');
    return stored;
  },

  async remove(db, projectId, kind) {
    await db.delete(emailTemplates).where(matches(projectId, kind));
  },
};
