/**
 * The task the mail module runs in worker threads (kernel/workers/pool.ts): writing a mail from
 * the draft its renderer answered. Rendering the Liquid template, deriving the text part, drawing
 * the QR code and the calendar file, and building the MIME message together cost several
 * milliseconds of CPU per mail; on the event loop, a burst of confirmations held every request
 * arriving meanwhile (docs/mail.md, "Figures"). And sending what was written through SMTP
 * (`sendMails`, smtp.ts), for the same reason. Plain data in and out.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { calendarFile, qrCodePng } from '../../../kernel/mail-templates/attachments.ts';
import { renderDraft } from '../../../kernel/mail-templates/liquid.ts';
import { asBuffer } from '../../../kernel/workers/pool.ts';
import type { DraftAttachment, MailAttachment, MailDraft, RenderedMail } from '../outbox/mail.types.ts';

/**
 * The nice value of a mail thread. Mail can wait a few milliseconds; a request cannot: on a busy
 * machine, the kernel runs the service's main thread and the database before this thread, and this
 * thread takes the CPU they leave (docs/mail.md, "Figures").
 */
const MAIL_THREAD_NICE = 10;

/**
 * Lowers this thread's priority, not the process's: on Linux, setpriority(2) with a thread's id
 * applies to that thread alone, and /proc/thread-self names it. Elsewhere, nothing changes.
 */
function lowerThisThreadsPriority(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId) && threadId !== process.pid) setPriority(threadId, MAIL_THREAD_NICE);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}
lowerThisThreadsPriority();

/** Who the message is from and to, and its Message-ID: given when the message is to be built. */
export interface Envelope {
  from: string;
  to: string;
  messageId: string;
}

export interface WriteMailInput {
  draft: MailDraft;
  /** Null: the parts only (the development mailbox keeps them as they are). */
  envelope: Envelope | null;
}

export interface WrittenMail extends RenderedMail {
  /** The whole message as SMTP sends it (RFC 5322), when an envelope was given. */
  raw: Uint8Array | null;
}

function attachmentOf(draft: DraftAttachment): MailAttachment {
  const { filename, contentType, cid } = draft;
  const named = { filename, contentType, ...(cid === undefined ? {} : { cid }) };
  if ('qrCode' in draft) return { ...named, content: qrCodePng(draft.qrCode) };
  if ('calendar' in draft) return { ...named, content: calendarFile(draft.calendar) };
  // Bytes that crossed into this thread arrive as a Uint8Array.
  return { ...named, content: asBuffer(draft.content) };
}

function build(composer: MailComposer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    composer.compile().build((error, message) => (error ? reject(error) : resolve(message)));
  });
}

export async function writeMail({ draft, envelope }: WriteMailInput): Promise<WrittenMail> {
  const { subject, html, text } = await renderDraft(draft);
  const attachments = draft.attachments.map(attachmentOf);
  if (envelope === null) return { subject, html, text, attachments, raw: null };
  const raw = await build(
    new MailComposer({
      ...envelope,
      subject,
      html,
      text,
      attachments: attachments.map(({ filename, contentType, content, cid }) => ({
        filename,
        contentType,
        content,
        ...(cid === undefined ? {} : { cid }),
      })),
    }),
  );
  return { subject, html, text, attachments, raw };
}

/**
 * Writes several mails (a task per mail would cost its round trip each): each answers its parts,
 * or the error that stopped it, so that one template failing does not fail the others.
 */
export function writeMails(inputs: WriteMailInput[]): Promise<Array<WrittenMail | { error: unknown }>> {
  return Promise.all(inputs.map((input) => writeMail(input).catch((error: unknown) => ({ error }))));
}

export { sendMails } from './smtp.ts';

/** Nothing: run once to load a thread before the first mail needs it (mailer.ts, `start`). */
export function ready(_: null): true {
  return true;
}
