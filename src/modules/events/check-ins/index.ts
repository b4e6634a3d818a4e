/**
 * The check-ins feature's public surface: its routes, whether a registrant was checked in (the
 * registrations' port, wired in the module's index.ts), and its table for the joins of participants.
 */
export { checkInRoutes } from './check-ins.routes.ts';
export { registrantCheckIns } from './check-ins.service.ts';
export { checkIns } from './check-ins.table.ts';
