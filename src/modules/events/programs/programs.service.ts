/**
 * Programs: the schedule items of an edition (activities and checkpoints). Rules: a program's
 * times lie inside its edition's span and `ends_at` is after `starts_at`; `staff_only` programs
 * exist only for members of the event (staff and up), to everyone else they are unknown (404);
 * deleted programs vanish from every read.
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database, Executor } from '../../../kernel/db/client.ts';
import { describeConstraint } from '../../../kernel/db/errors.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { asNotFound } from '../../../kernel/http/as-not-found.ts';
import { conflict, type FieldError, notFound, validationError } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import type { EditionRow } from '../editions/index.ts';
import { requireEditionRole, requireReadableEdition } from '../editions/index.ts';
import { isEventRole } from '../events/index.ts';
import * as repo from './programs.repository.ts';
import type { CreateProgramBody, ProgramListQuery, UpdateProgramBody } from './programs.schemas.ts';
import type { ProgramRow } from './programs.table.ts';

describeConstraint('programs_dates_check', {
  reason: 'ends_before_start',
  field: 'ends_at',
  message: 'must be after starts_at',
});
describeConstraint('programs_access_level_check', { field: 'min_access_level', message: 'must be >= 0' });
describeConstraint('programs_price_check', { field: 'price', message: 'must be >= 0' });
describeConstraint('programs_max_participants_check', { field: 'max_participants', message: 'must be >= 1' });

// The schema's `date-time` format already refuses what a Date cannot hold (leap seconds, year 0).
const toDate = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null ? null : new Date(value);

/** Times inside the edition (bounds included), and `ends_at` after `starts_at` when both are set. */
function checkSchedule(edition: EditionRow, startsAt: Date | null, endsAt: Date | null): void {
  const span = `${edition.starts_at.toISOString()}..${edition.ends_at.toISOString()}`;
  const isOutside = (date: Date) =>
    date.getTime() < edition.starts_at.getTime() || date.getTime() > edition.ends_at.getTime();
  const fields: FieldError[] = [];
  if (startsAt !== null && isOutside(startsAt)) {
    fields.push({ field: 'starts_at', message: `must lie within the edition (${span})` });
  }
  if (endsAt !== null && isOutside(endsAt)) {
    fields.push({ field: 'ends_at', message: `must lie within the edition (${span})` });
  }
  if (startsAt !== null && endsAt !== null && endsAt.getTime() <= startsAt.getTime()) {
    fields.push({ field: 'ends_at', message: 'must be after starts_at' });
  }
  if (fields.length > 0) throw validationError(fields, 'The program times are not consistent');
}

/** A live program the caller may read: its edition readable, and staff_only ones for members only. */
export async function requireReadableProgram(
  db: Database,
  programId: string,
  actor: Identity | null,
): Promise<ProgramRow> {
  const program = await repo.findProgram(db, programId);
  if (program === undefined) throw notFound('Program');
  const { role } = await requireReadableEdition(db, program.edition_id, actor).catch(asNotFound('Program'));
  if (program.staff_only && !isEventRole(role, 'staff')) throw notFound('Program');
  return program;
}

/** A live program and its edition, for a caller who is owner or admin of the event. */
async function requireWritableProgram(db: Database, programId: string, actor: Identity) {
  const program = await repo.findProgram(db, programId);
  if (program === undefined) throw notFound('Program');
  const { edition } = await requireEditionRole(db, program.edition_id, actor, 'admin').catch(
    asNotFound('Program'),
  );
  return { program, edition };
}

