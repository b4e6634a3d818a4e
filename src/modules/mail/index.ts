/**
 * The mail module's public surface (docs/mail.md): the mail service (`createMailer`, one per app,
 * where the modules owning the kinds register their renderers), `queueMail` for the places that
 * declare mail, the reads and the resend of the mail log (routed by the events module, which checks
 * the event's roles), and the plugin of the development mailbox's pages. The module imports no
 * other module's index: the events module sits above it.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleDeps } from '../../kernel/module.ts';
import { devMailboxRoutes } from './dev-mailbox/index.ts';

export {
  type DraftAttachment,
  DraftError,
  EVENT_MAIL_KINDS,
  type EventMailKind,
  findLogEntry,
  insertMailsFrom,
  listEventMails,
  MAIL_KINDS,
  MAIL_STATUSES,
  type MailAttachment,
  MailCannotBeWritten,
  type MailDraft,
  type MailKind,
  type MailLanguage,
  type MailLogEntry,
  type MailLogFilter,
  type MailRenderer,
  type MailStatus,
  type NewMail,
  type OutboxMail,
  queueCopy,
  queueMail,
  queueMails,
  type RenderedMail,
} from './outbox/index.ts';
export { createMailer, type Mailer, openSenderPool, redactMailUrl } from './sending/index.ts';

/** The mail module's routes: the development mailbox (`/dev/mail`). */
export const mailModule: FastifyPluginAsync<ModuleDeps> = async (app, deps) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, module: 'system' };
  });
  await app.register(devMailboxRoutes, deps);
};
