/**
 * SQL of programs. Soft-deleted programs (`deleted_at` set) are invisible to every read here
 * except `findProgramInAnyState`, which the link rules of certification templates need.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../../kernel/db/client.ts';
import { jsonObjectOf } from '../../../kernel/db/json.ts';
import { countAll, jsonPageFromCounted, pageOf, totalOver, type Window } from '../../../kernel/db/paging.ts';
import { preparedQuery } from '../../../kernel/db/prepared.ts';
import type { JsonPage } from '../../../kernel/http/respond.ts';
import { editions, isPublicEdition } from '../editions/index.ts';
import { events } from '../events/index.ts';
import { Program } from './programs.schemas.ts';
import { type PROGRAM_KINDS, type ProgramRow, programs } from './programs.table.ts';

export type NewProgram = typeof programs.$inferInsert;
export type ProgramPatch = Partial<Omit<NewProgram, 'id' | 'edition_id' | 'created_at'>>;
export type ProgramKind = (typeof PROGRAM_KINDS)[number];

const live = isNull(programs.deleted_at);
const scheduleOrder = [sql`${programs.starts_at} asc nulls last`, asc(programs.created_at), asc(programs.id)];

/**
 * The hot path of the public list of programs (docs/reference/events.md): the public programs (not
 * staff-only) of a published edition of a published event, with the total, in one prepared round trip.
 * Undefined when there is nothing to show (the caller's general path then tells 404 from an empty page).
 */
const publicProgramsPage = preparedQuery((db) =>
  db
    .select({ total: totalOver, json: jsonObjectOf(programs, Object.keys(Program.properties)) })
    .from(programs)
    .innerJoin(editions, eq(editions.id, programs.edition_id))
    .innerJoin(events, eq(events.id, editions.event_id))
    .where(
      and(
        eq(programs.edition_id, sql.placeholder('editionId')),
        live,
        eq(programs.staff_only, false),
        sql`(${sql.placeholder('kind')}::text is null or ${programs.kind} = ${sql.placeholder('kind')})`,
        isPublicEdition,
      ),
    )
    .orderBy(...scheduleOrder)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('public_programs_page'),
);

export async function listPublicProgramsOfPublishedEdition(
  db: Database,
  editionId: string,
  kind: ProgramKind | undefined,
  window: Window,
): Promise<JsonPage | undefined> {
  const rows = await publicProgramsPage(db).execute({
    editionId,
    kind: kind ?? null,
    limit: window.limit,
    offset: window.offset,
  });
  return jsonPageFromCounted(rows, window);
}

export async function insertProgram(db: Executor, values: NewProgram): Promise<ProgramRow> {
  const [row] = await db.insert(programs).values(values).returning();
  return row!;
}

export async function findProgram(db: Executor, id: string): Promise<ProgramRow | undefined> {
  const rows = await db
    .select()
    .from(programs)
    .where(and(eq(programs.id, id), live))
    .limit(1);
  return rows[0];
}

/** The program, deleted or not: linking tells "unknown" (404) from "not linkable" (400). */
export async function findProgramInAnyState(db: Executor, id: string): Promise<ProgramRow | undefined> {
  const rows = await db.select().from(programs).where(eq(programs.id, id)).limit(1);
  return rows[0];
}

/** Updates a live program; undefined when it was deleted in the meantime. */
export async function updateProgram(
  db: Executor,
  id: string,
  patch: ProgramPatch,
): Promise<ProgramRow | undefined> {
  const [row] = await db
    .update(programs)
    .set({ ...patch, updated_at: sql`now()` })
    .where(and(eq(programs.id, id), live))
    .returning();
  return row;
}

export interface ProgramFilter {
  kind?: ProgramKind | undefined;
  /** Members of the event see `staff_only` programs; the public does not. */
  includeStaffOnly: boolean;
}

/** Live programs of an edition by `starts_at` (unscheduled ones last), then `created_at`, then id. */
export function listPrograms(db: Executor, editionId: string, filter: ProgramFilter, window: Window) {
  const where = and(
    eq(programs.edition_id, editionId),
    live,
    filter.kind === undefined ? undefined : eq(programs.kind, filter.kind),
    filter.includeStaffOnly ? undefined : eq(programs.staff_only, false),
  );
  return pageOf(
    window,
    db
      .select()
      .from(programs)
      .where(where)
      .orderBy(...scheduleOrder)
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(programs).where(where),
  );
}
