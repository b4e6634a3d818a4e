/**
 * Signature requests, the signatory's side (docs/reference/signatures.md): opening a request by its token,
 * signing it and declining it. No bearer token anywhere: the token in `?token=` is the credential,
 * and a missing, malformed, unknown or expired one is 401 before anything else is looked at.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { expectOk } from '../../../../test/assertions.ts';
import { hashToken } from '../../../kernel/tokens.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import {
  createEdition,
  expectErrorAs,
  expectInvalid,
  ISO,
  PNG_DATA_URL,
  paddedPng,
  pngDataUrl,
  pngHeader,
  SIGNATURE_KEYS,
  signatureHelpers,
  UNKNOWN_TOKEN,
  useWorld,
  VIEW_KEYS,
} from './signatures.fixtures.ts';
import type { FulfilledSignature, SignatureRequest, SignatureRequestView } from './signatures.schemas.ts';

/** Ways to present a bad token: each must be 401 UNAUTHORIZED. */
const BAD_TOKENS: Array<[string, string]> = [
  ['no token', ''],
  ['an empty token', '?token='],
  ['a short token', '?token=abc'],
  ['a token with bad characters', `?token=${'a'.repeat(40)}%21%21`],
  ['a long token', `?token=${'a'.repeat(201)}`],
  ['two tokens', `?token=${UNKNOWN_TOKEN}&token=${UNKNOWN_TOKEN}`],
  ['an unknown token', `?token=${UNKNOWN_TOKEN}`],
];

