/**
 * SQL of certification templates and their program links. Soft-deleted templates are invisible to
 * every read here; a link to a deleted program is kept but never shown or counted.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../../kernel/db/client.ts';
import { jsonObjectOf } from '../../../kernel/db/json.ts';
import { countAll, jsonPageFromCounted, pageOf, totalOver, type Window } from '../../../kernel/db/paging.ts';
import { preparedQuery } from '../../../kernel/db/prepared.ts';
import type { JsonPage } from '../../../kernel/http/respond.ts';
import { editions, isPublicEdition } from '../editions/index.ts';
import { events } from '../events/index.ts';
import { programs } from '../programs/index.ts';
import { CertificationTemplate } from './certification-templates.schemas.ts';
import {
  type CertificationTemplateRow,
  certificationTemplatePrograms,
  certificationTemplates,
} from './certification-templates.table.ts';

export type NewTemplate = typeof certificationTemplates.$inferInsert;
export type TemplatePatch = Partial<Omit<NewTemplate, 'id' | 'edition_id' | 'created_at'>>;
export type LinkRow = typeof certificationTemplatePrograms.$inferSelect;

const live = isNull(certificationTemplates.deleted_at);
const links = certificationTemplatePrograms;
/** The link's program is live. */
const linkedProgramIsLive = and(eq(programs.id, links.program_id), isNull(programs.deleted_at));

export async function insertTemplate(db: Executor, values: NewTemplate): Promise<CertificationTemplateRow> {
  const [row] = await db.insert(certificationTemplates).values(values).returning();
  return row!;
}

export async function findTemplate(db: Executor, id: string): Promise<CertificationTemplateRow | undefined> {
  const rows = await db
    .select()
    .from(certificationTemplates)
    .where(and(eq(certificationTemplates.id, id), live))
    .limit(1);
  return rows[0];
}

/** The ids of the edition's live templates (what a certificate issuance may name). */
export async function listLiveTemplateIds(db: Executor, editionId: string): Promise<string[]> {
  const rows = await db
    .select({ id: certificationTemplates.id })
    .from(certificationTemplates)
    .where(and(eq(certificationTemplates.edition_id, editionId), live));
  return rows.map((row) => row.id);
}

/**
 * The live template, locked until the transaction ends: linking and changing the kind both take
 * this lock, so a link cannot slip in between the "no links" check and the kind change.
 */
export async function lockTemplate(db: Executor, id: string): Promise<CertificationTemplateRow | undefined> {
  const rows = await db
    .select()
    .from(certificationTemplates)
    .where(and(eq(certificationTemplates.id, id), live))
    .for('update');
  return rows[0];
}

/** Updates a live template; undefined when it was deleted in the meantime. */
export async function updateTemplate(
  db: Executor,
  id: string,
  patch: TemplatePatch,
): Promise<CertificationTemplateRow | undefined> {
  const [row] = await db
    .update(certificationTemplates)
    .set({ ...patch, updated_at: sql`now()` })
    .where(and(eq(certificationTemplates.id, id), live))
    .returning();
  return row;
}

/**
 * The hot path of the public list of certification templates (docs/reference/events.md): the templates of a
 * published edition of a published event, with the total, in one prepared round trip; undefined when there is
 * nothing to show.
 */
const publicTemplatesPage = preparedQuery((db) =>
  db
    .select({
      total: totalOver,
      json: jsonObjectOf(certificationTemplates, Object.keys(CertificationTemplate.properties)),
    })
    .from(certificationTemplates)
    .innerJoin(editions, eq(editions.id, certificationTemplates.edition_id))
    .innerJoin(events, eq(events.id, editions.event_id))
    .where(and(eq(certificationTemplates.edition_id, sql.placeholder('editionId')), live, isPublicEdition))
    .orderBy(asc(certificationTemplates.created_at), asc(certificationTemplates.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('public_certification_templates_page'),
);

export async function listTemplatesOfPublishedEdition(
  db: Database,
  editionId: string,
  window: Window,
): Promise<JsonPage | undefined> {
  const rows = await publicTemplatesPage(db).execute({
    editionId,
    limit: window.limit,
    offset: window.offset,
  });
  return jsonPageFromCounted(rows, window);
}

/** Live templates of an edition, oldest first. */
export function listTemplates(db: Executor, editionId: string, window: Window) {
  const where = and(eq(certificationTemplates.edition_id, editionId), live);
  return pageOf(
    window,
    db
      .select()
      .from(certificationTemplates)
      .where(where)
      .orderBy(asc(certificationTemplates.created_at), asc(certificationTemplates.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(certificationTemplates).where(where),
  );
}

/** Inserts the link; undefined when it already exists. */
export async function insertLink(
  db: Executor,
  templateId: string,
  programId: string,
): Promise<LinkRow | undefined> {
  const [row] = await db
    .insert(links)
    .values({ template_id: templateId, program_id: programId })
    .onConflictDoNothing()
    .returning();
  return row;
}

/** Removes the link to a live program; undefined when there is none. */
export async function deleteLink(
  db: Executor,
  templateId: string,
  programId: string,
): Promise<LinkRow | undefined> {
  const [row] = await db
    .delete(links)
    .where(
      and(
        eq(links.template_id, templateId),
        eq(links.program_id, programId),
        sql`exists (select 1 from ${programs} where ${linkedProgramIsLive})`,
      ),
    )
    .returning();
  return row;
}

export async function countLiveLinks(db: Executor, templateId: string): Promise<number> {
  const rows = await db
    .select({ total: countAll })
    .from(links)
    .innerJoin(programs, linkedProgramIsLive)
    .where(eq(links.template_id, templateId));
  return rows[0]?.total ?? 0;
}

/** Links to live programs, oldest first; `staff_only` programs only when `includeStaffOnly`. */
export function listLinks(db: Executor, templateId: string, includeStaffOnly: boolean, window: Window) {
  const where = and(
    eq(links.template_id, templateId),
    includeStaffOnly ? undefined : eq(programs.staff_only, false),
  );
  return pageOf(
    window,
    db
      .select({ program_id: links.program_id, created_at: links.created_at })
      .from(links)
      .innerJoin(programs, linkedProgramIsLive)
      .where(where)
      .orderBy(asc(links.created_at), asc(links.program_id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(links).innerJoin(programs, linkedProgramIsLive).where(where),
  );
}
