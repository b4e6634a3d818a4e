/**
 * The shapes of mail that the modules declaring it and the renderers of its kinds share
 * (docs/mail.md): what is queued (`NewMail`), what a renderer reads (`OutboxMail`) and answers
 * (`RenderedMail`).
 */
import type { CalendarEntry } from '../../../kernel/mail-templates/attachments.ts';
import type { TemplateDraft } from '../../../kernel/mail-templates/liquid.ts';
import type { Language } from '../../../kernel/pages/language.ts';
import type { EVENT_MAIL_KINDS, MAIL_KINDS, MAIL_STATUSES } from './outbox.table.ts';

export type MailKind = (typeof MAIL_KINDS)[number];
/** A kind an event sends (and may override). */
export type EventMailKind = (typeof EVENT_MAIL_KINDS)[number];
export type MailStatus = (typeof MAIL_STATUSES)[number];
/** The recipient's language: the pages' languages. */
export type MailLanguage = Language;

export interface NewMail {
  kind: MailKind;
  /** The recipient's address. */
  to: string;
  language: MailLanguage;
  /** The event whose mail log lists it (and whose overrides apply); null for none. */
  eventId: string | null;
  /** The kind's JSON payload, rendered at send time by the kind's renderer. */
  data: Record<string, unknown>;
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  /** Set for an inline image: the HTML part shows it as `cid:<cid>`. */
  cid?: string;
}

/**
 * An attachment as a renderer names it: its bytes, or what the mail thread draws them from (a QR
 * code of `qrCode`, an iCalendar file of `calendar`: kernel/mail-templates/attachments.ts).
 */
export type DraftAttachment =
  | MailAttachment
  | (Omit<MailAttachment, 'content'> & { qrCode: string })
  | (Omit<MailAttachment, 'content'> & { calendar: CalendarEntry });

/**
 * What a renderer answers: the facts of the mail read from the database, as its template (with the
 * values to fill it) and its attachments. Rendering them, and writing the message, costs a few
 * milliseconds of CPU per mail, done in a worker thread (sending/mail.worker.ts) and never on the
 * event loop that serves requests.
 */
export interface MailDraft extends TemplateDraft {
  attachments: DraftAttachment[];
}

/** A mail written out: its parts, as the development mailbox keeps them and SMTP sends them. */
export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  attachments: MailAttachment[];
}

/** A mail of the outbox as its renderer receives it. */
export interface OutboxMail {
  id: string;
  kind: MailKind;
  to: string;
  language: MailLanguage;
  eventId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

/**
 * What a mail of a kind says, read when it is sent. `many`, when a kind has it, drafts the mails of
 * one claim together (their reads gathered into a few statements, where the single form reads per
 * mail): it answers each mail's draft, or the error that kept that mail from being drafted, in the
 * order given.
 */
export type MailRenderer = ((mail: OutboxMail) => Promise<MailDraft>) & {
  many?: (mails: OutboxMail[]) => Promise<Array<MailDraft | DraftError>>;
};

/** A mail of a batch that `MailRenderer.many` could not draft, with why. */
export class DraftError {
  constructor(readonly error: unknown) {}
}

/**
 * Thrown by a renderer for a mail that can never be written (what it is about was deleted since it
 * was queued): the mail fails at once, where any other rendering error is tried again.
 */
export class MailCannotBeWritten extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailCannotBeWritten';
  }
}

/** One line of an event's mail log. */
export interface MailLogEntry {
  id: string;
  kind: EventMailKind;
  to: string;
  subject: string | null;
  status: MailStatus;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
  resent_from: string | null;
}
