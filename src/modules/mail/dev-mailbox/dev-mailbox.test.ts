/**
 * The development mailbox (docs/mail.md): without MAIL_URL outside production a mail is rendered and
 * kept, marked sent, and shown at `/dev/mail` (newest first) and `/dev/mail/{id}` with its text
 * part, attachments and inline images; with MAIL_URL set, or in production, those pages are 404.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, credentialSigningKeyPem, type TestApp } from '../../../../test/harness.ts';
import { attemptsOf, PIXEL_PNG, queue, useSimpleRenderer, waitForRow } from '../mail.fixtures.ts';

describe('the development mailbox', () => {
  let t: TestApp;
  let first: string;
  let second: string;
  before(async () => {
    t = await createTestApp({ JOBS_POLL_MS: '50' });
    useSimpleRenderer(t);
    [first] = await queue(t, { to: 'ana@example.com', data: { subject: 'First <mail>', body: 'One & two' } });
    await waitForRow(t.db, first!, (row) => row.status === 'sent');
    [second] = await queue(t, { to: 'bruno@example.com', data: { subject: 'Second mail' } });
    await waitForRow(t.db, second!, (row) => row.status === 'sent');
  });
  after(() => t?.close());

  it('keeps a mail instead of sending it, and records the attempt as accepted', async () => {
    const [attempt] = await attemptsOf(t.db, first!);
    assert.equal(attempt?.outcome, 'accepted');
    assert.match(attempt?.response ?? '', /development mailbox/);
  });

  it('lists the kept mail newest first, escaped, as a page', async () => {
    const page = await t.get('/dev/mail');
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
    assert.ok(page.text.indexOf('Second mail') < page.text.indexOf('First &lt;mail&gt;'), 'newest first');
    assert.ok(page.text.includes(`href="/dev/mail/${first}"`));
    assert.ok(page.text.includes('bruno@example.com'));
    assert.ok(!page.text.includes('First <mail>'), 'the subject is escaped');
  });

  it("shows one mail with its headers, parts and attachments, its HTML's cid: images", async () => {
    const page = await t.get(`/dev/mail/${first}`);
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(`&lt;${first}@127.0.0.1&gt;`), 'the Message-ID');
    assert.ok(page.text.includes(`src="/dev/mail/${first}/html"`));
    assert.ok(page.text.includes(`href="/dev/mail/${first}/text"`));
    assert.ok(page.text.includes(`href="/dev/mail/${first}/attachments/1"`));
    assert.match(String(page.headers['content-security-policy']), /frame-src 'self'/);

    const htmlPart = await t.get(`/dev/mail/${first}/html`);
    assert.equal(htmlPart.status, 200);
    assert.ok(htmlPart.text.includes(`<img src="/dev/mail/${first}/attachments/0" alt="logo">`));
    assert.equal(htmlPart.headers['x-frame-options'], 'SAMEORIGIN');
    assert.match(String(htmlPart.headers['content-security-policy']), /style-src 'unsafe-inline'/);
    assert.doesNotMatch(String(htmlPart.headers['content-security-policy']), /script-src/);

    const text = await t.get(`/dev/mail/${first}/text`);
    assert.equal(text.text, 'One & two');
    assert.match(String(text.headers['content-type']), /^text\/plain/);

    const image = await t.app.inject({ method: 'GET', url: `/dev/mail/${first}/attachments/0` });
    assert.equal(image.headers['content-type'], 'image/png');
    assert.deepEqual(image.rawPayload, PIXEL_PNG);
    const notes = await t.get(`/dev/mail/${first}/attachments/1`);
    assert.equal(notes.text, 'notes of First <mail>');
    assert.match(String(notes.headers['content-disposition']), /filename="notes\.txt"/);
  });

  it('answers 404 for an unknown mail or attachment, 400 for a malformed id', async () => {
    assert.equal((await t.get('/dev/mail/01937a4e-0000-7000-8000-0000000000ff')).status, 404);
    assert.equal((await t.get(`/dev/mail/${first}/attachments/7`)).status, 404);
    assert.equal((await t.get('/dev/mail/nope')).status, 400);
  });
});

describe('the development mailbox where it is closed', () => {
  for (const [name, env] of [
    ['with MAIL_URL set', { MAIL_URL: 'smtp://127.0.0.1:9' }],
    [
      'in production',
      { NODE_ENV: 'production', CREDENTIAL_SIGNING_KEY: credentialSigningKeyPem(), TEST_MODE: 'true' },
    ],
  ] as const) {
    it(`answers 404 like an unknown route ${name}`, async () => {
      const t = await createTestApp(env);
      try {
        for (const path of ['/dev/mail', '/dev/mail/01937a4e-0000-7000-8000-0000000000ff']) {
          const response = await t.get(path);
          assert.equal(response.status, 404, path);
          assert.equal(response.body.error?.code, 'NOT_FOUND');
          assert.equal(response.body.message, 'Route not found');
        }
      } finally {
        await t.close();
      }
    });
  }

  it('records mail as failed, never sent, when mail is off in production', async () => {
    const t = await createTestApp({
      NODE_ENV: 'production',
      CREDENTIAL_SIGNING_KEY: credentialSigningKeyPem(),
      JOBS_POLL_MS: '50',
    });
    try {
      useSimpleRenderer(t);
      assert.equal(t.mailer.mode, 'off');
      const [id] = await queue(t, {});
      const row = await waitForRow(t.db, id!, (mail) => mail.status !== 'queued');
      assert.equal(row.status, 'failed');
      assert.equal(row.last_error, 'mail is off: MAIL_URL is not set');
      assert.equal(row.attempts, 0);
    } finally {
      await t.close();
    }
  });
});
