/**
 * The projects feature's public surface: its routes, the role guard every project-scoped feature
 * calls first, the project members' repository (the members feature adds and removes through it),
 * and the project as other features read it.
 */

export { projectMembersRepository } from './project-members.repository.ts';
export { requireProjectRole } from './projects.access.ts';
export { findProjectName } from './projects.repository.ts';
export { projectRoutes } from './projects.routes.ts';
export { ProjectRole as ProjectRoleSchema } from './projects.schemas.ts';
export type { ProjectRole, ProjectRow } from './projects.table.ts';
