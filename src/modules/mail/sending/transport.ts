/**
 * How a rendered mail leaves the service (docs/mail.md): through SMTP with one pooled nodemailer
 * transport per process, or into the development mailbox. Each send answers the server's
 * acceptance or throws a `SendFailure` that says whether trying again may help: SMTP 4xx answers,
 * connection errors and timeouts are temporary; 5xx answers and a message the transport refuses
 * to build are permanent.
 */
import nodemailer from 'nodemailer';
import type { Database } from '../../../kernel/db/client.ts';
import { keepMessage } from '../dev-mailbox/index.ts';
import type { MailAttachment } from '../outbox/index.ts';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments: MailAttachment[];
  /** The message built from the above (mail.worker.ts), when the transport `sendsRaw`. */
  raw: Buffer | null;
  /** `<id@host>`: the same on every attempt of one outbox mail. */
  messageId: string;
  emailId: string;
}

export interface Acceptance {
  smtpCode: number | null;
  response: string;
}

export class SendFailure extends Error {
  constructor(
    readonly outcome: 'temporary' | 'permanent',
    readonly smtpCode: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'SendFailure';
  }
}

export interface MailTransport {
  /** Sends the message as built in a mail thread (SMTP), rather than its parts. */
  readonly sendsRaw: boolean;
  send(mail: OutgoingMail): Promise<Acceptance>;
  close(): void;
}

/**
 * Timeouts that end an attempt well inside the sender's lease (60 s by default, JOBS_LEASE_MS): a
 * process still waiting on a server when its claim ran out would let another process send the same
 * mail meanwhile.
 */
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 20_000;
/** Connections the pool keeps open to the server; the mails of a claim wait their turn for one. */
const MAX_CONNECTIONS = 10;

/** Errors nodemailer raises before a server had its say that no retry can mend. */
const PERMANENT_CODES = new Set(['EENVELOPE', 'EMESSAGE']);

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

export function classifySendError(error: unknown): SendFailure {
  const { responseCode, code, message, response } = error as {
    responseCode?: number;
    code?: string;
    message?: string;
    response?: string;
  };
  const text = (response ?? message ?? String(error)).trim();
  if (typeof responseCode === 'number' && responseCode >= 400 && responseCode < 600) {
    return new SendFailure(responseCode >= 500 ? 'permanent' : 'temporary', responseCode, text);
  }
  const permanent = code !== undefined && PERMANENT_CODES.has(code);
  return new SendFailure(permanent ? 'permanent' : 'temporary', null, code ? `${code}: ${text}` : text);
}

export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: MAX_CONNECTIONS,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: GREETING_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
  });
  return {
    sendsRaw: true,
    async send(mail) {
      if (mail.raw === null) throw new SendFailure('permanent', null, 'the message was not built');
      try {
        // Built in a mail thread, headers and all: nodemailer only streams it to the server.
        const info = await transporter.sendMail({
          envelope: { from: mail.from, to: [mail.to] },
          messageId: mail.messageId,
          raw: mail.raw,
        });
        const response = String(info.response ?? '');
        const code = Number(/^(\d{3})/.exec(response)?.[1]);
        return { smtpCode: Number.isFinite(code) ? code : null, response };
      } catch (error) {
        throw classifySendError(error);
      }
    },
    close: () => transporter.close(),
  };
}

/** Keeps the rendered mail in the development mailbox, where `/dev/mail` shows it. */
export function devMailboxTransport(db: Database): MailTransport {
  return {
    sendsRaw: false,
    async send(mail) {
      await keepMessage(db, mail.emailId, mail);
      return { smtpCode: null, response: 'kept in the development mailbox (/dev/mail)' };
    },
    close: () => {},
  };
}
