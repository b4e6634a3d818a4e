/** SQL of registrations. */
import { and, desc, eq, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { actorSearchText, actors } from '../../../kernel/auth/actors.table.ts';
import type { Database, Executor } from '../../../kernel/db/client.ts';
import { likeContaining } from '../../../kernel/db/like.ts';
import { countAll, totalOver, type Window } from '../../../kernel/db/paging.ts';
import { isTransaction, preparedQueries, preparedQuery } from '../../../kernel/db/prepared.ts';
import { queryRows } from '../../../kernel/db/raw.ts';
import type { Page } from '../../../kernel/http/respond.ts';
import { editions } from '../editions/index.ts';
import { type EventRole, eventMembers, events } from '../events/index.ts';
import { ticketTypes } from '../tickets/index.ts';
import {
  ACTIVE_REGISTRATION_STATUSES,
  type RegistrationRow,
  type RegistrationStatus,
  registrations,
} from './registrations.table.ts';

export type NewRegistration = typeof registrations.$inferInsert;

export async function insertRegistration(db: Executor, values: NewRegistration): Promise<RegistrationRow> {
  const [row] = await db.insert(registrations).values(values).returning();
  return row!;
}

function selectActiveRegistration(db: Executor) {
  return db
    .select()
    .from(registrations)
    .where(
      and(
        eq(registrations.edition_id, sql.placeholder('edition_id')),
        eq(registrations.user_id, sql.placeholder('user_id')),
        inArray(registrations.status, [...ACTIVE_REGISTRATION_STATUSES]),
      ),
    )
    .limit(1);
}

/** Every registration looks for the person's active one first: prepared once, outside a transaction. */
const activeRegistration = preparedQuery((db) => selectActiveRegistration(db).prepare('active_registration'));

/** The person's active registration in the edition (pending payment or confirmed), if any. */
export async function findActiveRegistration(
  db: Executor,
  editionId: string,
  userId: string,
): Promise<RegistrationRow | undefined> {
  const query = isTransaction(db) ? selectActiveRegistration(db) : activeRegistration(db);
  const [row] = await query.execute({ edition_id: editionId, user_id: userId });
  return row;
}

/**
 * A registration of a live edition, with its event's status and the caller's role in that event
 * (what the cancel guard needs).
 */
export async function findRegistrationWithAccess(
  db: Executor,
  registrationId: string,
  userId: string,
): Promise<
  | { registration: RegistrationRow; eventStatus: string; role: EventRole | undefined; startsAt: Date }
  | undefined
> {
  const rows = await db
    .select({
      registration: registrations,
      eventStatus: events.status,
      role: eventMembers.role,
      startsAt: editions.starts_at,
    })
    .from(registrations)
    .innerJoin(editions, eq(editions.id, registrations.edition_id))
    .innerJoin(events, eq(events.id, editions.event_id))
    .leftJoin(eventMembers, and(eq(eventMembers.event_id, events.id), eq(eventMembers.user_id, userId)))
    .where(and(eq(registrations.id, registrationId), isNull(editions.deleted_at)))
    .limit(1);
  const row = rows[0];
  return row === undefined ? undefined : { ...row, role: row.role ?? undefined };
}

export type RegistrationListRow = RegistrationRow & {
  email: string;
  name: string | null;
  ticket_name: string;
};

/** The filters of the organisers' listing and export (`RegistrationFilters` of the schemas). */
export interface RegistrationFilter {
  /** A part of the e-mail or name, any case. */
  q?: string | undefined;
  status?: readonly RegistrationStatus[] | undefined;
  ticketTypeId?: string | undefined;
  /** Through a checkout (an intent) or not. */
  paid?: boolean | undefined;
}

/**
 * The values a listing statement takes, by placeholder name (`filterCondition`); a type, not an
 * interface, so that it is the record of values Drizzle's `execute` takes.
 */
type ListValues = {
  edition_id: string;
  user_id?: string;
  statuses?: string;
  ticket_type_id?: string;
  pattern?: string;
  limit?: number;
  offset?: number;
  after_created_at?: string;
  after_id?: string;
};

/** The values of `filter` for `filterCondition`'s placeholders. */
function filterValues(editionId: string, filter: RegistrationFilter): ListValues {
  return {
    edition_id: editionId,
    ...(filter.status === undefined ? {} : { statuses: `{${filter.status.join(',')}}` }),
    ...(filter.ticketTypeId === undefined ? {} : { ticket_type_id: filter.ticketTypeId }),
    ...(filter.q === undefined ? {} : { pattern: likeContaining(filter.q) }),
  };
}

/**
 * The filters as one condition, with placeholders for their values (`filterValues`): its text
 * depends only on which filters are given (`shapeOf`), so each shape is built and prepared once
 * (`preparedQueries`). The search compares the lowercased e-mail and name (`actorSearchText`, the
 * text the actor directory's trigram index is built on) with a lowercased pattern. The statuses
 * are one array parameter, however many are asked for.
 */
function filterCondition(filter: RegistrationFilter): SQL {
  const value = (name: keyof ListValues) => sql.placeholder(name);
  return and(
    eq(registrations.edition_id, value('edition_id')),
    filter.status === undefined
      ? undefined
      : sql`${registrations.status} = any(${value('statuses')}::text[])`,
    filter.ticketTypeId === undefined ? undefined : eq(registrations.ticket_type_id, value('ticket_type_id')),
    filter.paid === undefined
      ? undefined
      : filter.paid
        ? isNotNull(registrations.intent_id)
        : isNull(registrations.intent_id),
    // The pattern through a sub-select: the planner then estimates every pattern alike, so the
    // server keeps one generic plan of the prepared statement per connection. Given the pattern
    // itself, it judged each pattern's own plan cheaper and planned every search anew, which cost
    // three times running it (bench/README.md, "Organiser console").
    filter.q === undefined
      ? undefined
      : sql`${actorSearchText(actors)} like (select lower(${value('pattern')}))`,
  ) as SQL;
}

/**
 * Which filters are given: what a listing statement's text depends on (`filterCondition`), so the
 * key of its prepared statement. `filterOf` reads a shape back as the filters to build it with.
 */
function shapeOf(filter: RegistrationFilter): string {
  const given = (value: unknown) => (value === undefined ? '0' : '1');
  const paid = filter.paid === undefined ? '0' : filter.paid ? 'p' : 'f';
  return `${given(filter.q)}${given(filter.status)}${given(filter.ticketTypeId)}${paid}`;
}

function filterOf(shape: string): RegistrationFilter {
  const [q, status, ticketType, paid] = shape;
  return {
    ...(q === '1' ? { q: '' } : {}),
    ...(status === '1' ? { status: [] } : {}),
    ...(ticketType === '1' ? { ticketTypeId: '' } : {}),
    ...(paid === '0' ? {} : { paid: paid === 'p' }),
  };
}

/** The columns of a listed registration: the row, the holder's e-mail and name, the ticket's name. */
const listColumns = {
  id: registrations.id,
  edition_id: registrations.edition_id,
  ticket_type_id: registrations.ticket_type_id,
  user_id: registrations.user_id,
  status: registrations.status,
  status_reason: registrations.status_reason,
  language: registrations.language,
  intent_id: registrations.intent_id,
  hold_expires_at: registrations.hold_expires_at,
  checkout_url: registrations.checkout_url,
  created_by: registrations.created_by,
  created_at: registrations.created_at,
  updated_at: registrations.updated_at,
  cancelled_at: registrations.cancelled_at,
  email: actors.email,
  name: actors.name,
  ticket_name: ticketTypes.name,
};

/** The listing's rows; with `isCounted`, each also carries the total of the filtered rows. */
function selectListed(db: Executor, isCounted: boolean, condition: SQL) {
  return db
    .select({ ...listColumns, total: isCounted ? totalOver : sql<number>`0`.mapWith(Number) })
    .from(registrations)
    .innerJoin(actors, eq(actors.user_id, registrations.user_id))
    .innerJoin(ticketTypes, eq(ticketTypes.id, registrations.ticket_type_id))
    .where(condition)
    .orderBy(desc(registrations.created_at), desc(registrations.id));
}

/**
 * The counted listing as a member of the edition's event sees it: each row also carries the
 * caller's role (`user_id`), and a caller who is no member of the live edition's event gets no
 * rows (the edition's and the membership's rows join each listed row).
 */
function selectListedAsMember(db: Executor, condition: SQL) {
  return db
    .select({ ...listColumns, total: totalOver, role: eventMembers.role })
    .from(registrations)
    .innerJoin(actors, eq(actors.user_id, registrations.user_id))
    .innerJoin(ticketTypes, eq(ticketTypes.id, registrations.ticket_type_id))
    .innerJoin(editions, and(eq(editions.id, registrations.edition_id), isNull(editions.deleted_at)))
    .innerJoin(
      eventMembers,
      and(eq(eventMembers.event_id, editions.event_id), eq(eventMembers.user_id, sql.placeholder('user_id'))),
    )
    .where(condition)
    .orderBy(desc(registrations.created_at), desc(registrations.id));
}

const withoutTotal = ({ total: _total, ...row }: RegistrationListRow & { total: number }) => row;

/**
 * The listing's statements, built and prepared once per database and shape of filters (a server
 * parses and plans each once per connection): building the statement through Drizzle and planning
 * its joins cost more than running it (bench/README.md, "Organiser console").
 */
const countStatement = preparedQueries((db, shape) => {
  const filter = filterOf(shape);
  const count = db.select({ total: countAll }).from(registrations);
  return (filter.q === undefined ? count : count.innerJoin(actors, eq(actors.user_id, registrations.user_id)))
    .where(filterCondition(filter))
    .prepare(`registrations_count_${shape}`);
});

const pageStatement = preparedQueries((db, key) => {
  const [counted, shape] = key.split(' ') as [string, string];
  return selectListed(db, counted === 'counted', filterCondition(filterOf(shape)))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(`registrations_page_${counted}_${shape}`);
});

const memberPageStatement = preparedQueries((db, shape) =>
  selectListedAsMember(db, filterCondition(filterOf(shape)))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(`registrations_member_page_${shape}`),
);

const batchStatement = preparedQueries((db, key) => {
  const [position, shape] = key.split(' ') as [string, string];
  const condition = filterCondition(filterOf(shape));
  return selectListed(
    db,
    false,
    position === 'first'
      ? condition
      : (and(
          condition,
          sql`(${registrations.created_at}, ${registrations.id}) < (${sql.placeholder('after_created_at')}::timestamptz, ${sql.placeholder('after_id')}::uuid)`,
        ) as SQL),
  )
    .limit(sql.placeholder('limit'))
    .prepare(`registrations_batch_${position}_${shape}`);
});

/**
 * Newest first, filtered, with the holder's e-mail and name and the ticket type's name. A search
 * (`q`) matches few rows, found through the trigram indexes: they are counted in the same statement
 * (`count(*) over ()`). Without one, the page is read down the edition's index and the rows are
 * counted apart (a window count would join every row of the edition to read twenty).
 */
export async function listRegistrations(
  db: Database,
  editionId: string,
  filter: RegistrationFilter,
  window: Window,
): Promise<Page<RegistrationListRow>> {
  const shape = shapeOf(filter);
  const values = { ...filterValues(editionId, filter), limit: window.limit, offset: window.offset };
  const counted = async () => {
    const [row] = await countStatement(db, shape).execute(values);
    return row?.total ?? 0;
  };
  const page = (isCounted: boolean) =>
    pageStatement(db, `${isCounted ? 'counted' : 'plain'} ${shape}`).execute(values);
  if (filter.q === undefined) {
    const [rows, total] = await Promise.all([page(false), counted()]);
    return { items: rows.map(withoutTotal), total, page: window.page, limit: window.limit };
  }
  const rows = await page(true);
  // An empty page past the end carries no total: that one is counted apart.
  const total = rows[0]?.total ?? (window.offset === 0 ? 0 : await counted());
  return { items: rows.map(withoutTotal), total, page: window.page, limit: window.limit };
}

/**
 * A search's page (`q` given) and the caller's role, in one statement, for a caller who is a member
 * of the live edition's event: the role check and the page are one round trip where they were two
 * (bench/README.md, "Organiser console"). Undefined when no row comes back: the caller is no
 * member, or the page is empty; the caller then takes the general path (the role check, then
 * `listRegistrations`), which tells those apart and counts an empty page's total.
 */
export async function searchRegistrationsAsMember(
  db: Database,
  editionId: string,
  userId: string,
  filter: RegistrationFilter & { q: string },
  window: Window,
): Promise<{ page: Page<RegistrationListRow>; role: EventRole } | undefined> {
  const rows = await memberPageStatement(db, shapeOf(filter)).execute({
    ...filterValues(editionId, filter),
    user_id: userId,
    limit: window.limit,
    offset: window.offset,
  });
  const first = rows[0];
  if (first === undefined) return undefined;
  const items = rows.map(({ role: _role, ...row }) => withoutTotal(row));
  return { page: { items, total: first.total, page: window.page, limit: window.limit }, role: first.role };
}

/**
 * A batch of the filtered listing after `after` (the last row of the batch before, in the
 * listing's order), for an export that walks every row without holding them all (keyset paging:
 * each batch is found by the index, however deep).
 */
export async function listRegistrationsAfter(
  db: Database,
  editionId: string,
  filter: RegistrationFilter,
  after: { created_at: Date; id: string } | undefined,
  limit: number,
): Promise<RegistrationListRow[]> {
  const values: ListValues = {
    ...filterValues(editionId, filter),
    limit,
    ...(after === undefined ? {} : { after_created_at: after.created_at.toISOString(), after_id: after.id }),
  };
  const statement = batchStatement(db, `${after === undefined ? 'first' : 'next'} ${shapeOf(filter)}`);
  return (await statement.execute(values)).map(withoutTotal);
}

/** The registration paid by `intentId`, locked until the end of the caller's transaction. */
export async function lockRegistrationOfIntent(
  db: Executor,
  intentId: string,
): Promise<RegistrationRow | undefined> {
  const [row] = await db
    .select()
    .from(registrations)
    .where(eq(registrations.intent_id, intentId))
    .for('update')
    .limit(1);
  return row;
}

export async function lockRegistration(db: Executor, id: string): Promise<RegistrationRow | undefined> {
  const [row] = await db.select().from(registrations).where(eq(registrations.id, id)).for('update').limit(1);
  return row;
}

export async function findRegistration(db: Executor, id: string): Promise<RegistrationRow | undefined> {
  const [row] = await db.select().from(registrations).where(eq(registrations.id, id)).limit(1);
  return row;
}

/**
 * Moves a registration from `from` to `to` (conditional, so of two writers exactly one moves it);
 * leaving `pending_payment` clears the checkout link and the hold. Only `registrations.transitions.ts`
 * calls it (and `insertRegistration`, `setStatusReason`): the one place a status is written.
 */
export async function updateStatus(
  db: Executor,
  id: string,
  from: RegistrationStatus,
  to: RegistrationStatus,
  statusReason: string | null = null,
): Promise<RegistrationRow | undefined> {
  const [row] = await db
    .update(registrations)
    .set({
      status: to,
      status_reason: statusReason,
      checkout_url: null,
      ...(to === 'cancelled' || to === 'refunded' ? { cancelled_at: sql`now()` } : {}),
      updated_at: sql`now()`,
    })
    .where(and(eq(registrations.id, id), eq(registrations.status, from)))
    .returning();
  return row;
}

/** The ids the registration events carry: the edition's event. */
export async function findEventOfEdition(db: Executor, editionId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ eventId: editions.event_id })
    .from(editions)
    .where(eq(editions.id, editionId))
    .limit(1);
  return row?.eventId;
}

