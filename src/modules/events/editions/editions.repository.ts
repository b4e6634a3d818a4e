/** SQL of editions. Soft-deleted editions (`deleted_at` set) are invisible to every read here. */
import { and, asc, eq, getTableColumns, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../../kernel/db/client.ts';
import { jsonObjectOf } from '../../../kernel/db/json.ts';
import { countAll, jsonPageFromCounted, pageOf, totalOver, type Window } from '../../../kernel/db/paging.ts';
import { isTransaction, preparedQuery } from '../../../kernel/db/prepared.ts';
import type { JsonPage } from '../../../kernel/http/respond.ts';
import { type EventRole, eventMembers, events } from '../events/index.ts';
import { Edition } from './editions.schemas.ts';
import { type EditionRow, editions } from './editions.table.ts';

export type NewEdition = typeof editions.$inferInsert;
export type EditionPatch = Partial<Omit<NewEdition, 'id' | 'event_id' | 'created_by' | 'created_at'>>;

const live = isNull(editions.deleted_at);

export async function insertEdition(db: Executor, values: NewEdition): Promise<EditionRow> {
  const [row] = await db.insert(editions).values(values).returning();
  return row!;
}

export async function updateEdition(db: Executor, id: string, patch: EditionPatch): Promise<EditionRow> {
  const [row] = await db
    .update(editions)
    .set({ ...patch, updated_at: sql`now()` })
    .where(eq(editions.id, id))
    .returning();
  return row!;
}

export async function publishDraftEdition(db: Executor, id: string): Promise<EditionRow | undefined> {
  const [row] = await db
    .update(editions)
    .set({ is_draft: false, updated_at: sql`now()` })
    .where(and(eq(editions.id, id), eq(editions.is_draft, true), live))
    .returning();
  return row;
}

/**
 * A live edition with what visibility and authorization need: its event's status and the caller's
 * role in that event.
 */
export async function findEditionWithAccess(
  db: Executor,
  editionId: string,
  userId: string | undefined,
): Promise<{ edition: EditionRow; eventStatus: string; role: EventRole | undefined } | undefined> {
  // Every authorised edition route asks this first: prepared once, outside a transaction.
  const query = isTransaction(db) ? selectEditionWithAccess(db) : editionWithAccess(db);
  const rows = await query.execute({ edition_id: editionId, user_id: userId ?? null });
  const row = rows[0];
  return row === undefined ? undefined : { ...row, role: row.role ?? undefined };
}

/** `findEditionWithAccess`'s statement: an anonymous caller (`user_id` null) has no role. */
function selectEditionWithAccess(db: Executor) {
  return db
    .select({ edition: editions, eventStatus: events.status, role: eventMembers.role })
    .from(editions)
    .innerJoin(events, eq(events.id, editions.event_id))
    .leftJoin(
      eventMembers,
      and(eq(eventMembers.event_id, editions.event_id), eq(eventMembers.user_id, sql.placeholder('user_id'))),
    )
    .where(and(eq(editions.id, sql.placeholder('edition_id')), live))
    .limit(1);
}

const editionWithAccess = preparedQuery((db) => selectEditionWithAccess(db).prepare('edition_with_access'));

/** The by-slug edition read (docs/reference/events.md): a published edition of a published event, by both slugs (a hot public read). */
const editionBySlugs = preparedQuery((db) =>
  db
    .select(getTableColumns(editions))
    .from(editions)
    .innerJoin(events, eq(events.id, editions.event_id))
    .where(
      and(
        eq(events.slug, sql.placeholder('eventSlug')),
        eq(editions.slug, sql.placeholder('editionSlug')),
        isPublicEdition,
      ),
    )
    .limit(1)
    .prepare('edition_by_slugs'),
);

export async function findPublishedEditionBySlugs(
  db: Database,
  eventSlug: string,
  editionSlug: string,
): Promise<EditionRow | undefined> {
  const rows = await editionBySlugs(db).execute({ eventSlug, editionSlug });
  return rows[0];
}

/** A live, published edition of a published event: what anyone may read. */
export const isPublicEdition = and(eq(editions.is_draft, false), live, eq(events.status, 'active'));

/**
 * A page of the published editions of a *published* event with the total in the same round trip:
 * the hot path of the public list (see `jsonPageFromCounted` for why an empty page is undefined).
 */
const publishedEditionsPage = preparedQuery((db) =>
  db
    .select({ total: totalOver, json: jsonObjectOf(editions, Object.keys(Edition.properties)) })
    .from(editions)
    .innerJoin(events, eq(events.id, editions.event_id))
    .where(and(eq(editions.event_id, sql.placeholder('eventId')), isPublicEdition))
    .orderBy(asc(editions.starts_at), asc(editions.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('published_editions_page'),
);

export async function listPublishedEditionsOfPublishedEvent(
  db: Database,
  eventId: string,
  window: Window,
): Promise<JsonPage | undefined> {
  const rows = await publishedEditionsPage(db).execute({
    eventId,
    limit: window.limit,
    offset: window.offset,
  });
  return jsonPageFromCounted(rows, window);
}

export function listEditions(db: Executor, eventId: string, isDraft: boolean, window: Window) {
  const where = and(eq(editions.event_id, eventId), eq(editions.is_draft, isDraft), live);
  return pageOf(
    window,
    db
      .select()
      .from(editions)
      .where(where)
      .orderBy(asc(editions.starts_at), asc(editions.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(editions).where(where),
  );
}

/** A live edition of the event whose time span overlaps [startsAt, endsAt), other than `exceptId`. */
export async function findOverlappingEdition(
  db: Executor,
  eventId: string,
  startsAt: Date,
  endsAt: Date,
  exceptId?: string,
): Promise<EditionRow | undefined> {
  const rows = await db
    .select()
    .from(editions)
    .where(
      and(
        eq(editions.event_id, eventId),
        live,
        lt(editions.starts_at, endsAt),
        gt(editions.ends_at, startsAt),
        exceptId === undefined ? undefined : ne(editions.id, exceptId),
      ),
    )
    .limit(1);
  return rows[0];
}

/**
 * Live editions of the event that have not ended yet; `publishedOnly` keeps the published ones
 * (the editions a member's staff badges are emitted for, or revoked in).
 */
export async function listCurrentEditionIds(
  db: Executor,
  eventId: string,
  publishedOnly: boolean,
): Promise<string[]> {
  const rows = await db
    .select({ id: editions.id })
    .from(editions)
    .where(
      and(
        eq(editions.event_id, eventId),
        isNull(editions.deleted_at),
        gt(editions.ends_at, sql`now()`),
        publishedOnly ? eq(editions.is_draft, false) : undefined,
      ),
    );
  return rows.map((row) => row.id);
}
