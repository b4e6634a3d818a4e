/**
 * Sending through SMTP (docs/mail.md), against a real SMTP server on loopback (test/smtp-sink.ts):
 * a queued mail arrives once with the Message-ID derived from its id; temporary failures (4xx, the
 * server down) are retried until the server takes the mail, each attempt recorded; a permanent one
 * (5xx) fails the mail at once; past the retry window a temporary failure is final. Retries are
 * made short by MAIL_RETRY_SCHEDULE, not by fake timers.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../../test/harness.ts';
import { type SmtpSink, startSmtpSink } from '../../../../test/smtp-sink.ts';
import { queryRows } from '../../../kernel/db/raw.ts';
import { attemptsOf, queue, useSimpleRenderer, waitForRow } from '../mail.fixtures.ts';
import { openSenderPool } from './sender.session.ts';

const FAST = { MAIL_RETRY_SCHEDULE: '0.2', JOBS_POLL_MS: '50' };

const withMessageId = (sink: SmtpSink, messageId: string) =>
  sink.mails.filter((mail) => mail.messageId === messageId);

describe('sending mail through SMTP', () => {
  let sink: SmtpSink;
  let t: TestApp;
  before(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({ ...FAST, MAIL_URL: sink.url, MAIL_FROM: 'Convene <mail@convene.test>' });
    useSimpleRenderer(t);
  });
  after(async () => {
    await t?.close();
    await sink?.close();
  });

  it('delivers a queued mail once, with the Message-ID derived from its id', async () => {
    const [id] = await queue(t, {
      to: 'Bruno@Example.com',
      data: { subject: 'Sign the agreement', body: 'Hi' },
    });
    const row = await waitForRow(t.db, id!, (mail) => mail.status === 'sent');
    assert.equal(row.message_id, `<${id}@127.0.0.1>`);
    assert.equal(row.subject, 'Sign the agreement');
    assert.equal(row.attempts, 1);
    const [mail] = await sink.waitFor(1);
    await sleep(300);
    const arrived = withMessageId(sink, `<${id}@127.0.0.1>`);
    assert.equal(arrived.length, 1, 'arrived once');
    assert.equal(mail?.subject, 'Sign the agreement');
    assert.deepEqual(mail?.from?.value, [{ name: 'Convene', address: 'mail@convene.test' }]);
    assert.equal(mail?.text?.trim(), 'Hi');
    assert.match(String(mail?.html), /<p style="color:#1f2937">Hi<\/p>/);
    assert.deepEqual(
      mail?.attachments.map((attachment) => [
        attachment.filename,
        attachment.contentType,
        attachment.cid ?? null,
      ]),
      [
        ['logo.png', 'image/png', 'logo@convene'],
        ['notes.txt', 'text/plain', null],
      ],
    );
    const attempts = await attemptsOf(t.db, id!);
    assert.equal(attempts.length, 1);
    assert.equal(attempts[0]?.outcome, 'accepted');
    assert.equal(attempts[0]?.smtp_code, 250);
  });

  it('retries a 4xx answer and delivers the mail once the server takes it', async () => {
    const before = sink.accepted();
    sink.setFailure(451);
    const [id] = await queue(t, { data: { subject: 'Retried' } });
    // A third attempt has begun: the first two were answered 451.
    await waitForRow(t.db, id!, (mail) => mail.attempts >= 3);
    sink.setFailure(null);
    const row = await waitForRow(t.db, id!, (mail) => mail.status === 'sent');
    await sink.waitFor(before + 1);
    await sleep(300);
    assert.equal(withMessageId(sink, `<${id}@127.0.0.1>`).length, 1, 'arrived once');
    const attempts = await attemptsOf(t.db, id!);
    assert.equal(attempts.length, row.attempts);
    assert.ok(attempts.length >= 3, `${attempts.length} attempts`);
    assert.deepEqual(
      attempts.slice(0, -1).map((attempt) => [attempt.outcome, attempt.smtp_code]),
      attempts.slice(0, -1).map(() => ['temporary', 451]),
    );
    assert.equal(attempts.at(-1)?.outcome, 'accepted');
    assert.match(row.last_error ?? '', /Try again later/, 'the last error stays as history');
  });

  it('fails a mail at once on a 5xx answer, with no retry', async () => {
    sink.setFailure(550);
    const [id] = await queue(t, { data: { subject: 'Refused' } });
    const row = await waitForRow(t.db, id!, (mail) => mail.status === 'failed');
    sink.setFailure(null);
    await sleep(800);
    const after = await waitForRow(t.db, id!, () => true);
    assert.equal(after.attempts, 1, 'no second attempt');
    assert.match(row.last_error ?? '', /Refused for good/);
    assert.deepEqual(
      (await attemptsOf(t.db, id!)).map((attempt) => [attempt.outcome, attempt.smtp_code]),
      [['permanent', 550]],
    );
    assert.equal(withMessageId(sink, `<${id}@127.0.0.1>`).length, 0);
  });

  it('fails at once, saying so, a mail its renderer can never write (what it was about is gone)', async () => {
    // The events module's refund renderer: a payload naming no registration.
    const [id] = await queue(t, { kind: 'refund_issued', data: {} });
    const row = await waitForRow(t.db, id!, (mail) => mail.status === 'failed');
    assert.equal(row.last_error, "rendering failed: the mail's registration_id is missing");
    assert.equal(row.attempts, 0);
  });

  it('delivers every mail exactly once after the server was down for a while', async () => {
    const { port } = sink;
    await sink.close();
    const ids = await queue(t, ...Array.from({ length: 20 }, (_, i) => ({ data: { subject: `Down ${i}` } })));
    // Each has met the closed port at least once (its second attempt has begun).
    for (const id of ids) await waitForRow(t.db, id, (mail) => mail.attempts >= 2);
    for (const id of ids) assert.equal((await attemptsOf(t.db, id))[0]?.outcome, 'temporary');
    sink = await startSmtpSink({ port });
    for (const id of ids) await waitForRow(t.db, id, (mail) => mail.status === 'sent');
    await sleep(300);
    for (const id of ids) assert.equal(withMessageId(sink, `<${id}@127.0.0.1>`).length, 1, `${id} once`);
    assert.equal(sink.mails.length, 20);
  });
});

describe("the sender's own connections", () => {
  it('record claims and outcomes without waiting for the disk on a server, and are the same handle when embedded', async () => {
    const t = await createTestApp();
    const pool = openSenderPool(t.database.handle);
    try {
      const [row] = await queryRows<{ value: string }>(
        pool.db,
        sql`select current_setting('synchronous_commit') as value`,
      );
      assert.equal(row?.value, t.database.handle.kind === 'postgres' ? 'off' : 'on');
      if (t.database.handle.kind !== 'postgres') assert.equal(pool.db, t.db);
    } finally {
      await pool.close();
      await t.close();
    }
  });
});

describe('the retry window', () => {
  it('makes a temporary failure final once the mail is older than MAIL_RETRY_FOR_SECONDS', async () => {
    const sink = await startSmtpSink();
    sink.setFailure(421);
    // Four seconds: time for several attempts on the fast schedule even when the mail thread takes
    // seconds to load (through tsx, on a busy machine) before the first.
    const t = await createTestApp({ ...FAST, MAIL_URL: sink.url, MAIL_RETRY_FOR_SECONDS: '4' });
    try {
      useSimpleRenderer(t);
      const [id] = await queue(t, {});
      const row = await waitForRow(t.db, id!, (mail) => mail.status === 'failed', 30_000);
      assert.match(row.last_error ?? '', /^gave up after 4 s: /);
      const attempts = await attemptsOf(t.db, id!);
      assert.ok(attempts.length >= 2, `${attempts.length} attempts`);
      assert.ok(attempts.every((attempt) => attempt.outcome === 'temporary'));
    } finally {
      await t.close();
      await sink.close();
    }
  });
});

describe('MAIL_URL with credentials', () => {
  it('authenticates to the server and never logs the password', async () => {
    const sink = await startSmtpSink({ auth: { user: 'convene', pass: 's3cret-pass' } });
    let logs = '';
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logs += String(chunk);
        done();
      },
    });
    const t = await createTestApp({ ...FAST, MAIL_URL: sink.url, LOG_LEVEL: 'info' }, { logStream });
    try {
      useSimpleRenderer(t);
      const [id] = await queue(t, {});
      await waitForRow(t.db, id!, (mail) => mail.status === 'sent');
      assert.equal(sink.mails.length, 1);
      assert.match(logs, /smtp:\/\/convene:\*\*\*@127\.0\.0\.1/);
      assert.doesNotMatch(logs, /s3cret-pass/);
    } finally {
      await t.close();
      await sink.close();
    }
  });

  it('fails the mail at once when the server refuses the credentials (535)', async () => {
    const sink = await startSmtpSink({ auth: { user: 'convene', pass: 'right' } });
    const t = await createTestApp({ ...FAST, MAIL_URL: sink.url.replace(':right@', ':wrong@') });
    try {
      useSimpleRenderer(t);
      const [id] = await queue(t, {});
      const row = await waitForRow(t.db, id!, (mail) => mail.status === 'failed');
      assert.deepEqual(
        (await attemptsOf(t.db, id!)).map((attempt) => [attempt.outcome, attempt.smtp_code]),
        [['permanent', 535]],
      );
      assert.match(row.last_error ?? '', /535|Authentication/);
    } finally {
      await t.close();
      await sink.close();
    }
  });
});
