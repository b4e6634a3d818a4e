/**
 * SQL of the outbox (docs/mail.md): queueing a mail, the sender's claim of due mails in batches,
 * the records of the attempts (their start and their end, for many mails per statement), and the
 * reads of the mail log. Writes after a claim are fenced by its claim id.
 */
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import { queryRows, queryRowsPrepared } from '../../../kernel/db/raw.ts';
import type { Page } from '../../../kernel/http/respond.ts';
import { leaseDue } from '../../../kernel/jobs/lease.ts';
import type {
  EventMailKind,
  MailKind,
  MailLanguage,
  MailLogEntry,
  MailStatus,
  NewMail,
  OutboxMail,
} from './mail.types.ts';
import { emails } from './outbox.table.ts';

/** Inserts the outbox row, due at once, in the caller's transaction; the sender takes it from there. */
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
  return { id };
}

/** Queues many mails in one statement (a certificate run's batch): as `queueMail` for each. */
export async function queueMails(tx: Executor, mails: NewMail[]): Promise<void> {
  if (mails.length === 0) return;
  await tx.insert(emails).values(
    mails.map((mail) => ({
      id: uuidv7(),
      event_id: mail.eventId,
      kind: mail.kind,
      recipient: mail.to,
      language: mail.language,
      data: mail.data,
    })),
  );
}

/**
 * The statement that queues the mails `source` describes, for a module that declares mail inside a
 * statement of its own (the webhook worker's record of attempts: a mail commits with the change
 * that causes it, at no extra round trip): `insert … select … returning id` of one outbox row per
 * row of `source`, a FROM item (a CTE's name) with columns `kind`, `recipient`, `language` and
 * `data` (jsonb). The mails belong to no event. Use it as a data-modifying CTE.
 */
export function insertMailsFrom(source: SQL): SQL {
  return sql`insert into emails (id, event_id, kind, recipient, language, data)
    select convene_uuidv7(), null, m.kind, m.recipient, m.language, m.data from ${source} as m
    returning id`;
}

/** A mail the sender claimed: what its renderer reads, its attempts so far, and its claims. */
export interface ClaimedMail extends OutboxMail {
  attempts: number;
  /** How many times a sender took it, this claim included. */
  claims: number;
}

/**
 * Claims up to `limit` due queued mails for `claimId` for `leaseMs`, in one statement (`leaseDue`:
 * `FOR UPDATE SKIP LOCKED`, so processes sharing the database take disjoint mails, and a claim
 * whose process died goes back to the queue when its lease ends).
 */
export async function claimDueMails(
  db: Executor,
  claimId: string,
  limit: number,
  leaseMs: number,
): Promise<ClaimedMail[]> {
  const rows = await queryRows<{
    id: string;
    kind: MailKind;
    recipient: string;
    language: MailLanguage;
    event_id: string | null;
    data: Record<string, unknown>;
    created_at: Date | string;
    attempts: number;
    claims: number;
  }>(
    db,
    leaseDue({
      table: sql`emails`,
      alias: sql`e`,
      due: sql`status = 'queued' and next_attempt_at <= now()`,
      orderBy: sql`next_attempt_at`,
      limit,
      leaseMs,
      claimId,
      alsoSet: sql`, claims = e.claims + 1`,
      returning: sql`e.id, e.kind, e.recipient, e.language, e.event_id, e.data, e.created_at, e.attempts,
        e.claims`,
    }),
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    to: row.recipient,
    language: row.language,
    eventId: row.event_id,
    data: row.data,
    createdAt: new Date(row.created_at),
    attempts: row.attempts,
    claims: row.claims,
  }));
}

/**
 * Seconds until the next queued mail is due (or its lease ends); null when none is queued. Asked
 * after every claim: prepared, it is planned once per connection (it has no parameters, so its one
 * plan is the one each call would get).
 */
export async function secondsToNextMail(db: Executor): Promise<number | null> {
  const [row] = await queryRowsPrepared<{ seconds: number | null }>(
    db,
    'mail_seconds_to_next',
    sql`select extract(epoch from (min(greatest(next_attempt_at, coalesce(leased_until, next_attempt_at)))
          - now()))::float8 as seconds
        from emails where status = 'queued'`,
  );
  return row?.seconds ?? null;
}

/** The notification channel the mail senders of every process listen on (mailer.ts). */
export const MAIL_CHANNEL = 'convene_mail';

