/**
 * Project members, added and removed by the e-mail of an existing actor. The owner is a member
 * that cannot be removed; only the owner adds or removes an admin.
 */
import { findActorByEmail } from '../../kernel/auth/actors.repository.ts';
import type { Identity } from '../../kernel/auth/verifier.ts';
import type { Database } from '../../kernel/db/client.ts';
import { describeConstraint } from '../../kernel/db/errors.ts';
import type { Window } from '../../kernel/db/paging.ts';
import { AppError, conflict, forbidden, notFound } from '../../kernel/http/errors.ts';
import { serialize } from '../../kernel/http/respond.ts';
import { requireProjectRole } from './access.ts';
import * as repo from './projects.repository.ts';
import type { AddProjectMemberBody } from './projects.schemas.ts';

describeConstraint('project_members_pk', {
  field: 'actor_email',
  message: 'this person is already a member of the project',
});

export async function listMembers(db: Database, projectId: string, actor: Identity, window: Window) {
  await requireProjectRole(db, projectId, actor, 'member');
  const page = await repo.listMembers(db, projectId, window);
  return { ...page, items: page.items.map(serialize) };
}

export async function addMember(
  db: Database,
  projectId: string,
  actor: Identity,
  body: AddProjectMemberBody,
) {
  // 1. Authorization, before anything about the person is looked up.
  const { role: callerRole } = await requireProjectRole(db, projectId, actor, 'admin');
  if (body.role === 'admin' && callerRole !== 'owner') throw forbidden('Only the owner may add an admin');
  // 2. The person must be in the actor directory.
  const person = await findActorByEmail(db, body.actor_email);
  if (person === undefined)
    throw new AppError('NOT_FOUND', 'No actor has this e-mail; they must call the API once first');
  // 3. Not a member yet. The primary key still guards a concurrent add (mapped to 409).
  const existing = await repo.findMember(db, projectId, person.user_id);
  if (existing !== undefined)
    throw conflict('This person is already a member of the project', { role: existing.role });
  await repo.insertMember(db, { project_id: projectId, user_id: person.user_id, role: body.role });
  const member = await repo.findMember(db, projectId, person.user_id);
  return serialize(member!);
}

/**
 * Removes the member named by `email`. Same order as the events module: the caller's role, then
 * the member (404), then the owner who stays (409), then an admin only the owner removes (403).
 */
export async function removeMember(db: Database, projectId: string, actor: Identity, email: string) {
  const { role: callerRole } = await requireProjectRole(db, projectId, actor, 'admin');
  const member = await repo.findMemberByEmail(db, projectId, email);
  if (member === undefined) throw notFound('Member');
  if (member.role === 'owner') throw conflict('The owner of a project cannot be removed');
  if (member.role === 'admin' && callerRole !== 'owner')
    throw forbidden('Only the owner may remove an admin');
  await repo.deleteMember(db, projectId, member.user_id);
  return {};
}
