/**
 * The outbox's public surface (docs/mail.md): the mail shapes, queueing, the sender's claim and
 * the records of its attempts, the mail log's reads, and the table, lent read-only to the
 * development mailbox's list.
 */
export type {
  DraftAttachment,
  EventMailKind,
  MailAttachment,
  MailDraft,
  MailKind,
  MailLanguage,
  MailLogEntry,
  MailRenderer,
  MailStatus,
  NewMail,
  OutboxMail,
  RenderedMail,
} from './mail.types.ts';
export { DraftError, MailCannotBeWritten } from './mail.types.ts';
export {
  type AttemptOutcome,
  type ClaimedMail,
  claimDueMails,
  findLogEntry,
  finishMails,
  insertMailsFrom,
  listEventMails,
  MAIL_CHANNEL,
  type MailLogFilter,
  type MailOutcome,
  notifyMailSenders,
  queueCopy,
  queueMail,
  queueMails,
  secondsToNextMail,
  startAttempts,
} from './outbox.repository.ts';
export { EVENT_MAIL_KINDS, emails, MAIL_KINDS, MAIL_STATUSES } from './outbox.table.ts';