describe('signature requests: the signatory side', () => {
  const w = useWorld();
  const h = signatureHelpers(() => w);

  it('refuses missing, malformed and unknown tokens on every token route (401), even with a bad body', async () => {
    const routes: Array<[string, string, unknown]> = [
      ['GET', '/signature-requests/by-token', undefined],
      ['POST', '/signature-requests/fulfill', { image_url: 'https://cdn.example.com/sig.png' }],
      ['POST', '/signature-requests/fulfill', { image_url: 'nope', extra: 1 }],
      ['POST', '/signature-requests/deny', { reason: 'No' }],
      ['POST', '/signature-requests/deny', undefined],
      ['POST', '/signatures/revoke', undefined],
    ];
    for (const [method, path, body] of routes) {
      for (const [label, query] of BAD_TOKENS) {
        const response = await w.t.request(method, `${path}${query}`, body === undefined ? {} : { body });
        const error = expectErrorAs(response, `${method} ${path} with ${label}`, 401, 'UNAUTHORIZED');
        assert.equal(error.fields, undefined, 'no validation detail');
      }
    }
    // Malformed JSON is not even read without a valid token.
    expectErrorAs(
      await w.t.post<FulfilledSignature>(`/signature-requests/fulfill?token=${UNKNOWN_TOKEN}`, {
        payload: '{"image_url": ',
        contentType: 'application/json',
      }),
      'malformed JSON, unknown token',
      401,
      'UNAUTHORIZED',
    );
  });

  it('ignores a bearer token: the link token is the only credential', async () => {
    const response = await w.t.get<SignatureRequestView>(
      `/signature-requests/by-token?token=${UNKNOWN_TOKEN}`,
      {
        token: w.owner.token,
      },
    );
    expectErrorAs(response, 'owner bearer, unknown link token', 401, 'UNAUTHORIZED');
    const created = await h.createRequest();
    // A token in a header or body does not count.
    expectErrorAs(
      await w.t.get<SignatureRequestView>('/signature-requests/by-token', {
        headers: { authorization: `Bearer ${created.token}` },
      }),
      'token as a bearer header',
      401,
      'UNAUTHORIZED',
    );
    expectErrorAs(
      await w.t.post<SignatureRequestView>('/signature-requests/deny', { body: { token: created.token } }),
      'token in the body',
      401,
      'UNAUTHORIZED',
    );
    assert.equal((await h.storedRequest(created.id)).status, 'pending');
  });

  describe('GET /signature-requests/by-token', () => {
    it('shows the request and what it asks to sign, without organizer data', async () => {
      const created = await h.createRequest({ signatory_title: 'Chair' });
      const view = expectOk(await h.byToken(created.token), 200, 'events');
      assert.deepEqual(Object.keys(view).sort(), VIEW_KEYS);
      assert.equal(view.id, created.id);
      assert.equal(view.status, 'pending');
      assert.equal(view.signatory_name, 'Marta Ferreira');
      assert.equal(view.signatory_email, 'marta@example.com');
      assert.equal(view.signatory_title, 'Chair');
      assert.equal(view.reason, null);
      assert.equal(view.expires_at, created.expires_at);
      assert.equal(view.created_at, created.created_at);
      assert.equal(view.decided_at, null);
      // Who asks: the owner's e-mail, as their token carried no name.
      assert.equal(view.requested_by, w.owner.email);
      assert.deepEqual(view.edition, {
        id: w.edition.id,
        name: w.edition.name,
        starts_at: w.edition.starts_at,
        ends_at: w.edition.ends_at,
        location_name: w.edition.location_name,
      });
      assert.deepEqual(view.event, { id: w.event.id, name: w.event.name });
      const text = JSON.stringify(view);
      assert.ok(!text.includes(w.owner.id), 'no organizer id');
      assert.ok(!text.includes(created.token) && !text.includes(hashToken(created.token)), 'no token');
    });

    it('opens a request of a draft edition too (the signatory was invited)', async () => {
      const draft = await createEdition(w.t, w.owner, w.event.id);
      const created = await h.createRequest({}, draft.id);
      assert.equal(expectOk(await h.byToken(created.token)).edition.id, draft.id);
    });

    it('is 401 once the request is past its expiry, and stores the expiry', async () => {
      const created = await h.createRequest();
      await h.expireRequest(created.id);
      expectErrorAs(await h.byToken(created.token), 'expired', 401, 'UNAUTHORIZED');
      const row = await h.storedRequest(created.id);
      assert.equal(row.status, 'expired');
      assert.equal(row.decided_at?.toISOString(), row.expires_at.toISOString());
      expectErrorAs(await h.byToken(created.token), 'expired, again', 401, 'UNAUTHORIZED');
    });

    it('shows a request no longer pending with its status, until its link expires', async () => {
      const { request } = await h.signedRequest();
      const view = expectOk(await h.byToken(request.token));
      assert.equal(view.status, 'completed');
      assert.match(view.decided_at ?? '', ISO);
      await h.expireRequest(request.id);
      expectErrorAs(await h.byToken(request.token), 'completed, link expired', 401, 'UNAUTHORIZED');
      assert.equal(
        (await h.storedRequest(request.id)).status,
        'completed',
        'a decided request stays decided',
      );
    });

    it('is 401 when the edition was deleted', async () => {
      const edition = await createEdition(w.t, w.owner, w.event.id);
      const created = await h.createRequest({}, edition.id);
      expectOk(
        await w.t.delete<Edition>(`/events/${w.event.id}/editions/${edition.id}`, { token: w.owner.token }),
      );
      expectErrorAs(await h.byToken(created.token), 'deleted edition', 401, 'UNAUTHORIZED');
    });

    it('refuses unknown query parameters with a valid token (400)', async () => {
      const created = await h.createRequest();
      expectInvalid(
        await w.t.get<SignatureRequestView>(`/signature-requests/by-token?token=${created.token}&x=1`),
        'x',
        'query.x',
      );
    });
  });

  describe('POST /signature-requests/fulfill', () => {
    it('signs: 201 with the signature and a revoke token shown once; the request is completed', async () => {
      const created = await h.createRequest({ signatory_title: 'Chair' });
      const response = await h.fulfil(created.token, 'https://cdn.example.com/marta.png');
      const signature = expectOk(response, 201, 'events');
      assert.deepEqual(
        Object.keys(signature).sort(),
        [...SIGNATURE_KEYS, 'revoke_expires_at', 'revoke_token'].sort(),
      );
      assert.equal(signature.request_id, created.id);
      assert.equal(signature.edition_id, w.edition.id);
      assert.equal(signature.signatory_name, 'Marta Ferreira');
      assert.equal(signature.signatory_title, 'Chair');
      assert.equal(signature.image_url, 'https://cdn.example.com/marta.png');
      assert.equal(signature.status, 'active');
      assert.equal(signature.revoked_at, null);
      assert.match(signature.created_at, ISO);
      assert.match(signature.revoke_token, /^[A-Za-z0-9_-]{43}$/);
      assert.notEqual(signature.revoke_token, created.token);
      const days = (Date.parse(signature.revoke_expires_at) - Date.parse(signature.created_at)) / 86_400_000;
      assert.ok(Math.abs(days - 365) < 0.01, `the revoke token lasts 365 days, got ${days}`);

      const request = (await h.listRequests()).find((item: { id: string }) => item.id === created.id)!;
      assert.equal(request.status, 'completed');
      assert.match(request.decided_at ?? '', ISO);
      assert.equal(expectOk(await h.byToken(created.token)).status, 'completed');
      const listed = (await h.listSignatures()).find((item: { id: string }) => item.id === signature.id)!;
      assert.deepEqual(Object.keys(listed).sort(), SIGNATURE_KEYS);
      assert.equal(listed.image_url, 'https://cdn.example.com/marta.png');
    });

    it('stores only the SHA-256 of the revoke token', async () => {
      const { signature } = await h.signedRequest();
      const row = await h.storedSignature(signature.id);
      assert.equal(row.revoke_token_hash, hashToken(signature.revoke_token));
      assert.equal(
        await h.count(
          sql`select count(*)::int as n from signatures s where strpos(s::text, ${signature.revoke_token}) > 0`,
        ),
        0,
        'no column holds the revoke token',
      );
    });

    it('accepts a PNG data URL (stored normalised: signatures-image.test.ts)', async () => {
      const created = await h.createRequest();
      const signature = expectOk(await h.fulfil(created.token, PNG_DATA_URL), 201);
      assert.match(signature.image_url, /^data:image\/png;base64,/);
      assert.deepEqual((({ width, height }) => ({ width, height }))(pngHeader(signature.image_url)), {
        width: 1,
        height: 1,
      });
    });

    it('accepts an inline PNG of exactly 512 KiB, not one byte more', async () => {
      // Valid PNGs of those sizes (the image is decoded now): 1 x 1 with a private chunk.
      const png = (bytes: number) => pngDataUrl(paddedPng(bytes));
      const over = await h.createRequest();
      expectInvalid(await h.fulfil(over.token, png(512 * 1024 + 1)), '512 KiB + 1', 'image_url');
      const atLimit = await h.createRequest();
      expectOk(await h.fulfil(atLimit.token, png(512 * 1024)), 201);
    });

    it('refuses a second fulfilment (409) and creates no second signature', async () => {
      const { request } = await h.signedRequest();
      const error = expectErrorAs(await h.fulfil(request.token), 'second fulfil', 409, 'CONFLICT');
      assert.equal(error.meta?.status, 'completed');
      assert.equal(
        await h.count(sql`select count(*)::int as n from signatures where request_id = ${request.id}`),
        1,
      );
    });

    it('lets exactly one of two concurrent fulfilments win', async () => {
      const created = await h.createRequest();
      const results = await Promise.all([h.fulfil(created.token), h.fulfil(created.token)]);
      assert.deepEqual(results.map((r) => r.status).sort(), [201, 409]);
    });

    it('is 409 on a denied or cancelled request', async () => {
      const denied = await h.createRequest();
      expectOk(await h.deny(denied.token));
      const cancelled = await h.createRequest();
      expectOk(await h.cancel(cancelled.id));
      for (const [label, request] of [
        ['denied', denied],
        ['cancelled', cancelled],
      ] as const) {
        expectErrorAs(await h.fulfil(request.token), label, 409, 'CONFLICT');
      }
    });

    it('is 401 on an expired request, which becomes expired', async () => {
      const created = await h.createRequest();
      await h.expireRequest(created.id);
      expectErrorAs(await h.fulfil(created.token), 'expired', 401, 'UNAUTHORIZED');
      assert.equal((await h.storedRequest(created.id)).status, 'expired');
      assert.equal(
        (await h.listSignatures()).filter((s: { request_id: string }) => s.request_id === created.id).length,
        0,
      );
    });

    it('refuses a bad image_url or body, naming the field (400), and changes nothing', async () => {
      const created = await h.createRequest();
      const url = `/signature-requests/fulfill?token=${created.token}`;
      const big = `data:image/png;base64,${Buffer.alloc(512 * 1024 + 3, 1).toString('base64')}`;
      const notPng = `data:image/png;base64,${Buffer.from('GIF89a-not-a-png').toString('base64')}`;
      const cases: Array<[string, unknown, string]> = [
        ['no image_url', {}, 'image_url'],
        ['an unknown field', { image_url: 'https://cdn.example.com/a.png', note: 'x' }, 'note'],
        ['a number', { image_url: 5 }, 'image_url'],
        ['not a URL', { image_url: 'signature' }, 'image_url'],
        ['an ftp URL', { image_url: 'ftp://cdn.example.com/a.png' }, 'image_url'],
        ['a javascript URL', { image_url: 'javascript:alert(1)' }, 'image_url'],
        ['an SVG data URL', { image_url: 'data:image/svg+xml;base64,PHN2Zz4=' }, 'image_url'],
        ['bad base64', { image_url: 'data:image/png;base64,@@@@' }, 'image_url'],
        ['truncated base64', { image_url: 'data:image/png;base64,iVBORw0KGgo' }, 'image_url'],
        ['not a PNG', { image_url: notPng }, 'image_url'],
        ['over 512 KiB', { image_url: big }, 'image_url'],
        ['a long URL', { image_url: `https://cdn.example.com/${'a'.repeat(2048)}` }, 'image_url'],
      ];
      for (const [label, body, field] of cases) expectInvalid(await w.t.post(url, { body }), label, field);
      expectErrorAs(
        await w.t.post(url, { payload: '{"image_url": ', contentType: 'application/json' }),
        'malformed JSON',
        400,
        'BAD_REQUEST',
      );
      expectInvalid(await w.t.post(url), 'no body', 'body');
      assert.equal((await h.storedRequest(created.id)).status, 'pending');
    });
  });

  describe('POST /signature-requests/deny', () => {
    it('declines with a reason; the organizer and the signatory see it', async () => {
      const created = await h.createRequest();
      const view = expectOk(await h.deny(created.token, { reason: 'I was not there' }), 200, 'events');
      assert.deepEqual(Object.keys(view).sort(), VIEW_KEYS);
      assert.equal(view.status, 'denied');
      assert.equal(view.reason, 'I was not there');
      assert.match(view.decided_at ?? '', ISO);
      const request = (await h.listRequests('&status=denied')).find(
        (item: { id: string }) => item.id === created.id,
      )!;
      assert.equal(request.reason, 'I was not there');
      assert.equal(request.decided_at, view.decided_at);
      assert.equal(expectOk(await h.byToken(created.token)).status, 'denied');
    });

    it('takes no body, an empty body or {} (the reason is optional)', async () => {
      for (const options of [
        {},
        { body: {} },
        { body: { reason: null } },
        { payload: '', contentType: 'application/json' },
      ]) {
        const created = await h.createRequest();
        const view = expectOk(
          await w.t.post<SignatureRequestView>(`/signature-requests/deny?token=${created.token}`, options),
        );
        assert.equal(view.status, 'denied');
        assert.equal(view.reason, null);
      }
    });

    it('is 409 unless pending, 401 when expired', async () => {
      const denied = await h.createRequest();
      expectOk(await h.deny(denied.token));
      const { request: completed } = await h.signedRequest();
      const cancelled = await h.createRequest();
      expectOk(await h.cancel(cancelled.id));
      for (const [label, request, status] of [
        ['denied twice', denied, 'denied'],
        ['completed', completed, 'completed'],
        ['cancelled', cancelled, 'cancelled'],
      ] as const) {
        const error = expectErrorAs(await h.deny(request.token), label, 409, 'CONFLICT');
        assert.equal(error.meta?.status, status);
      }
      const stale = await h.createRequest();
      await h.expireRequest(stale.id);
      expectErrorAs(await h.deny(stale.token), 'expired', 401, 'UNAUTHORIZED');
      assert.equal((await h.storedRequest(stale.id)).status, 'expired');
    });

    it('refuses bad input (400)', async () => {
      const created = await h.createRequest();
      const url = `/signature-requests/deny?token=${created.token}`;
      for (const [label, body, field] of [
        ['an unknown field', { why: 'x' }, 'why'],
        ['a long reason', { reason: 'x'.repeat(1001) }, 'reason'],
        ['a number reason', { reason: 1 }, 'reason'],
      ] as const) {
        expectInvalid(await w.t.post(url, { body }), label, field);
      }
      expectErrorAs(
        await w.t.post(url, { payload: '{"reason": ', contentType: 'application/json' }),
        'malformed JSON',
        400,
        'BAD_REQUEST',
      );
      expectOk(await w.t.post(url, { body: { reason: 'x'.repeat(1000) } }), 200, 'events');
    });

    it('refuses null, an array or a scalar as the body and leaves the request pending', async () => {
      const pending = await h.createRequest();
      for (const payload of ['null', '[]', '"no"', '0']) {
        expectInvalid(
          await w.t.post<SignatureRequestView>(`/signature-requests/deny?token=${pending.token}`, {
            payload,
            contentType: 'application/json',
          }),
          `deny ${payload}`,
          'body',
        );
        expectInvalid(
          await w.t.post<SignatureRequest>(`/signature-requests/${pending.id}/cancel`, {
            token: w.owner.token,
            payload,
            contentType: 'application/json',
          }),
          `cancel ${payload}`,
          'body',
        );
      }
      assert.equal((await h.storedRequest(pending.id)).status, 'pending');
    });
  });

  it('names every bad part of a request at once: query and body', async () => {
    const created = await h.createRequest();
    expectInvalid(
      await w.t.post<FulfilledSignature>(`/signature-requests/fulfill?token=${created.token}&page=0`),
      'fulfil with an unknown parameter and no body',
      'query.page',
      'body',
    );
    assert.equal((await h.storedRequest(created.id)).status, 'pending');
  });
});
