/** SQL of registrations. */
import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import { actors } from '../../../kernel/auth/actors.table.ts';
import type { Executor } from '../../../kernel/db/client.ts';
import { likeContaining } from '../../../kernel/db/like.ts';
import { countAll, totalOver, type Window } from '../../../kernel/db/paging.ts';
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

/** The person's active registration in the edition (pending payment or confirmed), if any. */
export async function findActiveRegistration(
  db: Executor,
  editionId: string,
  userId: string,
): Promise<RegistrationRow | undefined> {
  const rows = await db
    .select()
    .from(registrations)
    .where(
      and(
        eq(registrations.edition_id, editionId),
        eq(registrations.user_id, userId),
        inArray(registrations.status, [...ACTIVE_REGISTRATION_STATUSES]),
      ),
    )
    .limit(1);
  return rows[0];
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
 * The filters as one condition. The search compares lowercased e-mail and name with a lowercased
 * pattern, the form the trigram indexes of the actor directory are built on (`actors.table.ts`).
 * The statuses are one array parameter, so the statement's text depends only on which filters are
 * given, never on how many statuses (`runNamed`).
 */
function filterCondition(editionId: string, filter: RegistrationFilter): SQL {
  const pattern = filter.q === undefined ? undefined : likeContaining(filter.q);
  return and(
    eq(registrations.edition_id, editionId),
    filter.status === undefined
      ? undefined
      : sql`${registrations.status} = any(${`{${filter.status.join(',')}}`}::text[])`,
    filter.ticketTypeId === undefined ? undefined : eq(registrations.ticket_type_id, filter.ticketTypeId),
    filter.paid === undefined
      ? undefined
      : filter.paid
        ? isNotNull(registrations.intent_id)
        : isNull(registrations.intent_id),
    pattern === undefined
      ? undefined
      : or(
          sql`lower(${actors.email}) like lower(${pattern})`,
          sql`lower(${actors.name}) like lower(${pattern})`,
        ),
  ) as SQL;
}

/**
 * A query run as a named prepared statement, named after its text: a server parses each text once
 * per connection (the listing's texts differ only by which filters are given, a handful).
 */
function runNamed<T>(query: { toSQL(): { sql: string }; prepare(name: string): { execute(): Promise<T> } }) {
  const digest = createHash('sha1').update(query.toSQL().sql).digest('base64url').slice(0, 16);
  return query.prepare(`registrations_list_${digest}`).execute();
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

const withoutTotal = ({ total: _total, ...row }: RegistrationListRow & { total: number }) => row;

/**
 * Newest first, filtered, with the holder's e-mail and name and the ticket type's name. A search
 * (`q`) matches few rows, found through the trigram indexes: they are counted in the same statement
 * (`count(*) over ()`). Without one, the page is read down the edition's index and the rows are
 * counted apart (a window count would join every row of the edition to read twenty). The
 * statements are named after their text (`runNamed`), so a server parses each once per connection:
 * parsing and planning the joins cost more than running them (bench/README.md, "Organiser console").
 */
export async function listRegistrations(
  db: Executor,
  editionId: string,
  filter: RegistrationFilter,
  window: Window,
): Promise<Page<RegistrationListRow>> {
  const condition = filterCondition(editionId, filter);
  const counted = async () => {
    const count = db.select({ total: countAll }).from(registrations);
    const [row] = await runNamed(
      (filter.q === undefined
        ? count
        : count.innerJoin(actors, eq(actors.user_id, registrations.user_id))
      ).where(condition),
    );
    return row?.total ?? 0;
  };
  const page = (isCounted: boolean) =>
    runNamed(selectListed(db, isCounted, condition).limit(window.limit).offset(window.offset));
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
 * A batch of the filtered listing after `after` (the last row of the batch before, in the
 * listing's order), for an export that walks every row without holding them all (keyset paging:
 * each batch is found by the index, however deep).
 */
export async function listRegistrationsAfter(
  db: Executor,
  editionId: string,
  filter: RegistrationFilter,
  after: { created_at: Date; id: string } | undefined,
  limit: number,
): Promise<RegistrationListRow[]> {
  const condition = filterCondition(editionId, filter);
  const rows = await selectListed(
    db,
    false,
    after === undefined
      ? condition
      : (and(
          condition,
          sql`(${registrations.created_at}, ${registrations.id}) < (${after.created_at.toISOString()}::timestamptz, ${after.id}::uuid)`,
        ) as SQL),
  ).limit(limit);
  return rows.map(withoutTotal);
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
