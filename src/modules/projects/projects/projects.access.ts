/**
 * Role guard of the projects module. A project is private: to someone who is not a member it is
 * unknown (404), so outsiders cannot probe for project ids; a member without the role gets 403.
 * Roles rank owner > admin > member. Authorization comes before any state check.
 */

import type { Identity } from '../../../kernel/auth/identity.ts';
import { requireRole } from '../../../kernel/auth/roles.ts';
import type { Executor } from '../../../kernel/db/client.ts';
import { notFound } from '../../../kernel/http/errors.ts';
import { findProjectWithRole } from './projects.repository.ts';
import { PROJECT_ROLES, type ProjectRole, type ProjectRow } from './projects.table.ts';

export async function requireProjectRole(
  db: Executor,
  projectId: string,
  actor: Identity,
  minimum: ProjectRole,
): Promise<{ project: ProjectRow; role: ProjectRole }> {
  const found = await findProjectWithRole(db, projectId, actor.userId);
  if (found === undefined || found.role === undefined) throw notFound('Project');
  return { project: found.project, role: requireRole(PROJECT_ROLES, found.role, minimum) };
}
