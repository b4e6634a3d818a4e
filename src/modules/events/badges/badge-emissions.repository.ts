/** SQL reads of badge emissions: the organizers' list, the print selection, a user's badges. */
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { actors } from '../../../kernel/auth/actors.table.ts';
import type { Database, Executor } from '../../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import { preparedQuery } from '../../../kernel/db/prepared.ts';
import { editions } from '../editions/index.ts';
import { events } from '../events/index.ts';
import { registrations } from '../registrations/index.ts';
import { ticketTypes } from '../tickets/index.ts';
import { type BadgeEmissionRow, badgeEmissions } from './badges.table.ts';

/** An emission with what its answers show: the holder's e-mail and, for participants, the ticket. */
export interface EmissionView {
  id: string;
  edition_id: string;
  user_id: string;
  origin: BadgeEmissionRow['origin'];
  status: BadgeEmissionRow['status'];
  status_reason: BadgeEmissionRow['status_reason'];
  emitted_at: Date;
  updated_at: Date;
  holder_email: string;
  /** The holder's name from the actor directory; null when no token of theirs carried one. */
  holder_name: string | null;
  ticket_type_id: string | null;
  ticket_name: string | null;
  /** The ticket type's access level (participant badges); null for staff badges. */
  access_level: number | null;
}

const emissionView = {
  id: badgeEmissions.id,
  edition_id: badgeEmissions.edition_id,
  user_id: badgeEmissions.user_id,
  origin: badgeEmissions.origin,
  status: badgeEmissions.status,
  status_reason: badgeEmissions.status_reason,
  emitted_at: badgeEmissions.emitted_at,
  updated_at: badgeEmissions.updated_at,
  holder_email: actors.email,
  holder_name: actors.name,
  ticket_type_id: ticketTypes.id,
  ticket_name: ticketTypes.name,
  access_level: ticketTypes.access_level,
};

/** Emissions joined with their holder and, through the registration, their ticket type. */
function selectEmissions(db: Executor) {
  return db
    .select(emissionView)
    .from(badgeEmissions)
    .innerJoin(actors, eq(actors.user_id, badgeEmissions.user_id))
    .leftJoin(registrations, eq(registrations.id, badgeEmissions.registration_id))
    .leftJoin(ticketTypes, eq(ticketTypes.id, registrations.ticket_type_id));
}

