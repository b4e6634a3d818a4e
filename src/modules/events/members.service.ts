/** Event members, added and removed by e-mail. The owner is a member that cannot be removed. */
import { findActorByEmail } from '../../kernel/auth/actors.repository.ts';
import type { Identity } from '../../kernel/auth/verifier.ts';
import type { Database } from '../../kernel/db/client.ts';
import { describeConstraint } from '../../kernel/db/errors.ts';
import type { Window } from '../../kernel/db/paging.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../kernel/http/errors.ts';
import { serialize } from '../../kernel/http/respond.ts';
import { requireEventRole } from './access.ts';
import { emitStaffBadgesOnMemberAdded, revokeStaffBadgesOnMemberRemoved } from './badges.emission.ts';
import * as repo from './events.repository.ts';

describeConstraint('event_members_pk', {
  field: 'email',
  message: 'this person is already a member of the event',
});

export async function listMembers(db: Database, eventId: string, actor: Identity, window: Window) {
  await requireEventRole(db, eventId, actor, 'staff');
  const page = await repo.listMembers(db, eventId, window);
  return { ...page, items: page.items.map(serialize) };
}

export async function addMember(
  db: Database,
  eventId: string,
  actor: Identity,
  body: { email: string; role: 'admin' | 'staff' },
) {
  const { role: callerRole } = await requireEventRole(db, eventId, actor, 'admin');
  if (body.role === 'admin' && callerRole !== 'owner') throw forbidden('Only the owner may add an admin');
  const person = await findActorByEmail(db, body.email);
  if (person === undefined)
    throw new AppError('NOT_FOUND', 'No actor has this e-mail; they must call the API once first');
  const existing = await repo.findMember(db, eventId, person.user_id);
  if (existing !== undefined)
    throw conflict('This person is already a member of the event', { role: existing.role });
  // The event lock comes first, before the insert whose foreign key check locks the event row too
  // (see lockEvent). The primary key still guards a concurrent add of the same person (mapped to
  // 409). The new member's staff badges of current published editions are emitted in the same
  // transaction.
  await db.transaction(async (tx) => {
    const lock = await repo.lockEvent(tx, eventId);
    await repo.insertMember(tx, { event_id: eventId, user_id: person.user_id, role: body.role });
    await emitStaffBadgesOnMemberAdded(tx, lock, person.user_id);
  });
  const member = await repo.findMember(db, eventId, person.user_id);
  return serialize(member!);
}

/**
 * Removes the member named by `email`. As in the interface document, the path `user_id` does not
 * select the member; it is only cross-checked: naming a *different* member there is a 400, any
 * other UUID is ignored.
 */
export async function removeMember(
  db: Database,
  eventId: string,
  pathUserId: string,
  actor: Identity,
  email: string,
) {
  const { role: callerRole } = await requireEventRole(db, eventId, actor, 'admin');
  const member = await repo.findMemberByEmail(db, eventId, email);
  if (member === undefined) throw notFound('Member');
  if (pathUserId.toLowerCase() !== member.user_id) {
    const pathMember = await repo.findMember(db, eventId, pathUserId);
    if (pathMember !== undefined) {
      throw badRequest('The path user_id names a different member than the e-mail', [
        { field: 'params.user_id', message: 'names a different member than email' },
      ]);
    }
  }
  if (member.role === 'owner') throw conflict('The owner of an event cannot be removed');
  if (member.role === 'admin' && callerRole !== 'owner')
    throw forbidden('Only the owner may remove an admin');
  // With the membership go the member's staff badges of current editions (`member_removed`), under
  // the event lock, taken first as by every member and edition write.
  await db.transaction(async (tx) => {
    const lock = await repo.lockEvent(tx, eventId);
    await repo.deleteMember(tx, eventId, member.user_id);
    await revokeStaffBadgesOnMemberRemoved(tx, lock, member.user_id);
  });
  return serialize(member);
}
