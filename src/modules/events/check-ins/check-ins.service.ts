/**
 * Check-ins (docs/reference/attendance.md), modelled on pretix's redeem: a staff member scans a badge at the
 * door (no `program_id`) or at a program, and the answer says what to do with the person in front of them.
 * `ok` and `already_checked_in` are 200; `unknown`, `wrong_edition`, `revoked`, `not_open` and `not_allowed`
 * are 409 with the same body in `error.meta`, and record nothing.
 *
 * Order: the caller's role (docs/reference/auth.md), then the request's own fields (`program_id`,
 * `scanned_at`: a 400, as a request that cannot be a scan), then the nonce (a re-upload gets its first answer
 * back), then the badge: what it is (unknown, another edition's, revoked) before when it is scanned
 * (`not_open`: outside the edition's check-in window), before where (`not_allowed`).
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { AppError, conflict, type ErrorReason, validationError } from '../../../kernel/http/errors.ts';
import type { BadgeCodes } from '../badges/index.ts';
import { type EmissionView, findEmission } from '../badges/index.ts';
import { requireEditionRole } from '../editions/index.ts';
import type { ProgramRow } from '../programs/index.ts';
import { findProgram } from '../programs/index.ts';
import type { RegistrantCheckIns } from '../registrations/index.ts';
import * as repo from './check-ins.repository.ts';
import type { CheckInAnswer, CheckInBody, CheckInResult } from './check-ins.schemas.ts';
import type { CheckInRow } from './check-ins.table.ts';

/** How old an offline scan may be. */
export const MAX_SCAN_AGE_MS = 7 * 24 * 3600 * 1000;
/** How far ahead of our clock a scanner's clock may run. */
export const SCAN_CLOCK_SKEW_MS = 60_000;
/**
 * Check-ins open this long before the edition starts and close this long after it ends (by
 * `scanned_at`): early arrivals and badge pick-up the day before, late offline uploads of scans made
 * at the edition. A scan outside is `not_open`.
 */
export const CHECK_IN_MARGIN_MS = 24 * 3600 * 1000;

const REFUSALS: Record<Exclude<CheckInResult, 'ok' | 'already_checked_in'>, string> = {
  unknown: 'This code is not a badge issued by this service',
  wrong_edition: 'This badge belongs to another edition',
  revoked: 'This badge has been revoked',
  not_allowed: 'This badge does not admit its holder here',
  not_open: 'Check-in is not open: it runs from 24 hours before the edition starts to 24 hours after it ends',
};

/** The `error.reason` of each refused scan (its `meta.result` says the same, as the scanner reads it). */
const REFUSAL_REASONS: Record<keyof typeof REFUSALS, ErrorReason> = {
  unknown: 'badge_unknown',
  wrong_edition: 'wrong_edition',
  revoked: 'badge_revoked',
  not_allowed: 'not_allowed',
  not_open: 'not_open',
};

export interface CheckInDeps {
  db: Database;
  codes: BadgeCodes;
}

export const holderNameOf = (holder: { holder_name: string | null; holder_email: string }) =>
  holder.holder_name ?? holder.holder_email;

function emissionOf(view: EmissionView) {
  return {
    id: view.id,
    edition_id: view.edition_id,
    user_id: view.user_id,
    origin: view.origin,
    status: view.status,
    status_reason: view.status_reason,
    ticket_name: view.origin === 'participant' ? view.ticket_name : null,
    emitted_at: view.emitted_at.toISOString(),
  };
}

function answer(
  result: CheckInResult,
  view: EmissionView | undefined,
  extra: { row?: CheckInRow; programId: string | null; reason?: CheckInAnswer['reason'] },
): CheckInAnswer {
  return {
    result,
    reason: extra.reason ?? null,
    program_id: extra.programId,
    emission: view === undefined ? null : emissionOf(view),
    holder_name: view === undefined ? null : holderNameOf(view),
    ticket_name: view === undefined || view.origin !== 'participant' ? null : view.ticket_name,
    first_checked_in_at: extra.row?.checked_in_at.toISOString() ?? null,
    check_in_id: extra.row?.id ?? null,
  };
}

/** A refused scan: 409 whose `meta` is the answer, so a scanner reads one shape either way. */
function refuse(result: keyof typeof REFUSALS, body: CheckInAnswer): never {
  throw new AppError('CONFLICT', REFUSALS[result], { reason: REFUSAL_REASONS[result], meta: { ...body } });
}

function scanTime(scannedAt: string | undefined, now: number): Date {
  if (scannedAt === undefined) return new Date(now);
  const at = new Date(scannedAt);
  if (at.getTime() > now + SCAN_CLOCK_SKEW_MS) {
    throw validationError([{ field: 'scanned_at', message: 'must not be in the future' }]);
  }
  if (at.getTime() < now - MAX_SCAN_AGE_MS) {
    throw validationError([{ field: 'scanned_at', message: 'must be at most 7 days old' }]);
  }
  return at;
}

/** Whether a scan made at `at` falls in the edition's check-in window, bounds included. */
export function isCheckInOpen(edition: { starts_at: Date; ends_at: Date }, at: Date): boolean {
  const time = at.getTime();
  return (
    time >= edition.starts_at.getTime() - CHECK_IN_MARGIN_MS &&
    time <= edition.ends_at.getTime() + CHECK_IN_MARGIN_MS
  );
}

