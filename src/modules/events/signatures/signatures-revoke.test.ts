/**
 * Signatures (docs/reference/signatures.md): the public list of an edition's active signatures, and
 * revocation by the revoke token (interface document: authenticated by the token in the query parameter
 * `token`, not by a bearer token).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectOk } from '../../../../test/assertions.ts';
import {
  createEdition,
  createEvent,
  expectErrorAs,
  expectInvalid,
  ISO,
  SIGNATURE_KEYS,
  signatureHelpers,
  UNKNOWN_ID,
  UNKNOWN_TOKEN,
  useWorld,
} from './signatures.fixtures.ts';
import type { Signature } from './signatures.schemas.ts';

describe('signatures: public list and revocation', () => {
  const w = useWorld();
  const h = signatureHelpers(() => w);

  describe('GET /editions/{edition_id}/signatures', () => {
    it('lists the active signatures to anyone, in signing order, without e-mails', async () => {
      const edition = await createEdition(w.t, w.owner, w.event.id, { publish: true });
      const sign = async (name: string) => {
        const request = await h.createRequest(
          { signatory_name: name, signatory_email: `${name}@example.com` },
          edition.id,
        );
        return expectOk(await h.fulfil(request.token), 201);
      };
      const first = await sign('ana');
      const second = await sign('bea');
      const third = await sign('carla');
      await h.createRequest({}, edition.id); // pending: no signature
      expectOk(await h.revoke(second.revoke_token));

      const response = await w.t.get<Signature[]>(`/editions/${edition.id}/signatures?limit=1`);
      const data = expectOk(response, 200, 'events');
      assert.deepEqual(Object.keys(data[0]).sort(), SIGNATURE_KEYS);
      assert.equal(data[0].id, first.id);
      assert.deepEqual(response.body.pagination, {
        page: 1,
        limit: 1,
        total: 2,
        has_next: true,
        has_prev: false,
        next_page: 2,
        prev_page: null,
      });
      const all = await h.listSignatures(edition.id);
      assert.deepEqual(
        all.map((s: { id: string }) => s.id),
        [first.id, third.id],
      );
      assert.ok(all.every((s: { status: string }) => s.status === 'active'));
      assert.ok(!JSON.stringify(all).includes('@'), 'no e-mail anywhere');
      assert.ok(!JSON.stringify(all).includes(first.revoke_token), 'no revoke token');
    });

    it('is an empty page for an edition without signatures', async () => {
      const edition = await createEdition(w.t, w.owner, w.event.id, { publish: true });
      const response = await w.t.get<Signature[]>(`/editions/${edition.id}/signatures`);
      assert.deepEqual(expectOk(response), []);
      assert.equal(response.body.pagination.total, 0);
    });

    it('hides a draft edition from the public (404) and shows it to members', async () => {
      const draft = await createEdition(w.t, w.owner, w.event.id);
      const request = await h.createRequest({}, draft.id);
      expectOk(await h.fulfil(request.token), 201);
      expectErrorAs(
        await w.t.get<Signature[]>(`/editions/${draft.id}/signatures`),
        'anonymous',
        404,
        'NOT_FOUND',
      );
      expectErrorAs(
        await w.t.get<Signature[]>(`/editions/${draft.id}/signatures`, { token: w.outsider.token }),
        'outsider',
        404,
        'NOT_FOUND',
      );
      const seen = expectOk(
        await w.t.get<Signature[]>(`/editions/${draft.id}/signatures`, { token: w.staff.token }),
      );
      assert.equal(seen.length, 1);
    });

    it('is 404 for an unknown edition or one of a draft event, 400 for bad input, 401 for a bad bearer', async () => {
      expectErrorAs(
        await w.t.get<Signature[]>(`/editions/${UNKNOWN_ID}/signatures`),
        'unknown',
        404,
        'NOT_FOUND',
      );
      const draftEvent = await createEvent(w.t, w.owner, {}, { isDraft: true });
      const edition = await createEdition(w.t, w.owner, draftEvent.id, { publish: true });
      expectErrorAs(
        await w.t.get<Signature[]>(`/editions/${edition.id}/signatures`),
        'draft event',
        404,
        'NOT_FOUND',
      );
      expectInvalid(await w.t.get<Signature[]>('/editions/nope/signatures'), 'bad id', 'params.edition_id');
      expectInvalid(
        await w.t.get<Signature[]>(`/editions/${w.edition.id}/signatures?limit=0`),
        'limit',
        'query.limit',
      );
      expectInvalid(
        await w.t.get<Signature[]>(`/editions/${w.edition.id}/signatures?status=active`),
        'status',
        'query.status',
      );
      expectErrorAs(
        await w.t.get<Signature[]>(`/editions/${w.edition.id}/signatures`, {
          headers: { authorization: 'Bearer nope' },
        }),
        'bad bearer',
        401,
        'UNAUTHORIZED',
      );
    });
  });

  describe('POST /signatures/revoke', () => {
    it('revokes the signature; it leaves the public list; the request stays completed', async () => {
      const { request, signature } = await h.signedRequest();
      const revoked = expectOk(await h.revoke(signature.revoke_token), 200, 'events');
      assert.deepEqual(Object.keys(revoked).sort(), SIGNATURE_KEYS);
      assert.equal(revoked.id, signature.id);
      assert.equal(revoked.status, 'revoked');
      assert.match(revoked.revoked_at ?? '', ISO);
      assert.ok(!(await h.listSignatures()).some((s: { id: string }) => s.id === signature.id));
      const row = await h.storedSignature(signature.id);
      assert.equal(row.status, 'revoked');
      assert.equal(row.revoked_at?.toISOString(), revoked.revoked_at);
      assert.equal((await h.storedRequest(request.id)).status, 'completed');
    });

    it('is 409 the second time', async () => {
      const { signature } = await h.signedRequest();
      expectOk(await h.revoke(signature.revoke_token));
      expectErrorAs(await h.revoke(signature.revoke_token), 'second use', 409, 'CONFLICT');
    });

    it('lets exactly one of two concurrent revocations win', async () => {
      const { signature } = await h.signedRequest();
      const results = await Promise.all([h.revoke(signature.revoke_token), h.revoke(signature.revoke_token)]);
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 409]);
    });

    it('is 401 for a missing, malformed, unknown, request (not revoke) or expired token', async () => {
      const { request, signature } = await h.signedRequest();
      for (const [label, query] of [
        ['no token', ''],
        ['a short token', '?token=short'],
        ['an unknown token', `?token=${UNKNOWN_TOKEN}`],
        ['the request token', `?token=${request.token}`],
      ]) {
        expectErrorAs(await w.t.post(`/signatures/revoke${query}`), label as string, 401, 'UNAUTHORIZED');
      }
      await h.expireRevokeToken(signature.id);
      expectErrorAs(await h.revoke(signature.revoke_token), 'expired', 401, 'UNAUTHORIZED');
      assert.equal((await h.storedSignature(signature.id)).status, 'active', 'still active');
    });

    it('takes no body and no other parameter (400 with a valid token)', async () => {
      const { signature } = await h.signedRequest();
      const url = `/signatures/revoke?token=${signature.revoke_token}`;
      expectInvalid(await w.t.post<Signature>(url, { body: { reason: 'x' } }), 'a body', 'body');
      expectInvalid(await w.t.post<Signature>(`${url}&x=1`), 'a parameter', 'query.x');
      expectOk(await w.t.post<Signature>(url, { body: {} }), 200, 'events');
    });

    it('does not accept a bearer token instead', async () => {
      const { signature } = await h.signedRequest();
      expectErrorAs(
        await w.t.post<Signature>('/signatures/revoke', { token: w.owner.token }),
        'owner bearer',
        401,
        'UNAUTHORIZED',
      );
      assert.equal((await h.storedSignature(signature.id)).status, 'active');
    });
  });
});
