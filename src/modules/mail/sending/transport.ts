/**
 * How a rendered mail leaves the service (docs/mail.md): through SMTP, streamed from the mail
 * threads that wrote it (smtp.ts), or into the development mailbox. Each mail answers the server's
 * acceptance or a `SendFailure` that says whether trying again may help.
 */
import type { Database } from '../../../kernel/db/client.ts';
import type { WorkerPool } from '../../../kernel/workers/pool.ts';
import { keepMessage } from '../dev-mailbox/index.ts';
import type { MailAttachment } from '../outbox/index.ts';
import type * as MailTasks from './mail.worker.ts';
import { type Acceptance, MAX_CONNECTIONS, type RawMessage, SendFailure } from './smtp.ts';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments: MailAttachment[];
  /** The message built from the above (mail.worker.ts), when the transport `sendsRaw`. */
  raw: Uint8Array | null;
  /** `<id@host>`: the same on every attempt of one outbox mail. */
  messageId: string;
  emailId: string;
}

export interface MailTransport {
  /** Sends the message as built in a mail thread (SMTP), rather than its parts. */
  readonly sendsRaw: boolean;
  /** Sends each mail, at once; each answers its acceptance or its failure, in order. */
  sendAll(mails: OutgoingMail[]): Promise<Array<Acceptance | SendFailure>>;
}

const asFailure = (error: unknown): SendFailure =>
  // Anything but a SendFailure (a thread that died, the development mailbox's write) is worth
  // another try.
  error instanceof SendFailure
    ? error
    : new SendFailure('temporary', null, error instanceof Error ? error.message : String(error));

/** `MAIL_URL` with its password replaced, for logs. */
export function redactMailUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(an unreadable MAIL_URL)';
  }
}

/**
 * SMTP to `url` from the mail threads (`threads`, `threadCount` of them): each call is one task,
 * whose thread streams its messages through that thread's pooled transport (smtp.ts).
 */
export function smtpTransport(
  url: string,
  threads: WorkerPool<typeof MailTasks>,
  threadCount: number,
): MailTransport {
  const maxConnections = Math.max(1, Math.floor(MAX_CONNECTIONS / threadCount));
  return {
    sendsRaw: true,
    async sendAll(mails) {
      const messages: RawMessage[] = [];
      for (const { from, to, messageId, raw } of mails) {
        if (raw === null)
          return mails.map(() => new SendFailure('permanent', null, 'the message was not built'));
        messages.push({ from, to, messageId, raw });
      }
      try {
        const answers = await threads.run('sendMails', { url, maxConnections, messages });
        return answers.map((answer) =>
          'accepted' in answer ? answer.accepted : SendFailure.from(answer.failed),
        );
      } catch (error) {
        return mails.map(() => asFailure(error));
      }
    },
  };
}

/** Keeps the rendered mail in the development mailbox, where `/dev/mail` shows it. */
export function devMailboxTransport(db: Database): MailTransport {
  const keep = async (mail: OutgoingMail): Promise<Acceptance | SendFailure> => {
    try {
      await keepMessage(db, mail.emailId, mail);
      return { smtpCode: null, response: 'kept in the development mailbox (/dev/mail)' };
    } catch (error) {
      return asFailure(error);
    }
  };
  return { sendsRaw: false, sendAll: (mails) => Promise.all(mails.map(keep)) };
}