/** Every emission of the edition, active and revoked, newest first. */
export function listEmissions(
  db: Executor,
  editionId: string,
  status: BadgeEmissionRow['status'] | undefined,
  window: Window,
) {
  const where = and(
    eq(badgeEmissions.edition_id, editionId),
    status === undefined ? undefined : eq(badgeEmissions.status, status),
  );
  return pageOf<EmissionView>(
    window,
    selectEmissions(db)
      .where(where)
      .orderBy(desc(badgeEmissions.emitted_at), desc(badgeEmissions.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(badgeEmissions).where(where),
  );
}

/**
 * The print selection: the emissions of the edition with these ids (any status, so the caller can
 * tell a revoked one from an unknown one), or, without ids, every active one; in emission order.
 */
export async function findEmissionsOfEdition(
  db: Executor,
  editionId: string,
  ids: string[] | undefined,
): Promise<EmissionView[]> {
  return selectEmissions(db)
    .where(
      and(
        eq(badgeEmissions.edition_id, editionId),
        ids === undefined ? eq(badgeEmissions.status, 'active') : inArray(badgeEmissions.id, ids),
      ),
    )
    .orderBy(asc(badgeEmissions.emitted_at), asc(badgeEmissions.id));
}

/**
 * Every scan at the door reads its badge, so this one is a named prepared statement: built once,
 * parsed and planned once per connection instead of on every scan (bench/README.md, attendance).
 */
const emissionById = preparedQuery((db) =>
  selectEmissions(db)
    .where(eq(badgeEmissions.id, sql.placeholder('id')))
    .limit(1)
    .prepare('badge_emission_by_id'),
);

/** One emission by id, whatever its edition or status. */
export async function findEmission(db: Database, id: string): Promise<EmissionView | undefined> {
  const rows = await emissionById(db).execute({ id });
  return rows[0];
}

/** The badge a registration was given (its participant emission), if any. */
export async function findEmissionOfRegistration(
  db: Executor,
  registrationId: string,
): Promise<Pick<BadgeEmissionRow, 'id' | 'status'> | undefined> {
  const rows = await db
    .select({ id: badgeEmissions.id, status: badgeEmissions.status })
    .from(badgeEmissions)
    .where(eq(badgeEmissions.registration_id, registrationId))
    .limit(1);
  return rows[0];
}

/** The badges of these registrations (their participant emissions), for a person's own page. */
export async function findEmissionsOfRegistrations(
  db: Executor,
  registrationIds: string[],
): Promise<Array<{ registration_id: string; id: string; status: BadgeEmissionRow['status'] }>> {
  if (registrationIds.length === 0) return [];
  const rows = await db
    .select({
      registration_id: badgeEmissions.registration_id,
      id: badgeEmissions.id,
      status: badgeEmissions.status,
    })
    .from(badgeEmissions)
    .where(inArray(badgeEmissions.registration_id, registrationIds));
  return rows.flatMap((row) =>
    row.registration_id === null ? [] : [{ ...row, registration_id: row.registration_id }],
  );
}

/** The names the print variables need, and the edition's dates and venue (the badge and checkout pages). */
export async function findEditionNames(
  db: Executor,
  editionId: string,
): Promise<
  | {
      edition_name: string;
      event_name: string;
      starts_at: Date;
      ends_at: Date;
      location_name: string | null;
      location_description: string | null;
    }
  | undefined
> {
  const rows = await db
    .select({
      edition_name: editions.name,
      event_name: events.name,
      starts_at: editions.starts_at,
      ends_at: editions.ends_at,
      location_name: editions.location_name,
      location_description: editions.location_description,
    })
    .from(editions)
    .innerJoin(events, eq(events.id, editions.event_id))
    .where(eq(editions.id, editionId))
    .limit(1);
  return rows[0];
}

export type UserBadgeView = EmissionView & {
  edition: { id: string; name: string; slug: string; starts_at: Date; ends_at: Date };
  event: { id: string; name: string; slug: string };
};

/** The person's active badges of published, live editions of published events. */
export async function listActiveBadgesOfUser(db: Executor, userId: string): Promise<UserBadgeView[]> {
  return selectEmissionsWithEdition(db).where(
    and(
      eq(badgeEmissions.user_id, userId),
      eq(badgeEmissions.status, 'active'),
      eq(editions.is_draft, false),
      isNull(editions.deleted_at),
      eq(events.status, 'active'),
    ),
  );
}

function selectEmissionsWithEdition(db: Executor) {
  return db
    .select({
      ...emissionView,
      edition: {
        id: editions.id,
        name: editions.name,
        slug: editions.slug,
        starts_at: editions.starts_at,
        ends_at: editions.ends_at,
      },
      event: { id: events.id, name: events.name, slug: events.slug },
    })
    .from(badgeEmissions)
    .innerJoin(actors, eq(actors.user_id, badgeEmissions.user_id))
    .innerJoin(editions, eq(editions.id, badgeEmissions.edition_id))
    .innerJoin(events, eq(events.id, editions.event_id))
    .leftJoin(registrations, eq(registrations.id, badgeEmissions.registration_id))
    .leftJoin(ticketTypes, eq(ticketTypes.id, registrations.ticket_type_id));
}

/**
 * What the confirmation mails of some registrations show, in one read: each one's badge, holder,
 * edition, event and ticket type. The mails are sent while registrations go on, so one prepared
 * statement for a whole claim of mails rather than five per mail (docs/mail.md).
 */
const confirmationFacts = preparedQuery((db) =>
  db
    .select({
      registration_id: badgeEmissions.registration_id,
      emission_id: badgeEmissions.id,
      holder_email: actors.email,
      holder_name: actors.name,
      edition_name: editions.name,
      starts_at: editions.starts_at,
      ends_at: editions.ends_at,
      location_name: editions.location_name,
      location_description: editions.location_description,
      event_name: events.name,
      ticket_name: ticketTypes.name,
      price_cents: ticketTypes.price_cents,
      currency: ticketTypes.currency,
      intent_id: registrations.intent_id,
    })
    .from(badgeEmissions)
    .innerJoin(registrations, eq(registrations.id, badgeEmissions.registration_id))
    .innerJoin(actors, eq(actors.user_id, registrations.user_id))
    .innerJoin(editions, eq(editions.id, registrations.edition_id))
    .innerJoin(events, eq(events.id, editions.event_id))
    .innerJoin(ticketTypes, eq(ticketTypes.id, registrations.ticket_type_id))
    // One array parameter, however many registrations: one statement text.
    .where(sql`${badgeEmissions.registration_id} = any(${sql.placeholder('ids')}::uuid[])`)
    .prepare('confirmation_facts'),
);

export type ConfirmationFacts = Awaited<ReturnType<ReturnType<typeof confirmationFacts>['execute']>>[number];

/** The confirmation facts of each registration that has a badge, by registration id. */
export async function findConfirmationFacts(
  db: Database,
  registrationIds: readonly string[],
): Promise<Map<string, ConfirmationFacts>> {
  if (registrationIds.length === 0) return new Map();
  const rows = await confirmationFacts(db).execute({ ids: `{${registrationIds.join(',')}}` });
  return new Map(rows.map((row) => [row.registration_id ?? '', row]));
}
