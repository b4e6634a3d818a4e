/**
 * The mail service of one app (docs/mail.md): the renderers of the kinds, registered by the modules
 * that own them, and the `mail.send` job that renders a queued mail and hands it over. The job runs
 * under the job runner's claim; it may run more than once (a process that died mid-send), so it
 * re-reads the mail first and does nothing for one already sent or failed. Each attempt is recorded
 * before the message leaves and again when the server answered: a mail sent twice is one whose
 * process died between the server's acceptance and that second record, and its attempt shows it.
 */
import type { Logger } from 'pino';
import type { Config } from '../../../kernel/config.ts';
import type { Database } from '../../../kernel/db/client.ts';
import type { JobResult, JobRunner } from '../../../kernel/jobs/runner.ts';
import {
  findOutboxMail,
  finishAttempt,
  MailCannotBeWritten,
  type MailKind,
  type MailRenderer,
  noteUnsentError,
  type OutboxRow,
  type RenderedMail,
  SEND_JOB,
  startAttempt,
} from '../outbox/index.ts';
import {
  type Acceptance,
  devMailboxTransport,
  type MailTransport,
  redactMailUrl,
  SendFailure,
  smtpTransport,
} from './transport.ts';

/** The mail service one app owns. */
export interface Mailer {
  /** Sets the renderer of a kind; a later registration replaces an earlier one (tests do so). */
  registerKind(kind: MailKind, render: MailRenderer): void;
  /** Looks for mail to send now: call after committing a transaction that queued some. */
  wake(): void;
  /** How mail leaves this process (MAIL_URL, docs/mail.md). */
  readonly mode: Config['mail']['mode'];
  /** `<id@host>`: the Message-ID of an outbox mail, on every attempt. */
  messageIdOf(id: string): string;
  /** Closes the SMTP connections (after the job runner stopped). */
  close(): Promise<void>;
}

export interface MailerDeps {
  db: Database;
  config: Config;
  jobs: JobRunner;
  log: Logger;
}

export function createMailer({ db, config, jobs, log }: MailerDeps): Mailer {
  const renderers = new Map<MailKind, MailRenderer>();
  const { mail: settings } = config;
  const host = new URL(config.publicBaseUrl).hostname;
  const messageIdOf = (id: string) => `<${id}@${host}>`;
  let transport: MailTransport | undefined;
  if (settings.mode === 'smtp' && settings.url !== undefined) {
    transport = smtpTransport(settings.url);
    log.info({ mail_url: redactMailUrl(settings.url) }, 'mail: sending through SMTP');
  } else if (settings.mode === 'dev-mailbox') {
    transport = devMailboxTransport(db);
  } else {
    log.warn('mail is off: MAIL_URL is not set, so mail is recorded in the log as failed and never sent');
  }

  /** Seconds until the next attempt after the claim `claims` failed, or null past the retry window. */
  const retryIn = (mail: OutboxRow, claims: number): number | null => {
    const deadline = mail.createdAt.getTime() + settings.retryForSeconds * 1000;
    const now = Date.now();
    if (now >= deadline) return null;
    const schedule = settings.retryScheduleSeconds;
    const delay = schedule[Math.min(claims, schedule.length) - 1] ?? 1;
    return Math.max(0.05, Math.min(now + delay * 1000, deadline) - now) / 1000;
  };

  const send = async (id: string, claims: number): Promise<JobResult> => {
    const mail = await findOutboxMail(db, id);
    if (mail === undefined || mail.status !== 'queued') return undefined;
    if (transport === undefined) {
      await noteUnsentError(db, id, 'mail is off: MAIL_URL is not set', true);
      return undefined;
    }
    const render = renderers.get(mail.kind);
    if (render === undefined) {
      await noteUnsentError(db, id, `no renderer is registered for the mail kind ${mail.kind}`, true);
      return undefined;
    }
    let rendered: RenderedMail;
    try {
      rendered = await render(mail);
    } catch (error) {
      // A renderer reads the database (an event's overrides): worth another try within the window,
      // unless it says the mail can never be written.
      const message = `rendering failed: ${error instanceof Error ? error.message : String(error)}`;
      const seconds = error instanceof MailCannotBeWritten ? null : retryIn(mail, claims);
      log.warn({ email_id: id, err: error }, 'mail: rendering failed');
      await noteUnsentError(db, id, message, seconds === null);
      return seconds === null ? undefined : { retryInSeconds: seconds };
    }
    const number = mail.attempts + 1;
    const messageId = messageIdOf(id);
    await startAttempt(db, id, number, { subject: rendered.subject, messageId });
    let accepted: Acceptance;
    try {
      accepted = await transport.send({
        ...rendered,
        from: settings.from,
        to: mail.to,
        messageId,
        emailId: id,
      });
    } catch (error) {
      // Anything but a SendFailure (the development mailbox's write) is worth another try too.
      const failure =
        error instanceof SendFailure
          ? error
          : new SendFailure('temporary', null, error instanceof Error ? error.message : String(error));
      const seconds = failure.outcome === 'permanent' ? null : retryIn(mail, claims);
      await finishAttempt(db, id, number, {
        outcome: failure.outcome,
        smtpCode: failure.smtpCode,
        response: failure.message,
        final: seconds === null,
        lastError:
          failure.outcome === 'temporary' && seconds === null
            ? `gave up after ${settings.retryForSeconds} s: ${failure.message}`
            : failure.message,
      });
      log.warn(
        { email_id: id, attempt: number, outcome: failure.outcome, smtp_code: failure.smtpCode },
        seconds === null ? 'mail: sending failed for good' : 'mail: sending failed; retrying',
      );
      return seconds === null ? undefined : { retryInSeconds: seconds };
    }
    // Outside the try: a failure to record the acceptance must not be taken for a failed send. The
    // job then runs again, and this attempt stays without an outcome (the one case of a duplicate).
    await finishAttempt(db, id, number, { outcome: 'accepted', ...accepted, final: true });
    return undefined;
  };

  jobs.registerJobKind(SEND_JOB, (job) => send(job.key, job.attempts));

  return {
    registerKind(kind, render) {
      renderers.set(kind, render);
    },
    wake: () => jobs.wake(),
    mode: settings.mode,
    messageIdOf,
    async close() {
      transport?.close();
    },
  };
}
