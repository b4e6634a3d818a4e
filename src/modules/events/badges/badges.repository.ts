/**
 * SQL of badge templates and of badge emission writes (the emission rules in badges.emission.ts
 * call these inside their caller's transaction). Reads of emissions are in
 * badge-emissions.repository.ts.
 */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import {
  type BadgeTemplateRow,
  badgeEmissions,
  badgeTemplates,
  type EMISSION_REASONS,
} from './badges.table.ts';

export type NewBadgeTemplate = typeof badgeTemplates.$inferInsert;
export type BadgeTemplatePatch = { name?: string; design_data?: Record<string, unknown> };
export type EmissionReason = (typeof EMISSION_REASONS)[number];

const liveTemplate = isNull(badgeTemplates.deleted_at);

// ---------- templates ----------

export async function insertTemplate(db: Executor, values: NewBadgeTemplate): Promise<BadgeTemplateRow> {
  const [row] = await db.insert(badgeTemplates).values(values).returning();
  return row!;
}

export async function findTemplate(db: Executor, id: string): Promise<BadgeTemplateRow | undefined> {
  const rows = await db
    .select()
    .from(badgeTemplates)
    .where(and(eq(badgeTemplates.id, id), liveTemplate))
    .limit(1);
  return rows[0];
}

export async function findTemplateByScope(
  db: Executor,
  editionId: string,
  scope: string,
): Promise<BadgeTemplateRow | undefined> {
  const rows = await db
    .select()
    .from(badgeTemplates)
    .where(and(eq(badgeTemplates.edition_id, editionId), eq(badgeTemplates.scope, scope), liveTemplate))
    .limit(1);
  return rows[0];
}

export function listTemplates(db: Executor, editionId: string, window: Window) {
  const where = and(eq(badgeTemplates.edition_id, editionId), liveTemplate);
  return pageOf(
    window,
    db
      .select()
      .from(badgeTemplates)
      .where(where)
      .orderBy(asc(badgeTemplates.created_at), asc(badgeTemplates.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(badgeTemplates).where(where),
  );
}

/** Every live template of these editions (a handful each): the input of template resolution. */
export async function listLiveTemplatesOf(db: Executor, editionIds: string[]): Promise<BadgeTemplateRow[]> {
  if (editionIds.length === 0) return [];
  return db
    .select()
    .from(badgeTemplates)
    .where(and(inArray(badgeTemplates.edition_id, editionIds), liveTemplate));
}

export async function updateTemplate(
  db: Executor,
  id: string,
  patch: BadgeTemplatePatch & { deleted_at?: Date },
): Promise<BadgeTemplateRow | undefined> {
  const [row] = await db
    .update(badgeTemplates)
    .set({ ...patch, updated_at: sql`now()` })
    .where(and(eq(badgeTemplates.id, id), liveTemplate))
    .returning();
  return row;
}

// ---------- emission writes ----------

export interface EmissionTarget {
  edition_id: string;
  user_id: string;
  origin: 'participant' | 'staff';
  registration_id?: string | null;
}

/**
 * Emits badges: one row per (edition, user, origin). An existing row is re-activated with its
 * reason cleared and `emitted_at` reset (a re-emission is a new emission of the same badge, same
 * id); a participant badge follows the newest registration. A row already active for the same
 * registration is left untouched. The unique index makes this safe under concurrency.
 */
export async function upsertEmissions(db: Executor, targets: EmissionTarget[]): Promise<void> {
  if (targets.length === 0) return;
  await db
    .insert(badgeEmissions)
    .values(
      targets.map((target) => ({
        id: uuidv7(),
        edition_id: target.edition_id,
        user_id: target.user_id,
        origin: target.origin,
        status: 'active' as const,
        registration_id: target.registration_id ?? null,
      })),
    )
    .onConflictDoUpdate({
      target: [badgeEmissions.edition_id, badgeEmissions.user_id, badgeEmissions.origin],
      set: {
        status: 'active',
        status_reason: null,
        registration_id: sql`coalesce(excluded.registration_id, ${badgeEmissions.registration_id})`,
        emitted_at: sql`case when ${badgeEmissions.status} = 'revoked' then now() else ${badgeEmissions.emitted_at} end`,
        updated_at: sql`now()`,
      },
      setWhere: sql`${badgeEmissions.status} = 'revoked' or (excluded.registration_id is not null and ${badgeEmissions.registration_id} is distinct from excluded.registration_id)`,
    });
}

/** Revokes the active badges of one person and origin in these editions. */
export async function revokeEmissions(
  db: Executor,
  where: { userId: string; origin: 'participant' | 'staff'; editionIds: string[] },
  reason: EmissionReason,
): Promise<void> {
  if (where.editionIds.length === 0) return;
  await db
    .update(badgeEmissions)
    .set({ status: 'revoked', status_reason: reason, updated_at: sql`now()` })
    .where(
      and(
        eq(badgeEmissions.user_id, where.userId),
        eq(badgeEmissions.origin, where.origin),
        eq(badgeEmissions.status, 'active'),
        inArray(badgeEmissions.edition_id, where.editionIds),
      ),
    );
}
