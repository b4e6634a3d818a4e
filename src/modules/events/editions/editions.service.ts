/**
 * Editions: dated occurrences of an event. Rules: ends_at after starts_at, registration opening
 * not after the start, no two live editions of an event overlapping in time (409), drafts visible
 * to members only, publishing once (409 after).
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database, Executor, Transaction } from '../../../kernel/db/client.ts';
import { describeConstraint } from '../../../kernel/db/errors.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { conflict, type FieldError, notFound, validationError } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import { type EventLock, lockEvent, requireEventRole, requireReadableEvent } from '../events/index.ts';
import { requireReadableEdition } from './editions.access.ts';
import * as repo from './editions.repository.ts';
import type { CreateEditionBody, UpdateEditionBody } from './editions.schemas.ts';
import type { EditionRow } from './editions.table.ts';

describeConstraint('editions_event_slug_unique', {
  reason: 'slug_taken',
  field: 'slug',
  message: 'slug is already taken by another edition of this event',
});
describeConstraint('editions_dates_check', {
  reason: 'ends_before_start',
  field: 'ends_at',
  message: 'must be after starts_at',
});
describeConstraint('editions_registration_check', {
  reason: 'registration_opens_after_start',
  field: 'registration_opens_at',
  message: 'must not be after starts_at',
});

/**
 * A body date-time as a Date. The schema's `date-time` format (RFC 3339) admits values that neither
 * a JavaScript Date nor PostgreSQL can hold: a leap second (`23:59:60`, an Invalid Date that made
 * the driver throw, a 500) and the year 0000 (refused by the database). Both are the field's
 * validation error here.
 */
function parseDate(value: string, field: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1) {
    throw validationError([{ field, message: 'must be a valid date-time' }]);
  }
  return date;
}

function toDate(value: string | null | undefined, field: string): Date | null | undefined {
  return value === undefined ? undefined : value === null ? null : parseDate(value, field);
}

function checkDates(startsAt: Date, endsAt: Date, registrationOpensAt: Date | null): void {
  const fields: FieldError[] = [];
  if (endsAt.getTime() <= startsAt.getTime())
    fields.push({ field: 'ends_at', message: 'must be after starts_at' });
  if (registrationOpensAt !== null && registrationOpensAt.getTime() > startsAt.getTime()) {
    fields.push({ field: 'registration_opens_at', message: 'must not be after starts_at' });
  }
  if (fields.length > 0) throw validationError(fields, 'The edition dates are not consistent');
}

/**
 * 409 when a live edition of the event overlaps [startsAt, endsAt). Under the event lock, so the
 * check and the write after it cannot interleave with another request's.
 */
async function refuseOverlap(
  tx: Transaction,
  lock: EventLock,
  startsAt: Date,
  endsAt: Date,
  exceptId?: string,
): Promise<void> {
  const clash = await repo.findOverlappingEdition(tx, lock.eventId, startsAt, endsAt, exceptId);
  if (clash !== undefined) {
    throw conflict('edition_overlap', 'The edition overlaps another edition of this event', {
      edition_id: clash.id,
      starts_at: clash.starts_at.toISOString(),
      ends_at: clash.ends_at.toISOString(),
    });
  }
}

export async function createEdition(db: Database, eventId: string, actor: Identity, body: CreateEditionBody) {
  await requireEventRole(db, eventId, actor, 'admin');
  const startsAt = parseDate(body.starts_at, 'starts_at');
  const endsAt = parseDate(body.ends_at, 'ends_at');
  const registrationOpensAt = toDate(body.registration_opens_at, 'registration_opens_at') ?? null;
  checkDates(startsAt, endsAt, registrationOpensAt);
  const edition = await db.transaction(async (tx) => {
    await refuseOverlap(tx, await lockEvent(tx, eventId), startsAt, endsAt);
    const { registration_opens_at: _opens, starts_at: _starts, ends_at: _ends, ...rest } = body;
    return repo.insertEdition(tx, {
      ...rest,
      id: uuidv7(),
      event_id: eventId,
      starts_at: startsAt,
      ends_at: endsAt,
      registration_opens_at: registrationOpensAt,
      created_by: actor.userId,
    });
  });
  return serialize(edition);
}

export async function listPublishedEditions(
  db: Database,
  eventId: string,
  actor: Identity | null,
  window: Window,
) {
  // Hot path: a published event and a non-empty page need no access check (they are public) and
  // come with their total in one query. Otherwise (unknown or draft event, page past the end) the
  // general path tells 404 from an empty page and shows members their draft event's editions.
  const fast = await repo.listPublishedEditionsOfPublishedEvent(db, eventId, window);
  if (fast !== undefined) return fast;
  await requireReadableEvent(db, eventId, actor);
  const page = await repo.listEditions(db, eventId, false, window);
  return { ...page, items: page.items.map(serialize) };
}