/** Replaces the reason of a registration in `status`. */
export async function setStatusReason(
  db: Executor,
  id: string,
  status: RegistrationStatus,
  reason: string,
): Promise<void> {
  await db
    .update(registrations)
    .set({ status_reason: reason, updated_at: sql`now()` })
    .where(and(eq(registrations.id, id), eq(registrations.status, status)));
}

/**
 * Points a pending registration at a fresh checkout (a new intent), if it still names `fromIntent`:
 * of two requests replacing it at once, one gets the row back.
 */
export async function replaceCheckout(
  db: Executor,
  id: string,
  fromIntent: string,
  toIntent: string,
  checkoutUrl: string,
): Promise<RegistrationRow | undefined> {
  const [row] = await db
    .update(registrations)
    .set({ intent_id: toIntent, checkout_url: checkoutUrl, updated_at: sql`now()` })
    .where(
      and(
        eq(registrations.id, id),
        eq(registrations.status, 'pending_payment'),
        eq(registrations.intent_id, fromIntent),
      ),
    )
    .returning();
  return row;
}

/** The person's confirmed registration in the edition, with its ticket's access level (what a program sign-up checks). */
export async function findConfirmedRegistration(
  db: Executor,
  editionId: string,
  userId: string,
): Promise<{ id: string; access_level: number } | undefined> {
  const rows = await queryRows<{ id: string; access_level: number }>(
    db,
    sql`select r.id, t.access_level
          from ${registrations} r join ${ticketTypes} t on t.id = r.ticket_type_id
         where r.edition_id = ${editionId} and r.user_id = ${userId} and r.status = 'confirmed'
         limit 1`,
  );
  return rows[0];
}

