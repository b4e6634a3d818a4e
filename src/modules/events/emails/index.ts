/** The mail log feature's public surface: its routes (the outbox itself is the mail module's). */
export { emailRoutes } from './emails.routes.ts';
