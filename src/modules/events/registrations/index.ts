/**
 * The registrations feature's public surface: its routes, the hold-expiry job's registration,
 * what intent transitions do to paid registrations (wired in `src/flows/`), and the registration
 * as other features read it.
 */

export type { RegistrantCheckIns } from './refunds.service.ts';
export { onIntentTransition, registerCheckout } from './registrations.listener.ts';
export {
  findConfirmedRegistration,
  findRegistration,
  listRegistrationsOfUser,
  type OwnRegistration,
} from './registrations.repository.ts';
export { registrationRefundRoutes, registrationRoutes } from './registrations.routes.ts';
export { retryCheckout } from './registrations.service.ts';
export type { RegistrationRow, RegistrationStatus } from './registrations.table.ts';
export { registrations } from './registrations.table.ts';
export type { ParticipantBadges } from './registrations.transitions.ts';
export { salesRoutes } from './sales.routes.ts';
