/** The members feature's public surface: its routes, and the port a membership change asks of badges. */
export { memberRoutes } from './members.routes.ts';
export type { MemberStaffBadges } from './members.service.ts';
