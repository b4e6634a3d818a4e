/**
 * SMTP through nodemailer, in the mail threads (mail.worker.ts `sendMails`): the messages written
 * there are streamed to the server there too. On the event loop, streaming a message (nodemailer's
 * streams, the socket writes) cost more CPU than everything else the service did for the mail, and
 * the requests arriving meanwhile waited for it (docs/mail.md, "Figures").
 *
 * Each thread keeps one pooled transport per MAIL_URL, MAX_CONNECTIONS shared out between the
 * threads, for as long as it lives: it ends with the thread (kernel/workers/pool.ts, after a minute
 * without work, or with the process), and an idle connection ends after SOCKET_TIMEOUT_MS.
 *
 * What crosses back to the event loop is plain data: the server's acceptance, or a failure that
 * says whether trying again may help (SMTP 4xx answers, connection errors and timeouts are
 * temporary; 5xx answers and a message the transport refuses are permanent).
 */
import nodemailer, { type Transporter } from 'nodemailer';
import { asBuffer } from '../../../kernel/workers/pool.ts';

export interface Acceptance {
  smtpCode: number | null;
  response: string;
}

/** A send that failed, as plain data (what crosses from a thread). */
export interface FailureFacts {
  outcome: 'temporary' | 'permanent';
  smtpCode: number | null;
  message: string;
}

export class SendFailure extends Error implements FailureFacts {
  constructor(
    readonly outcome: 'temporary' | 'permanent',
    readonly smtpCode: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'SendFailure';
  }

  static from({ outcome, smtpCode, message }: FailureFacts): SendFailure {
    return new SendFailure(outcome, smtpCode, message);
  }
}

/** A message built in a thread, and where it goes. */
export interface RawMessage {
  from: string;
  to: string;
  /** `<id@host>`: the same on every attempt of one outbox mail. */
  messageId: string;
  raw: Uint8Array;
}

export interface SendMailsInput {
  /** MAIL_URL. */
  url: string;
  /** This thread's share of the connections to the server. */
  maxConnections: number;
  messages: RawMessage[];
}

export type SendAnswer = { accepted: Acceptance } | { failed: FailureFacts };

/**
 * Connections to the server, at most, from one process (shared out between its mail threads); the
 * mails of a claim wait their turn for one.
 */
export const MAX_CONNECTIONS = 10;

/**
 * Timeouts that end an attempt well inside the sender's lease (60 s by default, JOBS_LEASE_MS): a
 * process still waiting on a server when its claim ran out would let another process send the same
 * mail meanwhile.
 */
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 20_000;

/** Errors nodemailer raises before a server had its say that no retry can mend. */
const PERMANENT_CODES = new Set(['EENVELOPE', 'EMESSAGE']);

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

/** This thread's transports, by MAIL_URL and share of connections. */
const transporters = new Map<string, Transporter>();

function transporterFor(url: string, maxConnections: number): Transporter {
  const key = `${maxConnections} ${url}`;
  let transporter = transporters.get(key);
  if (transporter === undefined) {
    transporter = nodemailer.createTransport({
      url,
      pool: true,
      maxConnections,
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      greetingTimeout: GREETING_TIMEOUT_MS,
      socketTimeout: SOCKET_TIMEOUT_MS,
    });
    transporters.set(key, transporter);
  }
  return transporter;
}

async function sendOne(transporter: Transporter, message: RawMessage): Promise<SendAnswer> {
  try {
    // Built in a mail thread, headers and all: nodemailer only streams it to the server.
    const info = await transporter.sendMail({
      envelope: { from: message.from, to: [message.to] },
      messageId: message.messageId,
      // Bytes that crossed into this thread arrive as a Uint8Array.
      raw: asBuffer(message.raw),
    });
    const response = String(info.response ?? '');
    const code = Number(/^(\d{3})/.exec(response)?.[1]);
    return { accepted: { smtpCode: Number.isFinite(code) ? code : null, response } };
  } catch (error) {
    const { outcome, smtpCode, message: text } = classifySendError(error);
    return { failed: { outcome, smtpCode, message: text } };
  }
}

/** Sends each message through this thread's transport to `url`; each answers its own outcome. */
export function sendMails({ url, maxConnections, messages }: SendMailsInput): Promise<SendAnswer[]> {
  const transporter = transporterFor(url, maxConnections);
  return Promise.all(messages.map((message) => sendOne(transporter, message)));
}
