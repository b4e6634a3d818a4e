/**
 * The tickets feature's public surface: its routes, the ticket type as other features read it, and
 * the seat statements the registrations' transitions run (`registrations.transitions.ts`).
 */
export {
  confirmHeldSeat,
  findTicketType,
  holdSeat,
  releaseHeldSeat,
  releaseSeat,
  takeSeat,
} from './tickets.repository.ts';
export { ticketRoutes } from './tickets.routes.ts';
export { TICKET_TYPE_EXAMPLE } from './tickets.schemas.ts';
export type { TicketTypeRow } from './tickets.table.ts';
export { ticketTypes } from './tickets.table.ts';