export async function listDraftEditions(db: Database, eventId: string, actor: Identity, window: Window) {
  await requireEventRole(db, eventId, actor, 'staff');
  const page = await repo.listEditions(db, eventId, true, window);
  return { ...page, items: page.items.map(serialize) };
}

export async function getPublishedEditionBySlugs(db: Database, eventSlug: string, editionSlug: string) {
  const edition = await repo.findPublishedEditionBySlugs(db, eventSlug, editionSlug);
  if (edition === undefined) throw notFound('Edition');
  return serialize(edition);
}

/** Public when the edition and its event are published; members of the event see drafts too. */
export async function getEdition(db: Database, editionId: string, actor: Identity | null) {
  const { edition } = await requireReadableEdition(db, editionId, actor);
  return serialize(edition);
}

/** The live edition `editionId` of event `eventId`, for a caller holding `minimum` in that event. */
async function requireEditionOfEvent(
  db: Database,
  eventId: string,
  editionId: string,
  actor: Identity,
  minimum: 'owner' | 'admin',
): Promise<EditionRow> {
  await requireEventRole(db, eventId, actor, minimum);
  const found = await repo.findEditionWithAccess(db, editionId, actor.userId);
  if (found === undefined || found.edition.event_id !== eventId) throw notFound('Edition');
  return found.edition;
}

export async function updateEdition(
  db: Database,
  eventId: string,
  editionId: string,
  actor: Identity,
  body: UpdateEditionBody,
) {
  const current = await requireEditionOfEvent(db, eventId, editionId, actor, 'admin');
  const startsAt = toDate(body.starts_at, 'starts_at') ?? current.starts_at;
  const endsAt = toDate(body.ends_at, 'ends_at') ?? current.ends_at;
  const registrationOpensAt = toDate(body.registration_opens_at, 'registration_opens_at');
  checkDates(
    startsAt,
    endsAt,
    registrationOpensAt === undefined ? current.registration_opens_at : registrationOpensAt,
  );
  const datesChanged = body.starts_at !== undefined || body.ends_at !== undefined;
  // Every edition write takes the event lock first, even one that changes no date: one rule, and
  // a member added meanwhile reads the edition as it is before or after, never half-way.
  const edition = await db.transaction(async (tx) => {
    const lock = await lockEvent(tx, eventId);
    if (datesChanged) await refuseOverlap(tx, lock, startsAt, endsAt, editionId);
    const { registration_opens_at: _opens, starts_at: _starts, ends_at: _ends, ...rest } = body;
    return repo.updateEdition(tx, editionId, {
      ...rest,
      starts_at: startsAt,
      ends_at: endsAt,
      ...(registrationOpensAt === undefined ? {} : { registration_opens_at: registrationOpensAt }),
    });
  });
  return serialize(edition);
}

/**
 * What publishing an edition does to staff badges. Badges sit above editions (a badge row points
 * at registrations and ticket types), so the badges feature is given here as a port, wired in the
 * module's index.ts (`EditionsContext`): routes built without it do not compile.
 */
export interface PublishStaffBadges {
  /** The edition was just published: every member of its event gets a staff badge. */
  onPublished(tx: Executor, lock: EventLock, editionId: string): Promise<void>;
}

export async function publishEdition(
  db: Database,
  badges: PublishStaffBadges,
  eventId: string,
  editionId: string,
  actor: Identity,
) {
  const edition = await requireEditionOfEvent(db, eventId, editionId, actor, 'admin');
  // Conditional update: of two concurrent publishes exactly one wins, the other gets the 409. The
  // staff badges of the event's members are emitted in the same transaction, after the event lock
  // (taken first, as every edition write does, so the lock order is event then edition).
  const published = edition.is_draft
    ? await db.transaction(async (tx) => {
        const lock = await lockEvent(tx, eventId);
        const row = await repo.publishDraftEdition(tx, editionId);
        if (row !== undefined) await badges.onPublished(tx, lock, row.id);
        return row;
      })
    : undefined;
  if (published === undefined) throw conflict('already_published', 'The edition is already published');
  return serialize(published);
}

export async function deleteEdition(db: Database, eventId: string, editionId: string, actor: Identity) {
  await requireEditionOfEvent(db, eventId, editionId, actor, 'owner');
  // Under the event lock too: an edition write like the others (a member added meanwhile gets, or
  // does not get, its staff badge according to one state of the edition).
  const deleted = await db.transaction(async (tx) => {
    await lockEvent(tx, eventId);
    return repo.updateEdition(tx, editionId, { deleted_at: new Date() });
  });
  return serialize(deleted);
}