/** Why a badge may not enter a program, or null when it may. Staff badges enter everything. */
function refusalAt(program: ProgramRow | undefined, view: EmissionView): CheckInAnswer['reason'] {
  if (program === undefined || view.origin === 'staff') return null;
  if (program.staff_only) return 'staff_only';
  if ((view.access_level ?? 0) < program.min_access_level) return 'access_level';
  return null;
}

export async function checkIn(
  { db, codes }: CheckInDeps,
  editionId: string,
  actor: Identity,
  body: CheckInBody,
): Promise<CheckInAnswer> {
  // The badge is read while the role is checked (two reads on two connections), so a scan waits for
  // one round trip fewer. Its answer is looked at only after the role, the request's fields and the
  // nonce, as before: a caller without the role still gets the role's error and learns nothing.
  const emissionId = codes.emissionIdOf(body.code);
  const badge = emissionId === null ? Promise.resolve(undefined) : findEmission(db, emissionId);
  // Awaited below; this only keeps a failure from being unhandled when an earlier step throws first.
  badge.catch(() => {});
  const { edition } = await requireEditionRole(db, editionId, actor, 'staff');
  const programId = body.program_id ?? null;
  const program = programId === null ? undefined : await findProgram(db, programId);
  if (programId !== null && program?.edition_id !== editionId) {
    throw validationError([{ field: 'program_id', message: 'is not a program of this edition' }]);
  }
  const scannedAt = scanTime(body.scanned_at, Date.now());

  const replay = async (): Promise<CheckInAnswer | undefined> => {
    if (body.nonce === undefined) return undefined;
    const earlier = await repo.findCheckInByNonce(db, editionId, body.nonce);
    if (earlier === undefined) return undefined;
    if (earlier.emission_id !== emissionId || earlier.program_id !== programId) {
      throw conflict('nonce_reused', 'This nonce was already used for another scan', { nonce: body.nonce });
    }
    return answer('ok', await findEmission(db, earlier.emission_id), { row: earlier, programId });
  };
  const replayed = await replay();
  if (replayed !== undefined) return replayed;

  const view = await badge;
  if (view === undefined) refuse('unknown', answer('unknown', undefined, { programId }));
  // Another edition's badge says nothing about its holder to this edition's staff.
  if (view.edition_id !== editionId)
    refuse('wrong_edition', answer('wrong_edition', undefined, { programId }));
  if (view.status === 'revoked') refuse('revoked', answer('revoked', view, { programId }));
  if (!isCheckInOpen(edition, scannedAt)) refuse('not_open', answer('not_open', view, { programId }));
  const reason = refusalAt(program, view);
  if (reason !== null) refuse('not_allowed', answer('not_allowed', view, { programId, reason }));

  const outcome = await repo.recordCheckIn(db, {
    id: uuidv7(),
    edition_id: editionId,
    emission_id: view.id,
    user_id: view.user_id,
    program_id: programId,
    checked_in_at: scannedAt,
    scanned_by: actor.userId,
    nonce: body.nonce ?? null,
  });
  if (outcome.kind === 'nonce_taken') return (await replay())!;
  return answer(outcome.kind === 'recorded' ? 'ok' : 'already_checked_in', view, {
    row: outcome.row,
    programId,
  });
}

export async function listCheckIns(
  db: Database,
  editionId: string,
  actor: Identity,
  filter: { program_id?: string | undefined; user_id?: string | undefined },
  window: Window,
) {
  await requireEditionRole(db, editionId, actor, 'staff');
  const page = await repo.listCheckIns(
    db,
    editionId,
    { programId: filter.program_id, userId: filter.user_id },
    window,
  );
  return {
    ...page,
    items: page.items.map((row) => ({
      id: row.id,
      edition_id: row.edition_id,
      emission_id: row.emission_id,
      user_id: row.user_id,
      program_id: row.program_id,
      origin: row.origin,
      holder_name: holderNameOf(row),
      holder_email: row.holder_email,
      ticket_name: row.origin === 'participant' ? row.ticket_name : null,
      checked_in_at: row.checked_in_at.toISOString(),
      recorded_at: row.recorded_at.toISOString(),
      scanned_by: row.scanned_by,
      nonce: row.nonce,
    })),
  };
}

export async function attendance(db: Database, editionId: string, actor: Identity) {
  await requireEditionRole(db, editionId, actor, 'staff');
  const rows = await repo.attendanceOf(db, editionId);
  const [edition, ...programs] = rows;
  return {
    edition_id: editionId,
    edition: { registered: edition?.registered ?? 0, checked_in: edition?.checked_in ?? 0 },
    programs: programs.map((row) => ({
      program_id: row.program_id!,
      name: row.name!,
      kind: row.kind as 'activity' | 'checkpoint',
      max_participants: row.max_participants,
      registered: row.registered,
      checked_in: row.checked_in,
    })),
  };
}

/** Whether a registrant was checked in, as the registrations' port (`RegistrantCheckIns`), wired in the module's index.ts. */
export const registrantCheckIns: RegistrantCheckIns = { hasParticipantCheckIn: repo.hasParticipantCheckIn };