/** A person's registration as their own page (`/me`) lists it: with its event, edition and ticket. */
export interface OwnRegistration {
  id: string;
  status: RegistrationStatus;
  status_reason: string | null;
  intent_id: string | null;
  checkout_url: string | null;
  hold_expires_at: Date | null;
  created_at: Date;
  ticket_name: string;
  edition_id: string;
  edition_name: string;
  starts_at: Date;
  ends_at: Date;
  event_name: string;
}

/**
 * Every registration of the person, whatever its status or edition (deleted editions left out: they
 * are gone for everyone), newest first. A person holds a handful, so the list is not paged.
 */
export function listRegistrationsOfUser(db: Executor, userId: string): Promise<OwnRegistration[]> {
  return db
    .select({
      id: registrations.id,
      status: registrations.status,
      status_reason: registrations.status_reason,
      intent_id: registrations.intent_id,
      checkout_url: registrations.checkout_url,
      hold_expires_at: registrations.hold_expires_at,
      created_at: registrations.created_at,
      ticket_name: ticketTypes.name,
      edition_id: editions.id,
      edition_name: editions.name,
      starts_at: editions.starts_at,
      ends_at: editions.ends_at,
      event_name: events.name,
    })
    .from(registrations)
    .innerJoin(ticketTypes, eq(ticketTypes.id, registrations.ticket_type_id))
    .innerJoin(editions, eq(editions.id, registrations.edition_id))
    .innerJoin(events, eq(events.id, editions.event_id))
    .where(and(eq(registrations.user_id, userId), isNull(editions.deleted_at)))
    .orderBy(desc(registrations.created_at), desc(registrations.id));
}
