/**
 * No mail is lost when a sending process is killed (docs/mail.md), with real processes on the
 * PostgreSQL server (the embedded database belongs to one process, so this needs
 * TEST_DATABASE_URL). 200 mails are queued; a service process sends them to a slow SMTP server and
 * is SIGKILLed mid-batch; a second process takes the killed claims over once their lease (3 s here)
 * ends. Every mail arrives, and a mail that arrived twice is one whose process died between the
 * server's acceptance and the record of it: its attempt has no outcome.
 *
 * And mail sent by `npm run worker` for a service started with MAIL_SENDER=false: the service
 * queues, the worker sends, woken by the service's notification rather than its own poll.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { AddressObject } from 'mailparser';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../../../../test/database.ts';
import { signToken } from '../../../../test/harness.ts';
import {
  type Child,
  childEnv,
  killAllChildren,
  spawnScript,
  startService,
  startWorker,
  whenReady,
} from '../../../../test/processes.ts';
import { type SmtpSink, startSmtpSink } from '../../../../test/smtp-sink.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { queryRows } from '../../../kernel/db/raw.ts';
import { queue } from '../mail.fixtures.ts';

const MAILS = 200;
const skip = TEST_DATABASE_URL ? false : 'needs a PostgreSQL server: set TEST_DATABASE_URL';

async function startSender(env: Record<string, string>): Promise<Child> {
  const child = spawnScript('test/process-fixtures/mail-sender.ts', env);
  const ready = (async () => {
    while (!child.logs.some((line) => line.msg === 'mail sender ready')) await sleep(50);
  })();
  await whenReady(child, ready, 'mail sender');
  return child;
}

describe('mail across a SIGKILL of the sending process (PostgreSQL, real processes)', { skip }, () => {
  let database: TestDatabase;
  let sink: SmtpSink;

  before(async () => {
    database = await createTestDatabase();
    sink = await startSmtpSink({ delayMs: 15 });
  });
  after(async () => {
    await killAllChildren();
    await sink?.close();
    await database?.close();
  });

  it('delivers every queued mail; a duplicate is only a mail whose acceptance was not recorded', async () => {
    const db = database.handle.db;
    const env = await childEnv(database.url!, {
      MAIL_URL: sink.url,
      JOBS_POLL_MS: '100',
      JOBS_LEASE_MS: '3000',
      MAIL_RETRY_SCHEDULE: '0.5',
    });
    // Queued before any sender runs, as a burst of registrations would.
    const ids = await queue(
      { db, mailer: { wake: () => {} } },
      ...Array.from({ length: MAILS }, (_, i) => ({
        to: `person${i}@example.com`,
        data: { subject: `Mail ${i}` },
      })),
    );

    let sender = await startSender(env);
    while (sink.accepted() < 30) await sleep(5);
    await sender.kill('SIGKILL');
    const [cut] = await queryRows<{ sent: number }>(
      db,
      sql`select count(*)::int as sent from emails where status = 'sent'`,
    );
    assert.ok(cut!.sent < MAILS, `killed with ${cut!.sent} of ${MAILS} recorded as sent`);

    sender = await startSender(env);
    const deadline = Date.now() + 90_000;
    for (;;) {
      const [counts] = await queryRows<{ sent: number }>(
        db,
        sql`select count(*)::int as sent from emails where status = 'sent'`,
      );
      if (counts!.sent === MAILS) break;
      assert.ok(Date.now() < deadline, `${counts!.sent} of ${MAILS} sent after 90 s`);
      await sleep(200);
    }
    await sender.kill('SIGTERM');

    const arrivals = new Map<string, number>();
    for (const mail of sink.mails)
      arrivals.set(String(mail.messageId), (arrivals.get(String(mail.messageId)) ?? 0) + 1);
    const attempts = await queryRows<{ email_id: string; accepted: number; unrecorded: number }>(
      db,
      sql`select email_id,
                 count(*) filter (where outcome = 'accepted')::int as accepted,
                 count(*) filter (where outcome is null)::int as unrecorded
            from email_attempts group by email_id`,
    );
    const byId = new Map(attempts.map((row) => [row.email_id, row]));
    let duplicates = 0;
    for (const id of ids) {
      const times = arrivals.get(`<${id}@127.0.0.1>`) ?? 0;
      const record = byId.get(id);
      assert.ok(times >= 1, `mail ${id} arrived`);
      assert.equal(record?.accepted, 1, `mail ${id}: one accepted attempt recorded`);
      if (times > 1) {
        duplicates += times - 1;
        assert.ok(
          (record?.unrecorded ?? 0) >= times - 1,
          `mail ${id} arrived ${times} times: each extra copy has an attempt never recorded as answered`,
        );
      }
    }
    assert.equal(arrivals.size, MAILS, 'nothing else arrived');
    // What the kill cut short, for whoever reads the run.
    process.stdout.write(`# killed after ${cut!.sent} recorded sends; ${duplicates} duplicate(s)\n`);
  });
});

describe('mail sent by `npm run worker` for a service with MAIL_SENDER=false (PostgreSQL, real processes)', {
  skip,
}, () => {
  let database: TestDatabase;
  let sink: SmtpSink;

  before(async () => {
    database = await createTestDatabase();
    sink = await startSmtpSink();
  });
  after(async () => {
    await killAllChildren();
    await sink?.close();
    await database?.close();
  });

  it("the service only queues invitations; the worker sends them, woken by the service's commits", async () => {
    const env = await childEnv(database.url!, { MAIL_URL: sink.url, JOBS_POLL_MS: '100' });
    const service = await startService({ ...env, MAIL_SENDER: 'false' });
    const token = await signToken({ id: uuidv7(), email: 'mail-worker-owner@example.com' });
    const call = async (path: string, body: Record<string, unknown>) => {
      const response = await fetch(`${service.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 201, `${path}: ${await response.clone().text()}`);
      return ((await response.json()) as { data: { id: string } }).data;
    };
    const event = await call('/events', { name: 'Mail worker event', slug: `mail-worker-${Date.now()}` });
    await call(`/events/${event.id}/invitations`, { email: 'invitee@example.com', role: 'staff' });
    const statusOf = async () =>
      (
        await queryRows<{ status: string }>(
          database.handle.db,
          sql`select status from emails where recipient = 'invitee@example.com'`,
        )
      ).map((row) => row.status);

    // Ten of the service's polls: it never claims the mail.
    await sleep(1000);
    assert.deepEqual(await statusOf(), ['queued']);
    assert.equal(sink.accepted(), 0, 'the service sent nothing');

    // The worker looks once when it starts, then only when woken or after its poll, a minute here:
    // the second invitation below arrives in time only if the service's commit woke it.
    const worker = await startWorker({ ...env, JOBS_POLL_MS: '60000' });
    const [mail] = await sink.waitFor(1, 30_000);
    assert.equal((mail!.to as AddressObject).text, 'invitee@example.com');
    assert.match(String(mail!.subject), /Mail worker event/);
    for (const deadline = Date.now() + 10_000; (await statusOf())[0] !== 'sent'; await sleep(100)) {
      assert.ok(Date.now() < deadline, 'recorded as sent within 10 s');
    }
    assert.ok(
      worker.logs.some((line) => line.msg === 'mail sender started'),
      'the worker says it sends mail',
    );

    await call(`/events/${event.id}/invitations`, { email: 'second-invitee@example.com', role: 'staff' });
    const mails = await sink.waitFor(2, 10_000);
    assert.equal((mails[1]!.to as AddressObject).text, 'second-invitee@example.com');
  });
});
