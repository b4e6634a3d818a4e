/**
 * The events feature's public surface: its routes, the event's guards (which every other guard builds
 * on), the event lock, the event's members' SQL (their routes are members/), and its tables for the
 * joins of the features above.
 */
export { eventMembersRepository, listMemberIds } from './event-members.repository.ts';
export { type EventAccess, isEventRole, requireEventRole, requireReadableEvent } from './events.access.ts';
export { type EventLock, findEventWithRole, lockEvent } from './events.repository.ts';
export { eventRoutes } from './events.routes.ts';
export { EVENT_EXAMPLE, EventRole as EventRoleSchema } from './events.schemas.ts';
export { EVENT_ROLES, type EventRole, type EventRow, eventMembers, events } from './events.table.ts';
