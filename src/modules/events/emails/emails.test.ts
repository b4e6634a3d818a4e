/**
 * An event's mail log and resending (docs/reference/mail.md), with the development mailbox as the
 * transport (no MAIL_URL): filters and paging, newest first; a resend queues a copy with a new id
 * and Message-ID that is sent in turn; owner and admin only (staff 403), and a mail is unknown (404)
 * to anyone without a role on its event.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { queue, useSimpleRenderer, waitForRow } from '../../mail/mail.fixtures.ts';
import { eventFixtures, ISO, UNKNOWN_ID, useTeam } from '../events.fixtures.ts';
import type { Mail } from './emails.schemas.ts';

const MAIL_KEYS = [
  'attempts',
  'created_at',
  'id',
  'kind',
  'last_error',
  'resent_from',
  'sent_at',
  'status',
  'subject',
  'to',
];

describe("an event's mail log", () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  const f = eventFixtures(() => team);
  let eventId: string;
  let draftId: string;
  let ids: string[];

  before(async () => {
    useSimpleRenderer(t, ['signature_request', 'registration_confirmed']);
    eventId = (await f.createTeamEvent()).id;
    draftId = (await f.createTeamEvent({ isDraft: true })).id;
    ids = [];
    // One at a time, so that creation order is the log's order.
    for (const [index, mail] of [
      { kind: 'signature_request' as const, to: 'Ana@Example.com' },
      { kind: 'registration_confirmed' as const, to: 'bruno@example.com' },
      { kind: 'registration_confirmed' as const, to: 'ana@example.com' },
      { kind: 'certificate_issued' as const, to: 'carla@example.com' },
    ].entries()) {
      const [id] = await queue(t, { ...mail, eventId, data: { subject: `Mail ${index}` } });
      ids.push(id!);
    }
    await queue(t, { eventId: draftId });
    for (const id of ids) await waitForRow(t.db, id, (row) => row.status !== 'queued');
  });

  const log = async (query = '', by = owner) =>
    expectOk(await t.get<Mail[]>(`/events/${eventId}/emails${query}`, { token: by.token }), 200, 'events');

  it('lists the mail newest first, with its delivery status', async () => {
    const mails = await log();
    assert.deepEqual(
      mails.map((mail) => mail.id),
      [...ids].reverse(),
    );
    for (const mail of mails) assert.deepEqual(Object.keys(mail).sort(), MAIL_KEYS);
    const [certificate, , , first] = mails;
    assert.equal(first?.status, 'sent');
    assert.equal(first?.subject, 'Mail 0');
    assert.equal(first?.to, 'Ana@Example.com');
    assert.equal(first?.attempts, 1);
    assert.match(first?.sent_at ?? '', ISO);
    assert.match(first?.created_at ?? '', ISO);
    // The certificate's mail names no certificate (the test's payload): it can never be written, so
    // it failed at once, and the log says why.
    assert.equal(certificate?.status, 'failed');
    assert.equal(certificate?.last_error, "rendering failed: the mail's certificate_id is missing");
    assert.equal(certificate?.subject, null);
  });

  it('filters by kind, status and recipient (without case), and pages', async () => {
    assert.deepEqual(
      (await log('?kind=registration_confirmed')).map((mail) => mail.id),
      [ids[2], ids[1]],
    );
    assert.deepEqual(
      (await log('?status=failed')).map((mail) => mail.id),
      [ids[3]],
    );
    assert.deepEqual(
      (await log('?to=ANA@example.COM')).map((mail) => mail.id),
      [ids[2], ids[0]],
    );
    assert.deepEqual(await log('?status=queued'), []);
    const page = await t.get<Mail[]>(`/events/${eventId}/emails?limit=3&page=2`, { token: admin.token });
    assert.deepEqual(
      expectOk(page).map((mail) => mail.id),
      [ids[0]],
    );
    assert.deepEqual(page.body.pagination, {
      page: 2,
      limit: 3,
      total: 4,
      has_next: false,
      has_prev: true,
      next_page: null,
      prev_page: 1,
    });
  });

  it('refuses bad filters and paging with the fields named', async () => {
    const response = await t.get(`/events/${eventId}/emails?kind=welcome&status=lost&to=nobody&limit=0`, {
      token: owner.token,
    });
    const error = expectError(response, 400, 'VALIDATION_ERROR');
    assert.deepEqual(error.fields?.map((field) => field.field).sort(), [
      'query.kind',
      'query.limit',
      'query.status',
      'query.to',
    ]);
  });

  it('is for owner and admin: staff 403, an outsider 403 (published event) or 404 (draft)', async () => {
    expectError(await t.get(`/events/${eventId}/emails`, { token: staff.token }), 403, 'FORBIDDEN');
    expectError(await t.get(`/events/${eventId}/emails`, { token: outsider.token }), 403, 'FORBIDDEN');
    expectError(await t.get(`/events/${draftId}/emails`, { token: outsider.token }), 404, 'NOT_FOUND');
    expectError(await t.get(`/events/${UNKNOWN_ID}/emails`, { token: owner.token }), 404, 'NOT_FOUND');
    expectError(await t.get(`/events/${eventId}/emails`), 401, 'UNAUTHORIZED');
  });

  it('resends a mail as a copy with a new id and Message-ID, sent in turn', async () => {
    const copy = expectOk(
      await t.post<Mail>(`/emails/${ids[0]}/resend`, { token: admin.token }),
      201,
      'events',
    );
    assert.deepEqual(Object.keys(copy).sort(), MAIL_KEYS);
    assert.notEqual(copy.id, ids[0]);
    assert.equal(copy.resent_from, ids[0]);
    assert.equal(copy.status, 'queued');
    assert.equal(copy.attempts, 0);
    assert.equal(copy.to, 'Ana@Example.com');
    assert.equal(copy.kind, 'signature_request');
    const sent = await waitForRow(t.db, copy.id, (row) => row.status === 'sent');
    const original = await waitForRow(t.db, ids[0]!, () => true);
    assert.equal(sent.subject, 'Mail 0');
    assert.equal(sent.message_id, `<${copy.id}@127.0.0.1>`);
    assert.notEqual(sent.message_id, original.message_id);
    assert.equal((await log())[0]?.id, copy.id, 'the copy heads the log');
  });

  it('resends a failed mail too', async () => {
    const copy = expectOk(await t.post<Mail>(`/emails/${ids[3]}/resend`, { token: owner.token }), 201);
    assert.equal(copy.resent_from, ids[3]);
    assert.equal(copy.kind, 'certificate_issued');
  });

  it('hides a mail from anyone without a role on its event (404) and forbids staff (403)', async () => {
    expectError(await t.post(`/emails/${ids[0]}/resend`, { token: staff.token }), 403, 'FORBIDDEN');
    const hidden = expectError(
      await t.post(`/emails/${ids[0]}/resend`, { token: outsider.token }),
      404,
      'NOT_FOUND',
    );
    const unknown = expectError(
      await t.post(`/emails/${UNKNOWN_ID}/resend`, { token: owner.token }),
      404,
      'NOT_FOUND',
    );
    assert.equal(hidden.message, unknown.message, 'a hidden mail answers like an unknown one');
    expectError(await t.post('/emails/not-a-uuid/resend', { token: owner.token }), 400, 'VALIDATION_ERROR');
    expectError(await t.post(`/emails/${ids[0]}/resend`), 401, 'UNAUTHORIZED');
    // A mail of no event has no one to resend it.
    const [loose] = await queue(t, { eventId: null });
    expectError(await t.post(`/emails/${loose}/resend`, { token: owner.token }), 404, 'NOT_FOUND');
  });
});
