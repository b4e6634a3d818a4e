/** The development mailbox's public surface: keeping a rendered mail (for the sender), and its pages. */
export { type KeptMessage, keepMessage } from './dev-mailbox.repository.ts';
export { devMailboxRoutes } from './dev-mailbox.routes.ts';
