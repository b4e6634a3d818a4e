/** The development mailbox's public surface: keeping a rendered mail (the send job), and its pages. */
export { type KeptMessage, keepMessage } from './dev-mailbox.repository.ts';
export { devMailboxRoutes } from './dev-mailbox.routes.ts';