/**
 * Wakes the mail senders of other processes (PostgreSQL's NOTIFY, after the commit that queued the
 * mail, not inside it: a notifying commit queues on the server's notification lock).
 */
export async function notifyMailSenders(db: Executor): Promise<void> {
  await db.execute(sql`select pg_notify(${MAIL_CHANNEL}, '')`);
}

/**
 * Records that the attempts of rendered mails start, before their messages leave: each mail's
 * attempt row (no outcome yet), its count, subject and Message-ID, all in one statement. Fenced by
 * the claim: answers the ids still held by `claimId`, the only ones to send.
 */
export async function startAttempts(
  db: Executor,
  claimId: string,
  started: Array<{ id: string; number: number; subject: string; messageId: string }>,
): Promise<Set<string>> {
  if (started.length === 0) return new Set();
  const values = sql.join(
    started.map(
      (mail) => sql`(${mail.id}::uuid, ${mail.number}::int, ${mail.subject}::text, ${mail.messageId}::text)`,
    ),
    sql`, `,
  );
  const rows = await queryRows<{ id: string }>(
    db,
    sql`
      with started as (
        update emails e
        set attempts = v.number, subject = v.subject, message_id = v.message_id, updated_at = now()
        from (values ${values}) as v(id, number, subject, message_id)
        where e.id = v.id and e.claim_id = ${claimId}
        returning e.id, v.number
      ), attempt as (
        insert into email_attempts (email_id, number) select id, number from started
      )
      select id from started`,
  );
  return new Set(rows.map((row) => row.id));
}

export interface AttemptOutcome {
  outcome: 'accepted' | 'temporary' | 'permanent';
  smtpCode: number | null;
  /** The server's answer, or the error met. */
  response: string;
}

/** How a claimed mail's turn ended: with an attempt (`number`), or before any (`attempt` null). */
export interface MailOutcome {
  id: string;
  claimId: string;
  attempt: (AttemptOutcome & { number: number }) | null;
  status: 'sent' | 'failed' | 'queued';
  /** The error to keep in `last_error` (null keeps the one there). */
  lastError: string | null;
  /** For a mail still queued: seconds until it is due again. */
  retryInSeconds: number | null;
}

/**
 * Records how the turns of several claimed mails ended, in one statement: each mail's status,
 * `sent_at`, last error and next due time (the lease is let go), then the outcome of the attempts of
 * the mails so updated. Fenced by each mail's claim, so a sender whose lease ran out records nothing
 * over the next one's. The attempts follow the mails' update, not a read beside it: that update
 * locks each row and checks its claim again if a new claim took it meanwhile, where a plain read
 * still saw the old claim, and an acceptance was once recorded for a mail that the next claim then
 * sent again. A sent mail keeps the last error it met, as its history.
 */
export async function finishMails(db: Executor, outcomes: MailOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const values = sql.join(
    outcomes.map(
      (row) => sql`(${row.id}::uuid, ${row.claimId}::uuid, ${row.attempt?.number ?? null}::int,
        ${row.attempt?.outcome ?? null}::text, ${row.attempt?.smtpCode ?? null}::int,
        ${row.attempt?.response.slice(0, 1000) ?? null}::text, ${row.status}::text,
        ${row.lastError?.slice(0, 1000) ?? null}::text, ${row.retryInSeconds}::float8)`,
    ),
    sql`, `,
  );
  await db.execute(sql`
    with v (id, claim_id, number, outcome, smtp_code, response, status, last_error, retry_in) as (
      values ${values}
    ), finished as (
      update emails e
      set status = v.status,
          sent_at = case when v.status = 'sent' then now() else e.sent_at end,
          last_error = coalesce(v.last_error, e.last_error),
          next_attempt_at = case when v.retry_in is null then e.next_attempt_at
                                 else now() + make_interval(secs => v.retry_in) end,
          leased_until = null,
          updated_at = now()
      from v
      where e.id = v.id and e.claim_id = v.claim_id and e.status = 'queued'
      returning e.id
    )
    update email_attempts a
    set outcome = v.outcome, smtp_code = v.smtp_code, response = v.response, finished_at = now()
    from v, finished f
    where v.number is not null and a.email_id = v.id and a.number = v.number and f.id = v.id`);
}

const logColumns = {
  id: emails.id,
  // Only an event's mails have an event, and they are of the events' kinds (`EVENT_MAIL_KINDS`).
  kind: sql<EventMailKind>`${emails.kind}`,
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
  kind?: EventMailKind | undefined;
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
