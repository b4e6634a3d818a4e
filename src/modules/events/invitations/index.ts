/** The invitations feature's public surface: its routes, acceptance when an actor is recorded, and the mail's lookup. */

export { invitationRoutes } from './invitations.routes.ts';
export { acceptInvitations, findInvitationForMail } from './invitations.service.ts';