export async function createProgram(
  db: Database,
  editionId: string,
  actor: Identity,
  body: CreateProgramBody,
) {
  const { edition } = await requireEditionRole(db, editionId, actor, 'admin');
  const startsAt = toDate(body.starts_at) ?? null;
  const endsAt = toDate(body.ends_at) ?? null;
  checkSchedule(edition, startsAt, endsAt);
  const program = await repo.insertProgram(db, {
    id: uuidv7(),
    edition_id: editionId,
    kind: body.kind,
    name: body.name,
    description: body.description ?? null,
    starts_at: startsAt,
    ends_at: endsAt,
    location: body.location ?? null,
    min_access_level: body.min_access_level ?? 0,
    staff_only: body.staff_only ?? false,
    price: body.price ?? 0,
    banner_url: body.banner_url ?? null,
    max_participants: body.max_participants ?? null,
  });
  return serialize(program);
}

/** Public when the edition is; `staff_only` programs are listed to members of the event only. */
export async function listPrograms(
  db: Database,
  editionId: string,
  actor: Identity | null,
  query: ProgramListQuery,
  window: Window,
) {
  // Hot path (docs/reference/events.md): an anonymous caller on a published edition sees the public programs,
  // one round trip. A caller with a token may be a member (who also sees staff-only programs), and
  // an empty page may mean "not visible": both take the general path.
  if (actor === null) {
    const fast = await repo.listPublicProgramsOfPublishedEdition(db, editionId, query.kind, window);
    if (fast !== undefined) return fast;
  }
  const { role } = await requireReadableEdition(db, editionId, actor);
  const page = await repo.listPrograms(
    db,
    editionId,
    { kind: query.kind, includeStaffOnly: isEventRole(role, 'staff') },
    window,
  );
  return { ...page, items: page.items.map(serialize) };
}

export async function getProgram(db: Database, programId: string, actor: Identity | null) {
  return serialize(await requireReadableProgram(db, programId, actor));
}

/**
 * What a program's update needs of its sign-ups, which live above it (participants/, whose rows
 * point at registrations): wired in the module's index.ts, so routes built without it do not
 * compile.
 */
export interface ProgramSignUps {
  /** The program's active sign-ups; with `lock`, under the program's row lock a sign-up takes to count. */
  countActive(tx: Executor, programId: string, options: { lock: boolean }): Promise<number>;
}

export async function updateProgram(
  db: Database,
  signUps: ProgramSignUps,
  programId: string,
  actor: Identity,
  body: UpdateProgramBody,
) {
  const { program, edition } = await requireWritableProgram(db, programId, actor);
  const startsAt = toDate(body.starts_at);
  const endsAt = toDate(body.ends_at);
  // The rules hold for the resulting values; they are checked when a time changes, so a program
  // left outside by a later change of the edition's dates can still be renamed.
  if (startsAt !== undefined || endsAt !== undefined) {
    checkSchedule(
      edition,
      startsAt === undefined ? program.starts_at : startsAt,
      endsAt === undefined ? program.ends_at : endsAt,
    );
  }
  const { starts_at: _starts, ends_at: _ends, ...rest } = body;
  const patch = {
    ...rest,
    ...(startsAt === undefined ? {} : { starts_at: startsAt }),
    ...(endsAt === undefined ? {} : { ends_at: endsAt }),
  };
  // A lower capacity is checked against the sign-ups under the program's row lock, the lock a
  // sign-up takes to count, so the two cannot pass each other.
  const updated = await db.transaction(async (tx) => {
    const limit = body.max_participants;
    if (limit !== undefined && limit !== null) {
      const active = await signUps.countActive(tx, programId, { lock: true });
      if (active > limit) {
        throw conflict('below_sign_ups', 'max_participants cannot be below the current sign-ups', {
          participants: active,
        });
      }
    }
    return repo.updateProgram(tx, programId, patch);
  });
  if (updated === undefined) throw notFound('Program');
  return serialize(updated);
}

/** Soft delete: answers the deleted program, which then vanishes from every read. */
export async function deleteProgram(db: Database, programId: string, actor: Identity) {
  await requireWritableProgram(db, programId, actor);
  const deleted = await repo.updateProgram(db, programId, { deleted_at: new Date() });
  if (deleted === undefined) throw notFound('Program');
  return serialize(deleted);
}
