/**
 * Signature requests, the organizer's side (docs/reference/signatures.md): creating one (the token shown
 * once, stored only as its hash), listing them (lazy expiry, status filter) and cancelling one; bad input,
 * roles, unknown ids. The signatory's side: signatures-token.test.ts; signatures and revocation:
 * signatures-revoke.test.ts.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import { hashToken } from '../../../kernel/tokens.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import {
  createEdition,
  createEvent,
  expectErrorAs,
  expectInvalid,
  ISO,
  PUBLIC_BASE_URL,
  REQUEST_KEYS,
  signatureHelpers,
  UNKNOWN_ID,
  useWorld,
} from './signatures.fixtures.ts';
import type { CreatedSignatureRequest, SignatureRequest } from './signatures.schemas.ts';

const DAY = 86_400_000;

describe('signature requests: the organizer side', () => {
  const w = useWorld();
  /** A pending request the auth check tries to cancel. */
  let target: { id: string };
  const h = signatureHelpers(() => w);

  before(async () => {
    target = await h.createRequest();
  });

  checkAuth(
    'signature request routes',
    () => w.t,
    () => [
      {
        method: 'POST',
        url: `/editions/${w.edition.id}/signature-requests`,
        body: { signatory_name: 'Nope', signatory_email: 'nope@example.com' },
        forbidden: w.staff,
      },
      { method: 'GET', url: `/editions/${w.edition.id}/signature-requests`, forbidden: w.staff },
      { method: 'POST', url: `/signature-requests/${target.id}/cancel`, forbidden: w.staff },
    ],
  );

  it('the auth check changed nothing', async () => {
    assert.equal((await h.storedRequest(target.id)).status, 'pending');
  });

  describe('POST /editions/{edition_id}/signature-requests', () => {
    it('creates a pending request and shows its token and link once', async () => {
      const before = Date.now();
      const created = await h.createRequest({ signatory_title: 'Programme chair', expires_in_days: 30 });
      assert.deepEqual(Object.keys(created).sort(), [...REQUEST_KEYS, 'fulfill_url', 'token'].sort());
      assert.equal(created.edition_id, w.edition.id);
      assert.equal(created.signatory_name, 'Marta Ferreira');
      assert.equal(created.signatory_email, 'marta@example.com');
      assert.equal(created.signatory_title, 'Programme chair');
      assert.equal(created.status, 'pending');
      assert.equal(created.reason, null);
      assert.equal(created.decided_at, null);
      assert.equal(created.created_by, w.owner.id);
      for (const field of ['created_at', 'updated_at', 'expires_at'])
        assert.match(String((created as Record<string, unknown>)[field]), ISO);
      const days = (Date.parse(created.expires_at) - Date.parse(created.created_at)) / DAY;
      assert.ok(Math.abs(days - 30) < 0.01, `expires 30 days after creation, got ${days}`);
      assert.ok(Date.parse(created.created_at) >= before - 5_000);
      assert.match(created.token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(created.fulfill_url, `${PUBLIC_BASE_URL}/sign?token=${created.token}`);
    });

    it('defaults the expiry to 7 days and the title to null; admins may create too', async () => {
      const created = await h.createRequest({}, w.edition.id, w.admin);
      assert.equal(created.signatory_title, null);
      assert.equal(created.created_by, w.admin.id);
      const days = (Date.parse(created.expires_at) - Date.parse(created.created_at)) / DAY;
      assert.ok(Math.abs(days - 7) < 0.01, `expires 7 days after creation, got ${days}`);
    });

    it('stores only the SHA-256 of the token, never the token', async () => {
      const created = await h.createRequest();
      const row = await h.storedRequest(created.id);
      assert.equal(row.token_hash, hashToken(created.token));
      assert.match(row.token_hash, /^[0-9a-f]{64}$/);
      assert.ok(!Object.values(row).some((value) => String(value).includes(created.token)));
      const holding = (needle: string) =>
        h.count(
          sql`select count(*)::int as n from signature_requests r where strpos(r::text, ${needle}) > 0`,
        );
      assert.equal(await holding(created.token), 0, 'no column of any request holds the token');
      assert.equal(await holding(hashToken(created.token)), 1, 'the same search finds the hash');
    });

    it('never shows the token or its hash again', async () => {
      const created = await h.createRequest();
      const listed = (await h.listRequests()).find((item: { id: string }) => item.id === created.id)!;
      assert.deepEqual(Object.keys(listed).sort(), REQUEST_KEYS);
      const text = JSON.stringify(await h.listRequests());
      assert.ok(!text.includes(created.token) && !text.includes(hashToken(created.token)));
    });

    it('gives every request its own token', async () => {
      const [a, b] = [await h.createRequest(), await h.createRequest()];
      assert.notEqual(a.token, b.token);
    });

    it('accepts a draft edition of the caller (members see drafts)', async () => {
      const draft = await createEdition(w.t, w.owner, w.event.id);
      assert.equal((await h.createRequest({}, draft.id)).edition_id, draft.id);
    });

    it('refuses bad input, naming each field (400)', async () => {
      const url = `/editions/${w.edition.id}/signature-requests`;
      const post = (body: unknown) => w.t.post(url, { token: w.owner.token, body });
      const valid = { signatory_name: 'Marta', signatory_email: 'marta@example.com' };
      const cases: Array<[string, unknown, string[]]> = [
        ['an empty body', {}, ['signatory_name', 'signatory_email']],
        ['an unknown field', { ...valid, phone: '123' }, ['phone']],
        ['an empty name', { ...valid, signatory_name: '' }, ['signatory_name']],
        ['a long name', { ...valid, signatory_name: 'x'.repeat(201) }, ['signatory_name']],
        ['a bad e-mail', { ...valid, signatory_email: 'marta' }, ['signatory_email']],
        ['a number title', { ...valid, signatory_title: 7 }, ['signatory_title']],
        ['a long title', { ...valid, signatory_title: 'x'.repeat(201) }, ['signatory_title']],
        ['0 days', { ...valid, expires_in_days: 0 }, ['expires_in_days']],
        ['366 days', { ...valid, expires_in_days: 366 }, ['expires_in_days']],
        ['1.5 days', { ...valid, expires_in_days: 1.5 }, ['expires_in_days']],
        ['days as a string', { ...valid, expires_in_days: '7' }, ['expires_in_days']],
        ['an array body', [valid], ['body']],
      ];
      for (const [label, body, fields] of cases) expectInvalid(await post(body), label, ...fields);
      expectErrorAs(
        await w.t.post(url, {
          token: w.owner.token,
          payload: '{"signatory_name": ',
          contentType: 'application/json',
        }),
        'malformed JSON',
        400,
        'BAD_REQUEST',
      );
      expectInvalid(
        await w.t.post<CreatedSignatureRequest>('/editions/not-a-uuid/signature-requests', {
          token: w.owner.token,
          body: valid,
        }),
        'a bad edition id',
        'params.edition_id',
      );
    });

    it('accepts the bounds of the expiry: 1 and 365 days', async () => {
      for (const days of [1, 365]) {
        const created = await h.createRequest({ expires_in_days: days });
        const span = (Date.parse(created.expires_at) - Date.parse(created.created_at)) / DAY;
        assert.ok(Math.abs(span - days) < 0.01);
      }
    });

    it('is 404 for an unknown edition, a deleted one, and a draft event of someone else', async () => {
      const body = { signatory_name: 'Marta', signatory_email: 'marta@example.com' };
      const gone = await createEdition(w.t, w.owner, w.event.id);
      expectOk(
        await w.t.delete<Edition>(`/events/${w.event.id}/editions/${gone.id}`, { token: w.owner.token }),
      );
      const hiddenEvent = await createEvent(w.t, w.outsider, {}, { isDraft: true });
      const hidden = await createEdition(w.t, w.outsider, hiddenEvent.id);
      for (const [label, id] of [
        ['unknown', UNKNOWN_ID],
        ['deleted', gone.id],
        ['hidden draft', hidden.id],
      ] as const) {
        expectErrorAs(
          await w.t.post<CreatedSignatureRequest>(`/editions/${id}/signature-requests`, {
            token: w.owner.token,
            body,
          }),
          label,
          404,
          'NOT_FOUND',
        );
      }
    });
  });

  describe('GET /editions/{edition_id}/signature-requests', () => {
    it('lists the requests of the edition, newest first, paginated', async () => {
      const edition = await createEdition(w.t, w.owner, w.event.id, { publish: true });
      const first = await h.createRequest({ signatory_name: 'First' }, edition.id);
      const second = await h.createRequest({ signatory_name: 'Second' }, edition.id);
      const third = await h.createRequest({ signatory_name: 'Third' }, edition.id);
      const page = await w.t.get<SignatureRequest[]>(`/editions/${edition.id}/signature-requests?limit=2`, {
        token: w.admin.token,
      });
      const data = expectOk(page, 200, 'events');
      assert.deepEqual(
        data.map((item: { id: string }) => item.id),
        [third.id, second.id],
      );
      assert.deepEqual(page.body.pagination, {
        page: 1,
        limit: 2,
        total: 3,
        has_next: true,
        has_prev: false,
        next_page: 2,
        prev_page: null,
      });
      const next = expectOk(
        await w.t.get<SignatureRequest[]>(`/editions/${edition.id}/signature-requests?limit=2&page=2`, {
          token: w.owner.token,
        }),
      );
      assert.deepEqual(
        next.map((item: { id: string }) => item.id),
        [first.id],
      );
    });

    it('marks pending requests past their expiry as expired, and stores it', async () => {
      const edition = await createEdition(w.t, w.owner, w.event.id, { publish: true });
      const stale = await h.createRequest({}, edition.id);
      const fresh = await h.createRequest({}, edition.id);
      await h.expireRequest(stale.id);
      const listed = await h.listRequests('', edition.id);
      const byId = new Map(listed.map((item) => [item.id, item]));
      const expired = byId.get(stale.id)!;
      assert.equal(expired.status, 'expired');
      assert.equal(expired.decided_at, (await h.storedRequest(stale.id)).expires_at.toISOString());
      assert.equal(byId.get(fresh.id)?.status, 'pending');
      assert.equal((await h.storedRequest(stale.id)).status, 'expired');
    });

    it('filters by status (after expiry is applied)', async () => {
      const edition = await createEdition(w.t, w.owner, w.event.id, { publish: true });
      const pending = await h.createRequest({}, edition.id);
      const stale = await h.createRequest({}, edition.id);
      const cancelled = await h.createRequest({}, edition.id);
      await h.expireRequest(stale.id);
      expectOk(await h.cancel(cancelled.id));
      const ids = async (status: string) =>
        (await h.listRequests(`&status=${status}`, edition.id)).map((item: { id: string }) => item.id);
      assert.deepEqual(await ids('pending'), [pending.id]);
      assert.deepEqual(await ids('expired'), [stale.id]);
      assert.deepEqual(await ids('cancelled'), [cancelled.id]);
      assert.deepEqual(await ids('completed'), []);
    });

    it('refuses bad query parameters (400)', async () => {
      const url = `/editions/${w.edition.id}/signature-requests`;
      for (const [query, field] of [
        ['status=gone', 'query.status'],
        ['limit=0', 'query.limit'],
        ['limit=101', 'query.limit'],
        ['page=0', 'query.page'],
        ['token=abc', 'query.token'],
      ]) {
        expectInvalid(
          await w.t.get(`${url}?${query}`, { token: w.owner.token }),
          query as string,
          field as string,
        );
      }
      expectInvalid(
        await w.t.get<SignatureRequest[]>('/editions/nope/signature-requests', { token: w.owner.token }),
        'bad id',
        'params.edition_id',
      );
    });

    it('is 404 for an unknown edition', async () => {
      expectErrorAs(
        await w.t.get<SignatureRequest[]>(`/editions/${UNKNOWN_ID}/signature-requests`, {
          token: w.owner.token,
        }),
        'unknown',
        404,
        'NOT_FOUND',
      );
    });
  });

  describe('POST /signature-requests/{request_id}/cancel', () => {
    it('cancels a pending request with a reason; the list and the link show it', async () => {
      const created = await h.createRequest();
      const cancelled = expectOk(
        await h.cancel(created.id, w.admin, { reason: 'Wrong person' }),
        200,
        'events',
      );
      assert.deepEqual(Object.keys(cancelled).sort(), REQUEST_KEYS);
      assert.equal(cancelled.status, 'cancelled');
      assert.equal(cancelled.reason, 'Wrong person');
      assert.match(cancelled.decided_at ?? '', ISO);
      assert.ok(cancelled.updated_at >= created.updated_at);
      const listed = (await h.listRequests('&status=cancelled')).map((item: { id: string }) => item.id);
      assert.ok(listed.includes(created.id));
      const view = expectOk(await h.byToken(created.token));
      assert.equal(view.status, 'cancelled');
      assert.equal(view.reason, null, "the organizer's note is not shown to the signatory");
    });

    it('takes no body, an empty body or {} (the reason is optional)', async () => {
      for (const options of [{}, { body: {} }, { payload: '', contentType: 'application/json' }]) {
        const created = await h.createRequest();
        const response = await w.t.post<SignatureRequest>(`/signature-requests/${created.id}/cancel`, {
          token: w.owner.token,
          ...options,
        });
        const data = expectOk(response, 200, 'events');
        assert.equal(data.status, 'cancelled');
        assert.equal(data.reason, null);
      }
    });

    it('is 409 unless pending: cancelled, completed, denied, or expired (lazily)', async () => {
      const cancelled = await h.createRequest();
      expectOk(await h.cancel(cancelled.id));
      const completed = await h.createRequest();
      expectOk(await h.fulfil(completed.token), 201);
      const denied = await h.createRequest();
      expectOk(await h.deny(denied.token));
      const stale = await h.createRequest();
      await h.expireRequest(stale.id);
      for (const [label, request, status] of [
        ['cancelled', cancelled, 'cancelled'],
        ['completed', completed, 'completed'],
        ['denied', denied, 'denied'],
        ['expired', stale, 'expired'],
      ] as const) {
        const error = expectErrorAs(await h.cancel(request.id), label, 409, 'CONFLICT');
        assert.equal(error.meta?.status, status, label);
      }
      assert.equal((await h.storedRequest(stale.id)).status, 'expired', 'the expiry is stored');
    });

    it('refuses bad input (400)', async () => {
      const created = await h.createRequest();
      const url = `/signature-requests/${created.id}/cancel`;
      const cases: Array<[string, unknown, string]> = [
        ['an unknown field', { why: 'x' }, 'why'],
        ['a long reason', { reason: 'x'.repeat(1001) }, 'reason'],
        ['a number reason', { reason: 5 }, 'reason'],
      ];
      for (const [label, body, field] of cases) {
        expectInvalid(await w.t.post(url, { token: w.owner.token, body }), label, field);
      }
      expectErrorAs(
        await w.t.post(url, {
          token: w.owner.token,
          payload: '{"reason": ',
          contentType: 'application/json',
        }),
        'malformed JSON',
        400,
        'BAD_REQUEST',
      );
      expectInvalid(
        await w.t.post<SignatureRequest>('/signature-requests/nope/cancel', { token: w.owner.token }),
        'bad id',
        'params.request_id',
      );
      assert.equal((await h.storedRequest(created.id)).status, 'pending', 'nothing changed');
    });

    it('is 404 for an unknown request, 403 for staff, before any state check', async () => {
      expectErrorAs(await h.cancel(UNKNOWN_ID), 'unknown', 404, 'NOT_FOUND');
      const done = await h.createRequest();
      expectOk(await h.cancel(done.id));
      expectErrorAs(await h.cancel(done.id, w.staff), 'staff on a cancelled request', 403, 'FORBIDDEN');
      expectErrorAs(await h.cancel(done.id, w.outsider), 'outsider', 403, 'FORBIDDEN');
    });
  });
});
