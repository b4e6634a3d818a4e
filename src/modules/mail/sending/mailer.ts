/**
 * The mail service of one app (docs/mail.md): the renderers of the kinds, registered by the modules
 * that own them, and what the sender loop (sender.ts) does with each claim of due mails: render
 * them, record the start of their attempts, hand them over, and pass each outcome on. Only queued
 * mails are claimed, so a mail already sent or failed is never taken again. Each attempt is
 * recorded before the message leaves and again when the server answered: a mail sent twice is one
 * whose process died between the server's acceptance and that second record, and its attempt
 * shows it.
 */
import type { Logger } from 'pino';
import type { Config } from '../../../kernel/config.ts';
import type { Database } from '../../../kernel/db/client.ts';
import type { DatabaseHandle } from '../../../kernel/db/types.ts';
import type { JobRunner } from '../../../kernel/jobs/runner.ts';
import { pacedNotifier } from '../../../kernel/pacer.ts';
import { asBuffer, taskModule, WorkerPool } from '../../../kernel/workers/pool.ts';
import {
  type ClaimedMail,
  DraftError,
  MAIL_CHANNEL,
  MailCannotBeWritten,
  type MailDraft,
  type MailKind,
  type MailOutcome,
  type MailRenderer,
  notifyMailSenders,
  startAttempts,
} from '../outbox/index.ts';
import type * as MailTasks from './mail.worker.ts';
import type { WrittenMail } from './mail.worker.ts';
import { CLAIM_INTERVAL_MS, MailSender } from './sender.ts';
import { type Acceptance, SendFailure } from './smtp.ts';
import { devMailboxTransport, type MailTransport, redactMailUrl, smtpTransport } from './transport.ts';

/** A kind's renderer of many mails at once. */
type ManyRenderer = NonNullable<MailRenderer['many']>;

/** Mails of a claim rendered at once. */
const RENDER_CONCURRENCY = 4;
/**
 * Mails written, or sent, per task of a mail thread: a task's round trip (copying the drafts in and
 * the messages out) costs about what writing a small mail does.
 */
const CHUNK = 10;
/**
 * Tasks waiting for a mail thread, at most: never reached, since a process has two claims of mails
 * in hand at most (sender.ts), ten tasks that write and ten that send.
 */
const TASK_QUEUE = 64;
/**
 * Tasks a mail thread runs at once: a task that sends mostly waits for the server's answers, and
 * meanwhile the thread writes the next mails or sends others.
 */
const TASKS_PER_THREAD = 8;

/** `items` in chunks of CHUNK: a task's share. */
const chunked = <T>(items: T[]): T[][] =>
  Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, n) => items.slice(n * CHUNK, (n + 1) * CHUNK));

/** The mail service one app owns. */
export interface Mailer {
  /** Sets the renderer of a kind; a later registration replaces an earlier one (tests do so). */
  registerKind(kind: MailKind, render: MailRenderer): void;
  /** Starts sending (when the app is ready). */
  start(): void;
  /** Looks for mail to send now: call after committing a transaction that queued some. */
  wake(): void;
  /** How mail leaves this process (MAIL_URL, docs/mail.md). */
  readonly mode: Config['mail']['mode'];
  /** `<id@host>`: the Message-ID of an outbox mail, on every attempt. */
  messageIdOf(id: string): string;
  /** Stops sending once the mails in hand are answered and recorded, then closes the connections. */
  close(): Promise<void>;
}

