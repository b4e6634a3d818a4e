/**
 * Shared setup of the mail tests (not a test file itself): a simple renderer for the kinds (the
 * real ones belong to the modules that own the kinds), queueing mail as a declaring module does,
 * and reading back what the outbox recorded.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { TestApp } from '../../../test/harness.ts';
import type { Database } from '../../kernel/db/client.ts';
import { queryRows } from '../../kernel/db/raw.ts';
import { type MailDraft, type MailKind, type NewMail, queueMail } from './index.ts';

/** A 1×1 PNG, as an inline image. */
export const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Renders `data.subject` and `data.body`, with an inline image and a text attachment. */
export const simpleRenderer = async (mail: { data: Record<string, unknown> }): Promise<MailDraft> => {
  const subject = String(mail.data.subject ?? 'Hello');
  const body = String(mail.data.body ?? 'A test mail');
  return {
    template: {
      kind: 'test',
      variables: [
        { name: 'subject', description: 'the subject', required: false, example: 'Hello' },
        { name: 'body', description: 'the text', required: false, example: 'A test mail' },
      ],
      subject: '{{ subject }}',
      body:
        '<!doctype html><html><body><p style="color:#1f2937">{{ body }}</p>' +
        '<img src="cid:logo@convene" alt="logo"></body></html>',
    },
    values: { subject, body },
    attachments: [
      { filename: 'logo.png', contentType: 'image/png', content: PIXEL_PNG, cid: 'logo@convene' },
      { filename: 'notes.txt', contentType: 'text/plain', content: Buffer.from(`notes of ${subject}`) },
    ],
  };
};

/** Registers the simple renderer for `kinds` on the test app's mailer. */
export function useSimpleRenderer(t: TestApp, kinds: MailKind[] = ['signature_request']) {
  for (const kind of kinds) t.mailer.registerKind(kind, simpleRenderer);
}

/** Queues mail in a transaction of its own, as a declaring module does, and wakes the sending. */
export async function queue(
  t: { db: Database; mailer: { wake(): void } },
  ...mails: Array<Partial<NewMail>>
) {
  const ids = await t.db.transaction(async (tx) => {
    const queued: string[] = [];
    for (const mail of mails) {
      const { id } = await queueMail(tx, {
        kind: 'signature_request',
        to: 'ana@example.com',
        language: 'en',
        eventId: null,
        data: { subject: 'Please sign' },
        ...mail,
      });
      queued.push(id);
    }
    return queued;
  });
  t.mailer.wake();
  return ids;
}

export interface OutboxState {
  id: string;
  status: string;
  attempts: number;
  last_error: string | null;
  message_id: string | null;
  subject: string | null;
}

export async function outboxRow(db: Database, id: string): Promise<OutboxState> {
  const [row] = await queryRows<OutboxState>(
    db,
    sql`select id, status, attempts, last_error, message_id, subject from emails where id = ${id}`,
  );
  if (row === undefined) throw new Error(`no mail ${id}`);
  return row;
}

export async function attemptsOf(db: Database, id: string) {
  return queryRows<{ number: number; outcome: string | null; smtp_code: number | null; response: string }>(
    db,
    sql`select number, outcome, smtp_code, response from email_attempts
        where email_id = ${id} order by number`,
  );
}

/**
 * What the outbox holds for `recipient`, each mail with its attempts, as one line: what a test that
 * waited in vain for a mail reports.
 */
export async function outboxOf(db: Database, recipient: string): Promise<string> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select e.kind, e.status, e.claims, e.attempts, e.last_error, e.next_attempt_at, e.leased_until,
          (select json_agg(json_build_object('number', a.number, 'outcome', a.outcome, 'response', a.response)
                           order by a.number)
             from email_attempts a where a.email_id = e.id) as tries
        from emails e where lower(e.recipient) = lower(${recipient}) order by e.created_at`,
  );
  return rows.length === 0 ? 'nothing' : JSON.stringify(rows);
}

/** Waits until the mail's row passes `test` (15 s at most). */
export async function waitForRow(
  db: Database,
  id: string,
  test: (row: OutboxState) => boolean,
  timeoutMs = 15_000,
): Promise<OutboxState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await outboxRow(db, id);
    if (test(row)) return row;
    if (Date.now() > deadline) throw new Error(`mail ${id} stayed ${JSON.stringify(row)}`);
    await sleep(25);
  }
}
