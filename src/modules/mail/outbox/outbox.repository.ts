/**
 * SQL of the outbox (docs/mail.md): queueing a mail with its send job, the records of each
 * attempt, and the reads of the mail log. Writes that follow an attempt are unfenced: the job's
 * claim keeps one process on a mail, and the sending timeouts end an attempt well inside the lease.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import type { Page } from '../../../kernel/http/respond.ts';
import { scheduleJob } from '../../../kernel/jobs/jobs.repository.ts';
import type { MailKind, MailLanguage, MailLogEntry, MailStatus, NewMail, OutboxMail } from './mail.types.ts';
import { type EmailRow, emails } from './outbox.table.ts';

/** The background job kind that sends one mail; its key is the mail's id. */
export const SEND_JOB = 'mail.send';

/** Inserts the outbox row and schedules its send job, in the caller's transaction. */
export async function queueMail(
  tx: Executor,
  mail: NewMail,
  resentFrom: string | null = null,
): Promise<{ id: string }> {
  const id = uuidv7();
  await tx.insert(emails).values({
    id,
    event_id: mail.eventId,
    kind: mail.kind,
    recipient: mail.to,
    language: mail.language,
    data: mail.data,
    resent_from: resentFrom,
  });
  await scheduleJob(tx, { kind: SEND_JOB, key: id, runAt: new Date() });
  return { id };
}

export type OutboxRow = Pick<EmailRow, 'status' | 'attempts' | 'created_at'> & OutboxMail;

/** The mail as its send job reads it (under the job's claim), or undefined. */
export async function findOutboxMail(db: Executor, id: string): Promise<OutboxRow | undefined> {
  const [row] = await db.select().from(emails).where(eq(emails.id, id));
  if (row === undefined) return undefined;
  return {
    id: row.id,
    kind: row.kind,
    to: row.recipient,
    language: row.language as MailLanguage,
    eventId: row.event_id,
    data: row.data,
    createdAt: row.created_at,
    status: row.status,
    attempts: row.attempts,
    created_at: row.created_at,
  };
}

/**
 * Records that attempt `number` starts: before the message leaves, so a crash mid-send shows. One
 * statement (the attempt's insert in a CTE), as every write of the send path: a round trip each.
 */
export async function startAttempt(
  db: Executor,
  id: string,
  number: number,
  fields: { subject: string; messageId: string },
): Promise<void> {
  await db.execute(sql`
    with attempt as (insert into email_attempts (email_id, number) values (${id}, ${number}))
    update emails
    set attempts = ${number}, subject = ${fields.subject}, message_id = ${fields.messageId},
        updated_at = now()
    where id = ${id}`);
}

export interface AttemptOutcome {
  outcome: 'accepted' | 'temporary' | 'permanent';
  smtpCode: number | null;
  /** The server's answer, or the error met. */
  response: string;
}

/**
 * Records how attempt `number` ended and what it makes of the mail, in one statement: `sent` when
 * accepted, `failed` when `final`, still `queued` otherwise (its job looks again later). A sent
 * mail keeps the last error it met, as its history.
 */
export async function finishAttempt(
  db: Executor,
  id: string,
  number: number,
  result: AttemptOutcome & { final: boolean; lastError?: string },
): Promise<void> {
  const accepted = result.outcome === 'accepted';
  const status = accepted ? 'sent' : result.final ? 'failed' : 'queued';
  const lastError = accepted ? null : (result.lastError ?? result.response).slice(0, 1000);
  await db.execute(sql`
    with attempt as (
      update email_attempts
      set outcome = ${result.outcome}, smtp_code = ${result.smtpCode},
          response = ${result.response.slice(0, 1000)}, finished_at = now()
      where email_id = ${id} and number = ${number}
    )
    update emails
    set status = ${status},
        sent_at = case when ${accepted} then now() else sent_at end,
        last_error = coalesce(${lastError}, last_error),
        updated_at = now()
    where id = ${id}`);
}

/**
 * Notes an error met before any attempt (no renderer for the kind, mail off, rendering failed) on a
 * queued mail: `failed` when `final`, still queued otherwise.
 */
export async function noteUnsentError(db: Executor, id: string, error: string, final: boolean) {
  await db
    .update(emails)
    .set({ status: final ? 'failed' : 'queued', last_error: error.slice(0, 1000), updated_at: new Date() })
    .where(and(eq(emails.id, id), eq(emails.status, 'queued')));
}

const logColumns = {
  id: emails.id,
  kind: emails.kind,
  to: emails.recipient,
  subject: emails.subject,
  status: emails.status,
  attempts: emails.attempts,
  last_error: emails.last_error,
  created_at: emails.created_at,
  sent_at: emails.sent_at,
  resent_from: emails.resent_from,
};

export interface MailLogFilter {
  kind?: MailKind | undefined;
  status?: MailStatus | undefined;
  /** The recipient, compared without case. */
  to?: string | undefined;
}

/** An event's mail log, newest first. */
export function listEventMails(
  db: Executor,
  eventId: string,
  filter: MailLogFilter,
  window: Window,
): Promise<Page<MailLogEntry>> {
  const where = and(
    eq(emails.event_id, eventId),
    filter.kind === undefined ? undefined : eq(emails.kind, filter.kind),
    filter.status === undefined ? undefined : eq(emails.status, filter.status),
    filter.to === undefined ? undefined : sql`lower(${emails.recipient}) = lower(${filter.to})`,
  );
  return pageOf(
    window,
    db
      .select(logColumns)
      .from(emails)
      .where(where)
      .orderBy(desc(emails.created_at), desc(emails.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(emails).where(where),
  );
}

/** One mail as the log shows it, with its event (for the access check). */
export async function findLogEntry(
  db: Executor,
  id: string,
): Promise<(MailLogEntry & { event_id: string | null }) | undefined> {
  const [row] = await db
    .select({ ...logColumns, event_id: emails.event_id })
    .from(emails)
    .where(eq(emails.id, id));
  return row;
}

/** Queues a copy of a mail (a new id and Message-ID, the same payload), in the caller's transaction. */
export async function queueCopy(tx: Executor, id: string): Promise<{ id: string } | undefined> {
  const [row] = await tx.select().from(emails).where(eq(emails.id, id));
  if (row === undefined) return undefined;
  return queueMail(
    tx,
    {
      kind: row.kind,
      to: row.recipient,
      language: row.language as MailLanguage,
      eventId: row.event_id,
      data: row.data,
    },
    row.id,
  );
}
