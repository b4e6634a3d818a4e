/**
 * Project members (docs/reference/projects.md), through the kernel's membership. Projects need no lock: an
 * add or a removal is one statement and nothing else locks the project row.
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { membership } from '../../../kernel/membership/membership.service.ts';
import { type ProjectRole, projectMembersRepository, requireProjectRole } from '../projects/index.ts';
import type { AddProjectMemberBody } from './members.schemas.ts';

const members = membership<ProjectRole>({
  repository: projectMembersRepository,
  requireRole: requireProjectRole,
  listRole: 'member',
  noun: 'project',
});

export const listMembers = (db: Database, projectId: string, actor: Identity, window: Window) =>
  members.list(db, projectId, actor, window);

export const addMember = (db: Database, projectId: string, actor: Identity, body: AddProjectMemberBody) =>
  members.add(db, projectId, actor, body.actor_email, body.role);

/** Removes the member named by `email`; answers `{}` (docs/reference/projects.md). */
export async function removeMember(db: Database, projectId: string, actor: Identity, email: string) {
  await members.remove(db, projectId, actor, email);
  return {};
}
