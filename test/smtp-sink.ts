/**
 * A local SMTP server for tests and benchmarks (docs/mail.md): it accepts mail on loopback without
 * TLS, parses each message with mailparser and keeps it, and can be told to answer DATA with an
 * error (`setFailure(451)` for a temporary failure, `550` for a permanent one), to refuse chosen
 * mails (`reject`), to answer slowly (`setDelay`), or to require credentials (`auth`). Closing it
 * and starting another on the same port plays a mail server that was down for a while.
 */
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type { ParsedMail };

export interface SmtpSinkOptions {
  /** The port to listen on (default: a free one). */
  port?: number;
  /** Refuses a mail with this SMTP answer (after reading it), or accepts it (undefined). */
  reject?: (mail: ParsedMail) => { code: number; message: string } | undefined;
  /** Credentials the server requires (AUTH PLAIN or LOGIN); without them any client is accepted. */
  auth?: { user: string; pass: string };
  /** Milliseconds to wait before answering each message (default 0). */
  delayMs?: number;
  /** Parse each message (default true); off, only the raw size is counted (benchmarks). */
  parse?: boolean;
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`, with the credentials when `auth` is set. */
  url: string;
  port: number;
  /** Every accepted mail, in the order accepted. */
  mails: ParsedMail[];
  /** How many messages were accepted (also when not parsed). */
  accepted(): number;
  /** Resolves with the mails once at least `count` were accepted; rejects after `timeoutMs` (15 s). */
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  /** Answers every DATA with this code from now on (null: accept again). */
  setFailure(code: number | null): void;
  setDelay(ms: number): void;
  close(): Promise<void>;
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const mails: ParsedMail[] = [];
  let accepted = 0;
  let failure: number | null = null;
  let delayMs = options.delayMs ?? 0;
  const parse = options.parse ?? true;
  const refuse = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

  const server = new SMTPServer({
    secure: false,
    disabledCommands: options.auth === undefined ? ['STARTTLS', 'AUTH'] : ['STARTTLS'],
    authOptional: options.auth === undefined,
    allowInsecureAuth: true,
    logger: false,
    // Connections a client keeps open (a pooled transport) end at once when the sink closes.
    closeTimeout: 100,
    size: 32 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      if (auth.username === options.auth?.user && auth.password === options.auth?.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(refuse(535, 'Authentication failed'));
      }
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        void (async () => {
          if (delayMs > 0) await sleep(delayMs);
          if (failure !== null) {
            return callback(refuse(failure, failure >= 500 ? 'Refused for good' : 'Try again later'));
          }
          if (!parse) {
            accepted += 1;
            return callback(null);
          }
          const mail = await simpleParser(Buffer.concat(chunks));
          const refusal = options.reject?.(mail);
          if (refusal !== undefined) return callback(refuse(refusal.code, refusal.message));
          mails.push(mail);
          accepted += 1;
          callback(null);
        })().catch((error: unknown) => callback(error as Error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Errors of a client connection (a pooled client cut off by close()) are no failure of the sink.
  server.on('error', () => {});
  const port = (server.server.address() as AddressInfo).port;
  const credentials =
    options.auth === undefined
      ? ''
      : `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@`;

  return {
    url: `smtp://${credentials}127.0.0.1:${port}`,
    port,
    mails,
    accepted: () => accepted,
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (accepted < count) {
        if (Date.now() > deadline) {
          throw new Error(`the SMTP sink received ${accepted} mails, not ${count}, within ${timeoutMs} ms`);
        }
        await sleep(20);
      }
      return mails;
    },
    setFailure(code) {
      failure = code;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
