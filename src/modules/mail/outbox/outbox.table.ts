import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from '../../../kernel/db/columns.ts';

/** The kinds an event sends to people (an event may override each: events/email-templates). */
export const EVENT_MAIL_KINDS = [
  'signature_request',
  'registration_confirmed',
  'refund_issued',
  'certificate_issued',
  'event_invitation',
] as const;
/**
 * Every kind: the events' and the service's own notices to owners (`webhook_endpoint_health`: an
 * endpoint paused or disabled, payments/webhooks), which belong to no event and are not overridden.
 */
export const MAIL_KINDS = [...EVENT_MAIL_KINDS, 'webhook_endpoint_health'] as const;
export const MAIL_STATUSES = ['queued', 'sent', 'failed'] as const;
export const ATTEMPT_OUTCOMES = ['accepted', 'temporary', 'permanent'] as const;

/**
 * The outbox (docs/mail.md): one row per mail, written in the transaction of the change that causes
 * it and sent by the mailer's sender in batches, under a claim of its own (`next_attempt_at`,
 * `claim_id`, `leased_until`). `data` is the kind's payload, rendered when the mail is sent;
 * `subject` is filled in by the first rendering, for the log. `event_id` names the event whose log
 * lists the mail, with no foreign key: the mail module sits below the events module and imports
 * nothing of it (events are never deleted; the log is read through the event's guards).
 */
export const emails = pgTable(
  'emails',
  {
    id: uuid('id').primaryKey(),
    event_id: uuid('event_id'),
    kind: text('kind', { enum: MAIL_KINDS }).notNull(),
    recipient: text('recipient').notNull(),
    language: text('language').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    subject: text('subject'),
    status: text('status', { enum: MAIL_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    message_id: text('message_id'),
    resent_from: uuid('resent_from').references((): AnyPgColumn => emails.id, { onDelete: 'set null' }),
    /** When a queued mail is due: at once when queued, then after each retry's delay. */
    next_attempt_at: timestamptz('next_attempt_at').notNull().defaultNow(),
    /** How many times a sender took the mail (each retry's delay is chosen by it). */
    claims: integer('claims').notNull().default(0),
    /** The sender's claim and its lease (`leaseDue`): writes after a claim are fenced by it. */
    claim_id: uuid('claim_id'),
    leased_until: timestamptz('leased_until'),
    created_at: createdAt(),
    sent_at: timestamptz('sent_at'),
    updated_at: updatedAt(),
  },
  (table) => [
    index('emails_event_created_idx').on(table.event_id, table.created_at.desc()),
    index('emails_status_idx').on(table.status),
    index('emails_due_idx').on(table.next_attempt_at).where(sql`${table.status} = 'queued'`),
    index('emails_recipient_idx').on(sql`lower(${table.recipient})`),
    check('emails_status_check', sql`${table.status} in ('queued', 'sent', 'failed')`),
    check(
      'emails_kind_check',
      sql`${table.kind} in (${sql.raw(MAIL_KINDS.map((kind) => `'${kind}'`).join(', '))})`,
    ),
  ],
);

/**
 * Each attempt to hand a mail over: recorded when it starts (`outcome` null) and again when the
 * server answered. An attempt left without an outcome is one whose process died mid-send: the only
 * attempts after which the server may hold a copy the outbox does not know of.
 */
export const emailAttempts = pgTable(
  'email_attempts',
  {
    email_id: uuid('email_id')
      .notNull()
      .references(() => emails.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    started_at: timestamptz('started_at').notNull().defaultNow(),
    finished_at: timestamptz('finished_at'),
    outcome: text('outcome', { enum: ATTEMPT_OUTCOMES }),
    smtp_code: integer('smtp_code'),
    response: text('response'),
  },
  (table) => [
    primaryKey({ name: 'email_attempts_pk', columns: [table.email_id, table.number] }),
    check(
      'email_attempts_outcome_check',
      sql`${table.outcome} is null or ${table.outcome} in ('accepted', 'temporary', 'permanent')`,
    ),
  ],
);

export type EmailRow = typeof emails.$inferSelect;
export type EmailAttemptRow = typeof emailAttempts.$inferSelect;
