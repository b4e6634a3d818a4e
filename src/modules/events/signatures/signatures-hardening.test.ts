/**
 * Hardening of the token routes. Rate limiting: requests with bad tokens count against the limit,
 * like requests with bad bearer tokens (the token is checked after the limiter). Logs: signature
 * tokens never reach them: the service logs request URLs with `token=` masked, and
 * never logs response bodies (where a token is shown once). The logs test captures the service's
 * logs (production logger options) in memory through the harness's `logStream`.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { type ApiResponse, createTestApp, signToken, type TestApp } from '../../../../test/harness.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import type { Event } from '../events/events.schemas.ts';
import type {
  CreatedSignatureRequest,
  FulfilledSignature,
  SignatureRequestView,
} from './signatures.schemas.ts';

describe('signature tokens in the logs', () => {
  let t: TestApp;
  const lines: string[] = [];

  before(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: stream });
  });
  after(() => t.close());

  /** Sends a request through the whole pipeline; `bearer` adds the owner's token. */
  const call = <T>(
    method: 'GET' | 'POST',
    url: string,
    body?: object,
    bearer?: string,
  ): Promise<ApiResponse<T>> =>
    t.request<T>(method, url, { token: bearer, ...(body === undefined ? {} : { body }) });

  it('masks the request and revoke tokens in every logged URL and logs no response body', async () => {
    const bearer = await signToken({ id: uuidv7(), email: 'logs-owner@example.com' });
    const event = expectOk(
      await call<Event>('POST', '/events', { name: 'Logged', slug: `logged-${Date.now()}` }, bearer),
      201,
    );
    const edition = expectOk(
      await call<Edition>(
        'POST',
        `/events/${event.id}/editions`,
        {
          name: 'Logged 2031',
          slug: 'logged-2031',
          starts_at: '2031-05-01T09:00:00Z',
          ends_at: '2031-05-02T18:00:00Z',
        },
        bearer,
      ),
      201,
    );
    const created = expectOk(
      await call<CreatedSignatureRequest>(
        'POST',
        `/editions/${edition.id}/signature-requests`,
        { signatory_name: 'Marta', signatory_email: 'marta@example.com' },
        bearer,
      ),
      201,
    );
    const token: string = created.token;
    expectOk(await call('GET', `/signature-requests/by-token?token=${token}`));
    const signed = expectOk(
      await call<FulfilledSignature>('POST', `/signature-requests/fulfill?token=${token}`, {
        image_url: 'https://cdn.example.com/s.png',
      }),
      201,
    );
    const revokeToken: string = signed.revoke_token;
    await call('POST', `/signatures/revoke?foo=1&token=${revokeToken}`);
    expectOk(await call('POST', `/signatures/revoke?token=${revokeToken}`));

    const log = lines.join('');
    assert.ok(
      log.includes('/signature-requests/by-token?token=[REDACTED]'),
      'the by-token URL is logged, masked',
    );
    assert.ok(log.includes('/signatures/revoke?foo=1&token=[REDACTED]'), 'a later parameter is masked too');
    for (const secret of [token, revokeToken]) assert.ok(!log.includes(secret), 'no token in the logs');
  });
});

describe('token routes under the rate limit', () => {
  it('counts requests with bad tokens and refuses the excess (429)', async () => {
    const t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const unknown = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
      const urls = [
        '/signature-requests/by-token',
        `/signature-requests/fulfill?token=${unknown}`,
        '/signatures/revoke?token=x',
      ];
      for (const url of urls) {
        expectError(await t.request(url.includes('by-token') ? 'GET' : 'POST', url), 401, 'UNAUTHORIZED');
      }
      const limited = await t.post<SignatureRequestView>(`/signature-requests/deny?token=${unknown}`);
      expectError(limited, 429, 'TOO_MANY_REQUESTS');
      assert.match(String(limited.headers['retry-after']), /^\d+$/);
    } finally {
      await t.close();
    }
  });
});