export interface MailerDeps {
  db: Database;
  config: Config;
  /** Its wake-ups wake the sender too: the modules declaring mail wake the job runner after commits. */
  jobs: JobRunner;
  log: Logger;
  /**
   * Waited for before each mail is rendered and before it is built and sent: the service's requests
   * go first (kernel/http/idle-gate.ts). None: the mail goes at once (a process that serves nothing).
   */
  idle?: () => Promise<void>;
  /**
   * Wake-ups between processes (a server's LISTEN/NOTIFY; none on the embedded database, which no
   * other process shares): a process whose sender runs listens, and one whose sender does not
   * (MAIL_SENDER=false) notifies after the commits that queued mail. Without them, mail queued by a
   * web process waits for the sending process's poll, and is sent in bursts (docs/mail.md).
   */
  listen?: DatabaseHandle['listen'];
  /**
   * The sender's own connections for its claims and records (sender.session.ts); none: `db`'s.
   * Closed with the mailer.
   */
  senderPool?: ReturnType<DatabaseHandle['dedicated']>;
}

export function createMailer({ db, config, jobs, log, idle, listen, senderPool }: MailerDeps): Mailer {
  /** Where the sender's claims and records go (rendering reads `db`, like the requests). */
  const bookkeeping = senderPool?.db ?? db;
  const renderers = new Map<MailKind, MailRenderer>();
  const { mail: settings } = config;
  const host = new URL(config.publicBaseUrl).hostname;
  const messageIdOf = (id: string) => `<${id}@${host}>`;
  // Threads start with the first mail and end with the app (kernel/workers/pool.ts).
  const threads = new WorkerPool<typeof MailTasks>({
    tasks: taskModule('./mail.worker.ts', import.meta.url),
    threads: settings.threads,
    maxQueue: TASK_QUEUE,
    tasksPerThread: TASKS_PER_THREAD,
  });
  let transport: MailTransport | undefined;
  if (settings.mode === 'smtp' && settings.url !== undefined) {
    transport = smtpTransport(settings.url, threads, settings.threads);
    log.info({ mail_url: redactMailUrl(settings.url) }, 'mail: sending through SMTP');
  } else if (settings.mode === 'dev-mailbox') {
    transport = devMailboxTransport(db);
  } else {
    log.warn('mail is off: MAIL_URL is not set, so mail is recorded in the log as failed and never sent');
  }

  /** Seconds until the next attempt after the claim `claims` failed, or null past the retry window. */
  const retryIn = (mail: ClaimedMail, claims: number): number | null => {
    const deadline = mail.createdAt.getTime() + settings.retryForSeconds * 1000;
    const now = Date.now();
    if (now >= deadline) return null;
    const schedule = settings.retryScheduleSeconds;
    const delay = schedule[Math.min(claims, schedule.length) - 1] ?? 1;
    return Math.max(0.05, Math.min(now + delay * 1000, deadline) - now) / 1000;
  };

  /** The outcome of a mail that met `error` before or during its attempt: retried unless final. */
  const unsent = (mail: ClaimedMail, claimId: string, error: string, final: boolean): MailOutcome => {
    const seconds = final ? null : retryIn(mail, mail.claims);
    return {
      id: mail.id,
      claimId,
      attempt: null,
      status: seconds === null ? 'failed' : 'queued',
      lastError: error,
      retryInSeconds: seconds,
    };
  };

  /** The outcome of a mail whose rendering failed: tried again unless it can never be written. */
  const renderingFailed = (mail: ClaimedMail, claimId: string, error: unknown): MailOutcome => {
    // A renderer reads the database (an event's overrides): worth another try within the window,
    // unless it says the mail can never be written.
    log.warn({ email_id: mail.id, err: error }, 'mail: rendering failed');
    const message = `rendering failed: ${error instanceof Error ? error.message : String(error)}`;
    return unsent(mail, claimId, message, error instanceof MailCannotBeWritten);
  };

  /**
   * A mail's draft, read by its renderer; or the outcome of a renderer that is missing or failed.
   */
  const draftMail = async (mail: ClaimedMail, claimId: string): Promise<MailDraft | MailOutcome> => {
    if (transport === undefined) return unsent(mail, claimId, 'mail is off: MAIL_URL is not set', true);
    const render = renderers.get(mail.kind);
    if (render === undefined) {
      return unsent(mail, claimId, `no renderer is registered for the mail kind ${mail.kind}`, true);
    }
    try {
      return await render(mail);
    } catch (error) {
      return renderingFailed(mail, claimId, error);
    }
  };

  /**
   * Writes drafts out in the mail threads, CHUNK per task (and builds each message when it
   * goes through SMTP): each mail answers its parts, or the outcome of its failed rendering.
   */
  const writeMails = async (
    drafted: Array<{ mail: ClaimedMail; draft: MailDraft }>,
    claimId: string,
  ): Promise<Array<WrittenMail | MailOutcome>> => {
    const inputs = drafted.map(({ mail, draft }) => ({
      draft,
      envelope: transport?.sendsRaw
        ? { from: settings.from, to: mail.to, messageId: messageIdOf(mail.id) }
        : null,
    }));
    const chunks = await Promise.all(
      chunked(inputs).map((chunk) => {
        // The thread itself failing (out of memory, the pool closing) fails the chunk's mails.
        return threads.run('writeMails', chunk).catch((error: unknown) => chunk.map(() => ({ error })));
      }),
    );
    return chunks.flat().map((result, index) => {
      const { mail } = drafted[index]!;
      if ('error' in result) return renderingFailed(mail, claimId, result.error);
      // Bytes that crossed from the thread arrive as Uint8Arrays.
      return {
        ...result,
        attachments: result.attachments.map((file) => ({ ...file, content: asBuffer(file.content) })),
      };
    });
  };

  /** The outcome of a started mail's attempt from the transport's answer. */
  const attempted = (mail: ClaimedMail, claimId: string, answer: Acceptance | SendFailure): MailOutcome => {
    const number = mail.attempts + 1;
    if (!(answer instanceof SendFailure)) {
      const attempt = { outcome: 'accepted' as const, number, ...answer };
      return { id: mail.id, claimId, attempt, status: 'sent', lastError: null, retryInSeconds: null };
    }
    const seconds = answer.outcome === 'permanent' ? null : retryIn(mail, mail.claims);
    log.warn(
      { email_id: mail.id, attempt: number, outcome: answer.outcome, smtp_code: answer.smtpCode },
      seconds === null ? 'mail: sending failed for good' : 'mail: sending failed; retrying',
    );
    return {
      id: mail.id,
      claimId,
      attempt: { outcome: answer.outcome, smtpCode: answer.smtpCode, response: answer.message, number },
      status: seconds === null ? 'failed' : 'queued',
      lastError:
        answer.outcome === 'temporary' && seconds === null
          ? `gave up after ${settings.retryForSeconds} s: ${answer.message}`
          : answer.message,
      retryInSeconds: seconds,
    };
  };

  /**
   * One claim: renders its mails, records the start of their attempts in one statement, then sends
   * them at once, CHUNK per task of the mail threads, each chunk's outcomes passed on as soon as
   * the server answered its last.
   */
  const handle = async (
    mails: ClaimedMail[],
    claimId: string,
    done: (outcome: MailOutcome | null) => void,
  ): Promise<void> => {
    const drafts: Array<MailDraft | MailOutcome> = [];
    // A kind that drafts many at once reads for all its mails of the claim in a few statements.
    const single: number[] = [];
    const byKind = new Map<ManyRenderer, number[]>();
    mails.forEach((mail, index) => {
      const many = transport === undefined ? undefined : renderers.get(mail.kind)?.many;
      if (many === undefined) {
        single.push(index);
        return;
      }
      const indexes = byKind.get(many) ?? [];
      indexes.push(index);
      byKind.set(many, indexes);
    });
    const draftKind = async (many: ManyRenderer, indexes: number[]) => {
      await idle?.();
      const answers = await many(indexes.map((index) => mails[index]!)).catch((error: unknown) =>
        indexes.map(() => new DraftError(error)),
      );
      indexes.forEach((index, n) => {
        const answer = answers[n] ?? new DraftError(new Error('the renderer answered no draft'));
        drafts[index] =
          answer instanceof DraftError ? renderingFailed(mails[index]!, claimId, answer.error) : answer;
      });
    };
    // The others a few at a time: a renderer reads the database (the registration, the event's
    // overrides), and fifty at once would hold the pool's connections from the requests meanwhile.
    let next = 0;
    const draftSome = async () => {
      for (let at = next++; at < single.length; at = next++) {
        const index = single[at]!;
        await idle?.();
        drafts[index] = await draftMail(mails[index]!, claimId);
      }
    };
    await Promise.all([
      ...[...byKind].map(([many, indexes]) => draftKind(many, indexes)),
      ...Array.from({ length: RENDER_CONCURRENCY }, draftSome),
    ]);
    const drafted: Array<{ mail: ClaimedMail; draft: MailDraft }> = [];
    mails.forEach((mail, index) => {
      const draft = drafts[index]!;
      if ('status' in draft) done(draft);
      else drafted.push({ mail, draft });
    });
    const ready: Array<{ mail: ClaimedMail; message: WrittenMail }> = [];
    (await writeMails(drafted, claimId)).forEach((result, index) => {
      if ('status' in result) done(result);
      else ready.push({ mail: drafted[index]!.mail, message: result });
    });
    if (ready.length === 0 || transport === undefined) return;
    const started = await startAttempts(
      bookkeeping,
      claimId,
      ready.map(({ mail, message }) => ({
        id: mail.id,
        number: mail.attempts + 1,
        subject: message.subject,
        messageId: messageIdOf(mail.id),
      })),
    );
    const held = ready.filter(({ mail }) => {
      // A mail no longer held by this claim (its lease ran out meanwhile) is another's to send.
      if (!started.has(mail.id)) done(null);
      return started.has(mail.id);
    });
    const send = transport;
    await Promise.all(
      chunked(held).map(async (chunk) => {
        await idle?.();
        const answers = await send.sendAll(
          chunk.map(({ mail, message }) => ({
            ...message,
            from: settings.from,
            to: mail.to,
            messageId: messageIdOf(mail.id),
            emailId: mail.id,
          })),
        );
        chunk.forEach(({ mail }, index) => {
          done(attempted(mail, claimId, answers[index]!));
        });
      }),
    );
  };

  const sender = new MailSender({
    db: bookkeeping,
    log,
    pollMs: config.jobsPollMs,
    leaseMs: config.jobsLeaseMs,
    handle,
  });
  /** Whether this process sends (`start` was called). */
  let sending = false;
  let listening: Promise<(() => Promise<void>) | undefined> | undefined;
  // At most one notification per claim interval: the senders claim no more often than that.
  const others = pacedNotifier(() => notifyMailSenders(db), CLAIM_INTERVAL_MS);
  const wake = () => {
    if (sending) sender.wake();
    else if (listen !== undefined) others.notify();
  };
  jobs.onWake(wake);

  return {
    registerKind(kind, render) {
      renderers.set(kind, render);
    },
    start() {
      // A thread loads its modules before its first task (a second from the sources): started
      // now, the first burst of mail through SMTP does not wait for it. The development
      // mailbox's tests and mail that is off need none until a mail comes.
      if (transport?.sendsRaw) {
        threads.run('ready', null).catch((error: unknown) => log.error({ err: error }, 'mail: no thread'));
      }
      sending = true;
      sender.start();
      listening = listen?.(MAIL_CHANNEL, () => sender.wake()).catch((error: unknown) => {
        log.error(
          { err: error },
          'mail: cannot listen for wake-ups; mail from other processes waits for the poll',
        );
        return undefined;
      });
    },
    wake,
    mode: settings.mode,
    messageIdOf,
    async close() {
      others.cancel();
      await (await listening)?.();
      await sender.stop();
      await threads.close();
      await senderPool?.close();
    },
  };
}
