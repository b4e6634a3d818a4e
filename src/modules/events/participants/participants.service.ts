/**
 * Program sign-ups (docs/reference/attendance.md). A person signs themselves up to a program of an edition
 * they can see: a staff-only program needs staff and up of the event (to anyone else it does not exist, 404,
 * as in programs.service.ts); any other program needs a confirmed registration whose ticket `access_level`
 * reaches the program's `min_access_level` (403 otherwise). `max_participants` is checked under the program's
 * row lock (participants.repository.ts): never exceeded.
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { asNotFound } from '../../../kernel/http/as-not-found.ts';
import { conflict, forbidden, notFound } from '../../../kernel/http/errors.ts';
import { requireEditionRole } from '../editions/index.ts';
import { findProgram, type ProgramSignUps, requireReadableProgram } from '../programs/index.ts';
import { findConfirmedRegistration } from '../registrations/index.ts';
import * as repo from './participants.repository.ts';
import type { ProgramParticipantRow } from './participants.table.ts';

function participantOf(row: ProgramParticipantRow) {
  return {
    program_id: row.program_id,
    user_id: row.user_id,
    registration_id: row.registration_id,
    status: row.status,
    signed_up_at: row.signed_up_at.toISOString(),
    cancelled_at: row.cancelled_at?.toISOString() ?? null,
  };
}

export async function signUp(db: Database, programId: string, actor: Identity) {
  const program = await requireReadableProgram(db, programId, actor);
  let registrationId: string | null = null;
  if (!program.staff_only) {
    const registration = await findConfirmedRegistration(db, program.edition_id, actor.userId);
    if (registration === undefined) {
      throw forbidden('Signing up to a program needs a confirmed registration to its edition');
    }
    if (registration.access_level < program.min_access_level) {
      throw forbidden(
        `Your ticket's access level (${registration.access_level}) is below this program's minimum (${program.min_access_level})`,
      );
    }
    registrationId = registration.id;
  }
  const row = await db.transaction(async (tx) => {
    const active = await repo.countActiveParticipants(tx, programId, { lock: true });
    // Re-read under the lock: the program may have been deleted or its capacity changed meanwhile.
    const locked = await findProgram(tx, programId);
    if (locked === undefined) throw notFound('Program');
    if ((await repo.findParticipant(tx, programId, actor.userId))?.status === 'active') {
      throw conflict('already_signed_up', 'You are already signed up to this program');
    }
    if (locked.max_participants !== null && active >= locked.max_participants) {
      throw conflict('program_full', 'This program is full', { max_participants: locked.max_participants });
    }
    return repo.activateParticipant(tx, {
      program_id: programId,
      user_id: actor.userId,
      registration_id: registrationId,
    });
  });
  return participantOf(row);
}

export async function cancelSignUp(db: Database, programId: string, actor: Identity) {
  await requireReadableProgram(db, programId, actor);
  const row = await repo.cancelParticipant(db, programId, actor.userId);
  if (row === undefined) throw notFound('Sign-up');
  return participantOf(row);
}

export async function listParticipants(db: Database, programId: string, actor: Identity, window: Window) {
  const program = await findProgram(db, programId);
  if (program === undefined) throw notFound('Program');
  await requireEditionRole(db, program.edition_id, actor, 'staff').catch(asNotFound('Program'));
  const page = await repo.listParticipants(db, programId, window);
  return {
    ...page,
    items: page.items.map((row) => ({
      program_id: row.program_id,
      user_id: row.user_id,
      holder_name: row.holder_name ?? row.holder_email,
      holder_email: row.holder_email,
      signed_up_at: row.signed_up_at.toISOString(),
      checked_in: row.checked_in_at !== null,
      checked_in_at: row.checked_in_at?.toISOString() ?? null,
    })),
  };
}

/** A program's active sign-ups, as the programs' port (`ProgramSignUps`), wired in the module's index.ts. */
export const programSignUps: ProgramSignUps = { countActive: repo.countActiveParticipants };
