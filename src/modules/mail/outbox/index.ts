/**
 * The outbox's public surface (docs/mail.md): the mail shapes, queueing, the records of attempts
 * that the send job keeps, the mail log's reads, and the table, lent read-only to the development
 * mailbox's list.
 */
export type {
  MailAttachment,
  MailKind,
  MailLanguage,
  MailLogEntry,
  MailRenderer,
  MailStatus,
  NewMail,
  OutboxMail,
  RenderedMail,
} from './mail.types.ts';
export { MailCannotBeWritten } from './mail.types.ts';
export {
  type AttemptOutcome,
  findLogEntry,
  findOutboxMail,
  finishAttempt,
  listEventMails,
  type MailLogFilter,
  noteUnsentError,
  type OutboxRow,
  queueCopy,
  queueMail,
  SEND_JOB,
  startAttempt,
} from './outbox.repository.ts';
export { emails, MAIL_KINDS, MAIL_STATUSES } from './outbox.table.ts';
