/** The project members feature's public surface: its routes. */

export { projectMemberRoutes } from './members.routes.ts';
