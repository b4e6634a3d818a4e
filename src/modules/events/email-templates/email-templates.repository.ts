/** SQL of the events' mail template overrides (one row per event and kind; no row: the default applies). */
import { and, eq, sql } from 'drizzle-orm';
import type { OverrideStore } from '../../../kernel/mail-templates/overrides.service.ts';
import { eventEmailTemplates, type MailKind } from './email-templates.table.ts';

const matches = (eventId: string, kind: string) =>
  and(eq(eventEmailTemplates.event_id, eventId), eq(eventEmailTemplates.kind, kind as MailKind));

export const overrideStore: OverrideStore = {
  findAll: (db, eventId) =>
    db.select().from(eventEmailTemplates).where(eq(eventEmailTemplates.event_id, eventId)),

  async find(db, eventId, kind) {
    const rows = await db.select().from(eventEmailTemplates).where(matches(eventId, kind)).limit(1);
    return rows[0];
  },

  async upsert(db, row) {
    const rows = await db
      .insert(eventEmailTemplates)
      .values({
        event_id: row.ownerId,
        kind: row.kind as MailKind,
        subject: row.subject,
        body: row.body,
        updated_by: row.updatedBy,
      })
      .onConflictDoUpdate({
        target: [eventEmailTemplates.event_id, eventEmailTemplates.kind],
        set: { subject: row.subject, body: row.body, updated_by: row.updatedBy, updated_at: sql`now()` },
      })
      .returning();
    const stored = rows[0];
    if (stored === undefined) throw new Error('upsert returned no row');
    return stored;
  },

  async remove(db, eventId, kind) {
    await db.delete(eventEmailTemplates).where(matches(eventId, kind));
  },
};
