/**
 * The project_members table, through the kernel's membership SQL. It lives beside the projects
 * table it belongs to: a project is created together with its owner membership.
 */
import { membershipRepository } from '../../../kernel/membership/membership.repository.ts';
import { type ProjectRole, projectMembers } from './projects.table.ts';

export const projectMembersRepository = membershipRepository<ProjectRole>({
  table: projectMembers,
  parentId: projectMembers.project_id,
  userId: projectMembers.user_id,
  role: projectMembers.role,
  createdAt: projectMembers.created_at,
});
