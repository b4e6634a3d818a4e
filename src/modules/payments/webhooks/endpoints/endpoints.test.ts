/**
 * Webhook endpoints (docs/reference/webhooks.md): register, list, read, change, delete, rotate the secret.
 * Success with side effects (read back, and the sealed secret column), bad input, auth (shared
 * table), 404 for unknown ids and, alike, for someone else's wallet or endpoint, and the
 * private-target guard when private targets are not allowed.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expectError, expectOk } from '../../../../../test/assertions.ts';
import { checkAuth } from '../../../../../test/auth-check.ts';
import { open } from '../../../../kernel/secret-box.ts';
import {
  expectHiddenFrom,
  expectInvalid,
  expectMalformedJson,
  ISO,
  paymentsFixtures,
  UNKNOWN_ID,
  UUID_V7,
  usePaymentsTeam,
} from '../../payments.fixtures.ts';
import type { Wallet } from '../../wallets/wallets.schemas.ts';
import type {
  WebhookEndpoint,
  WebhookEndpointWithHealth,
  WebhookEndpointWithSecret,
} from './endpoints.schemas.ts';
import { webhookEndpoints } from './endpoints.table.ts';

const ENDPOINT_KEYS = [
  'created_at',
  'disabled_reason',
  'enabled',
  'event_types',
  'id',
  'name',
  'updated_at',
  'url',
  'wallet_id',
];
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const TARGET = 'http://127.0.0.1:9/hook';
const KEY = Buffer.alloc(32, 9);

describe('webhook endpoints', () => {
  const team = usePaymentsTeam({ SECRETS_KEY: KEY.toString('base64') });
  const { createWallet } = paymentsFixtures(team);
  let wallet: Wallet;
  let endpoint: WebhookEndpointWithSecret;

  const path = (id: string) => `/webhooks/endpoints/${id}`;
  const createEndpoint = async (walletId: string, body: Record<string, unknown> = {}) =>
    expectOk(
      await team().t.post<WebhookEndpointWithSecret>(`/wallets/${walletId}/webhooks/endpoints`, {
        token: team().owner.token,
        body: { name: 'Orders', url: TARGET, ...body },
      }),
      201,
      'payments',
    );
  const storedRow = async (id: string) => {
    const [row] = await team().t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    return row;
  };

  before(async () => {
    wallet = await createWallet(team().owner);
    endpoint = await createEndpoint(wallet.id);
  });

  // Only the wallet's owner has a role: anyone else gets the 404 of an unknown id (below).
  checkAuth(
    'webhook endpoint routes',
    () => team().t,
    () => {
      const url = `/webhooks/endpoints/${endpoint.id}`;
      return [
        {
          method: 'POST',
          url: `/wallets/${wallet.id}/webhooks/endpoints`,
          body: { name: 'X', url: TARGET },
        },
        { method: 'GET', url: `/wallets/${wallet.id}/webhooks/endpoints` },
        { method: 'GET', url },
        { method: 'PATCH', url, body: { enabled: false } },
        { method: 'DELETE', url },
        { method: 'POST', url: `${url}/rotate-secret` },
      ];
    },
  );
  describe('POST and reads', () => {
    it('registers an endpoint with a whsec_ secret shown once and stored sealed', async () => {
      const { t, owner } = team();
      const mine = await createWallet(owner);
      const response = await t.post<WebhookEndpointWithSecret>(`/wallets/${mine.id}/webhooks/endpoints`, {
        token: owner.token,
        body: { name: 'Orders', url: 'https://orders.example.com/hook', event_types: ['payment.succeeded'] },
      });
      const made = expectOk(response, 201, 'payments');
      assert.equal(response.body.message, 'Created');
      assert.deepEqual(Object.keys(made).sort(), [...ENDPOINT_KEYS, 'secret'].sort());
      assert.match(made.id, UUID_V7);
      assert.match(made.secret, SECRET);
      assert.deepEqual(
        [made.wallet_id, made.name, made.url, made.enabled, made.event_types, made.disabled_reason],
        [mine.id, 'Orders', 'https://orders.example.com/hook', true, ['payment.succeeded'], null],
      );
      assert.match(made.created_at, ISO);
      assert.match(made.updated_at, ISO);

      const row = await storedRow(made.id);
      assert.ok(row);
      assert.ok(!row.secret.includes(made.secret.slice(6)), 'the stored secret is not the plaintext');
      assert.equal(open(KEY, row.secret), made.secret);
      assert.equal(row.previous_secret, null);
      assert.equal(row.previous_secret_expires_at, null);

      const { secret: _secret, ...shown } = made;
      const { health, ...read } = expectOk(
        await t.get<WebhookEndpointWithHealth>(path(made.id), { token: owner.token }),
        200,
        'payments',
      );
      assert.deepEqual(read, shown);
      assert.equal('secret' in read, false);
      // A new endpoint: no attempt yet, its breaker closed (the worker's tests move it).
      assert.deepEqual(
        { ...health, since: undefined },
        {
          state: 'healthy',
          since: undefined,
          attempts: 0,
          success_rate: null,
          consecutive_failures: 0,
          paused_until: null,
        },
      );
      const hourAgo = new Date(Date.now() - 3_600_000);
      assert.ok(
        new Date(health.since) <= hourAgo && new Date(health.since) > new Date(hourAgo.getTime() - 3_600_000),
      );
      // No event types means every type (stored as null).
      const all = await createEndpoint(mine.id);
      assert.equal(all.event_types, null);
      assert.notEqual(all.secret, made.secret);
    });

    it('lists the wallet’s endpoints newest first, paginated, without secrets', async () => {
      const { t, owner } = team();
      const mine = await createWallet(owner);
      const first = await createEndpoint(mine.id, { name: 'First' });
      const second = await createEndpoint(mine.id, { name: 'Second' });
      const list = await t.get<WebhookEndpoint[]>(`/wallets/${mine.id}/webhooks/endpoints?limit=1`, {
        token: owner.token,
      });
      const items = expectOk(list, 200, 'payments');
      assert.deepEqual(
        items.map((item) => item.id),
        [second.id],
      );
      assert.deepEqual(Object.keys(items[0]).sort(), ENDPOINT_KEYS);
      assert.equal(list.body.pagination.total, 2);
      assert.equal(list.body.pagination.has_next, true);
      const page2 = expectOk(
        await t.get<WebhookEndpoint[]>(`/wallets/${mine.id}/webhooks/endpoints?page=2&limit=1`, {
          token: owner.token,
        }),
      );
      assert.deepEqual(
        page2.map((item) => item.id),
        [first.id],
      );
      const empty = await createWallet(owner);
      assert.deepEqual(
        expectOk(
          await t.get<WebhookEndpoint[]>(`/wallets/${empty.id}/webhooks/endpoints`, { token: owner.token }),
        ),
        [],
      );
    });

    it('refuses malformed JSON and invalid fields (400 naming the field)', async () => {
      const { t, owner } = team();
      const url = `/wallets/${wallet.id}/webhooks/endpoints`;
      await expectMalformedJson(t, 'POST', url, owner);
      const cases: Array<[string, unknown, string]> = [
        ['no name', { url: TARGET }, 'name'],
        ['no url', { name: 'X' }, 'url'],
        ['an empty name', { name: '', url: TARGET }, 'name'],
        ['a long name', { name: 'x'.repeat(201), url: TARGET }, 'name'],
        ['a number as name', { name: 5, url: TARGET }, 'name'],
        ['an ftp url', { name: 'X', url: 'ftp://example.com/hook' }, 'url'],
        ['a relative url', { name: 'X', url: '/hook' }, 'url'],
        ['a long url', { name: 'X', url: `https://example.com/${'a'.repeat(2048)}` }, 'url'],
        ['an unknown event type', { name: 'X', url: TARGET, event_types: ['payment.paid'] }, 'event_types.0'],
        ['a non-array of types', { name: 'X', url: TARGET, event_types: 'payment.succeeded' }, 'event_types'],
        ['an empty list of types', { name: 'X', url: TARGET, event_types: [] }, 'event_types'],
        [
          'repeated types',
          { name: 'X', url: TARGET, event_types: ['payment.succeeded', 'payment.succeeded'] },
          'event_types',
        ],
        ['an unknown field', { name: 'X', url: TARGET, secret: 'whsec_mine' }, 'secret'],
      ];
      for (const [label, body, field] of cases) {
        expectInvalid(await t.post(url, { token: owner.token, body }), label, field);
      }
      expectInvalid(
        await t.post<WebhookEndpointWithSecret>('/wallets/not-a-uuid/webhooks/endpoints', {
          token: owner.token,
          body: { name: 'X', url: TARGET },
        }),
        'bad wallet id',
        'params.wallet_id',
      );
      expectInvalid(await t.get(`${url}?limit=101`, { token: owner.token }), 'limit 101', 'query.limit');
      expectInvalid(
        await t.get<WebhookEndpoint>(path('not-a-uuid'), { token: owner.token }),
        'bad endpoint id',
        'params.endpoint_id',
      );
    });

    it('answers 404 for an unknown wallet or endpoint', async () => {
      const { t, owner } = team();
      const body = { name: 'X', url: TARGET };
      expectError(
        await t.post<WebhookEndpointWithSecret>(`/wallets/${UNKNOWN_ID}/webhooks/endpoints`, {
          token: owner.token,
          body,
        }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.get<WebhookEndpoint[]>(`/wallets/${UNKNOWN_ID}/webhooks/endpoints`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectError(await t.get<WebhookEndpoint>(path(UNKNOWN_ID), { token: owner.token }), 404, 'NOT_FOUND');
      expectError(
        await t.patch<WebhookEndpoint>(path(UNKNOWN_ID), { token: owner.token, body: { enabled: true } }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.delete<WebhookEndpoint>(path(UNKNOWN_ID), { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.post<WebhookEndpointWithSecret>(`${path(UNKNOWN_ID)}/rotate-secret`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
    });
  });

  describe('PATCH and DELETE', () => {
    it('changes name, url, event types and enabled, read back; the secret is untouched', async () => {
      const { t, owner } = team();
      const mine = await createEndpoint(wallet.id, { event_types: ['payment.succeeded'] });
      const before = await storedRow(mine.id);
      const changed = expectOk(
        await t.patch<WebhookEndpoint>(path(mine.id), {
          token: owner.token,
          body: {
            name: 'Renamed',
            url: 'https://new.example.com/hook',
            event_types: ['payment.refunded', 'payment.failed'],
            enabled: false,
          },
        }),
        200,
        'payments',
      );
      assert.deepEqual(Object.keys(changed).sort(), ENDPOINT_KEYS);
      assert.deepEqual(
        [changed.name, changed.url, changed.event_types, changed.enabled],
        ['Renamed', 'https://new.example.com/hook', ['payment.refunded', 'payment.failed'], false],
      );
      assert.ok(changed.updated_at >= mine.updated_at);
      const { health: _health, ...readBack } = expectOk(
        await t.get<WebhookEndpointWithHealth>(path(mine.id), { token: owner.token }),
      );
      assert.deepEqual(readBack, changed);
      // event_types null means every type again.
      const all = expectOk(
        await t.patch<WebhookEndpoint>(path(mine.id), { token: owner.token, body: { event_types: null } }),
      );
      assert.equal(all.event_types, null);
      assert.equal(all.name, 'Renamed');
      assert.equal((await storedRow(mine.id))?.secret, before?.secret);
    });

    it('enabling clears the reason the service disabled it for', async () => {
      const { t, owner } = team();
      const mine = await createEndpoint(wallet.id);
      await t.db
        .update(webhookEndpoints)
        .set({ enabled: false, disabled_reason: 'gone' })
        .where(eq(webhookEndpoints.id, mine.id));
      const disabled = expectOk(await t.get<WebhookEndpoint>(path(mine.id), { token: owner.token }));
      assert.deepEqual([disabled.enabled, disabled.disabled_reason], [false, 'gone']);
      const enabled = expectOk(
        await t.patch<WebhookEndpoint>(path(mine.id), { token: owner.token, body: { enabled: true } }),
      );
      assert.deepEqual([enabled.enabled, enabled.disabled_reason], [true, null]);
    });

    it('refuses bad PATCH bodies (400 naming the field)', async () => {
      const { t, owner } = team();
      const url = path(endpoint.id);
      await expectMalformedJson(t, 'PATCH', url, owner);
      const cases: Array<[string, unknown, string]> = [
        ['an empty name', { name: '' }, 'name'],
        ['a bad url scheme', { url: 'javascript:alert(1)' }, 'url'],
        ['a string as enabled', { enabled: 'yes' }, 'enabled'],
        ['an unknown event type', { event_types: ['refund'] }, 'event_types'],
        ['an unknown field', { secret: 'whsec_x' }, 'secret'],
      ];
      for (const [label, body, field] of cases) {
        expectInvalid(await t.patch(url, { token: owner.token, body }), label, field);
      }
      const empty = await t.patch(url, { token: owner.token, body: {} });
      expectError(empty, 400, 'VALIDATION_ERROR');
    });

    it('deletes an endpoint for good, answering it', async () => {
      const { t, owner } = team();
      const mine = await createEndpoint(wallet.id);
      const { secret: _secret, ...shown } = mine;
      const deleted = expectOk(
        await t.delete<WebhookEndpoint>(path(mine.id), { token: owner.token }),
        200,
        'payments',
      );
      assert.deepEqual(deleted, shown);
      assert.equal(await storedRow(mine.id), undefined);
      expectError(await t.get<WebhookEndpoint>(path(mine.id), { token: owner.token }), 404, 'NOT_FOUND');
      expectError(await t.delete<WebhookEndpoint>(path(mine.id), { token: owner.token }), 404, 'NOT_FOUND');
    });

    it('leaves another owner’s endpoint alone, answering as for an unknown id (404, nothing changed)', async () => {
      const { t, owner, outsider } = team();
      const rowBefore = await storedRow(endpoint.id);
      const listBefore = expectOk(
        await t.get<WebhookEndpoint[]>(`/wallets/${wallet.id}/webhooks/endpoints`, { token: owner.token }),
      );
      const gone = path(UNKNOWN_ID);
      await expectHiddenFrom(t, outsider, [
        {
          method: 'POST',
          url: `/wallets/${wallet.id}/webhooks/endpoints`,
          body: { name: 'Mine', url: TARGET },
          unknown: { url: `/wallets/${UNKNOWN_ID}/webhooks/endpoints` },
        },
        {
          method: 'GET',
          url: `/wallets/${wallet.id}/webhooks/endpoints`,
          unknown: { url: `/wallets/${UNKNOWN_ID}/webhooks/endpoints` },
        },
        { method: 'GET', url: path(endpoint.id), unknown: { url: gone } },
        { method: 'PATCH', url: path(endpoint.id), body: { name: 'Mine' }, unknown: { url: gone } },
        { method: 'DELETE', url: path(endpoint.id), unknown: { url: gone } },
        {
          method: 'POST',
          url: `${path(endpoint.id)}/rotate-secret`,
          unknown: { url: `${gone}/rotate-secret` },
        },
      ]);
      const row = await storedRow(endpoint.id);
      assert.equal(row?.name, 'Orders');
      assert.deepEqual(row, rowBefore);
      assert.deepEqual(
        expectOk(
          await t.get<WebhookEndpoint[]>(`/wallets/${wallet.id}/webhooks/endpoints`, { token: owner.token }),
        ),
        listBefore,
      );
    });
  });

  describe('POST rotate-secret', () => {
    it('issues a new secret; the old one becomes the previous, sealed, expiring in 24 h', async () => {
      const { t, owner } = team();
      const mine = await createEndpoint(wallet.id);
      const startedAt = Date.now();
      const response = await t.post<WebhookEndpointWithSecret>(`${path(mine.id)}/rotate-secret`, {
        token: owner.token,
      });
      const rotated = expectOk(response, 200, 'payments');
      assert.deepEqual(Object.keys(rotated).sort(), [...ENDPOINT_KEYS, 'secret'].sort());
      assert.match(rotated.secret, SECRET);
      assert.notEqual(rotated.secret, mine.secret);
      assert.equal(rotated.id, mine.id);

      const row = await storedRow(mine.id);
      assert.ok(row?.previous_secret && row.previous_secret_expires_at);
      assert.ok(!row.secret.includes(rotated.secret.slice(6)));
      assert.ok(!row.previous_secret.includes(mine.secret.slice(6)));
      assert.equal(open(KEY, row.secret), rotated.secret);
      assert.equal(open(KEY, row.previous_secret), mine.secret);
      const expiresIn = row.previous_secret_expires_at.getTime() - startedAt;
      const day = 24 * 60 * 60 * 1000;
      assert.ok(expiresIn > day - 60_000 && expiresIn < day + 60_000, `expires in ${expiresIn} ms`);
      // Reads never show either secret.
      assert.equal(
        'secret' in expectOk(await t.get<WebhookEndpoint>(path(mine.id), { token: owner.token })),
        false,
      );

      // A second rotation: the latest secret becomes the previous one.
      const again = expectOk(
        await t.post<WebhookEndpointWithSecret>(`${path(mine.id)}/rotate-secret`, { token: owner.token }),
      );
      const after = await storedRow(mine.id);
      assert.equal(open(KEY, after!.secret), again.secret);
      assert.equal(open(KEY, after!.previous_secret!), rotated.secret);
    });
  });
});

describe('webhook endpoints without private targets', () => {
  const team = usePaymentsTeam({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
  const { createWallet } = paymentsFixtures(team);

  it('refuses loopback and private URLs on create and on change (400 naming url)', async () => {
    const { t, owner } = team();
    const mine = await createWallet(owner);
    const url = `/wallets/${mine.id}/webhooks/endpoints`;
    for (const target of [
      'http://127.0.0.1:9/hook',
      'http://localhost/hook',
      'http://[::1]/hook',
      'http://10.1.2.3/',
    ]) {
      expectInvalid(
        await t.post(url, { token: owner.token, body: { name: 'X', url: target } }),
        target,
        'url',
      );
    }
    assert.deepEqual(expectOk(await t.get(url, { token: owner.token })), []);
    // A public literal address passes (no DNS needed), and changing it to a private one is refused.
    const made = expectOk(
      await t.post<WebhookEndpointWithSecret>(url, {
        token: owner.token,
        body: { name: 'Public', url: 'https://8.8.8.8/hook' },
      }),
      201,
    );
    expectInvalid(
      await t.patch<WebhookEndpoint>(`/webhooks/endpoints/${made.id}`, {
        token: owner.token,
        body: { url: 'http://localhost/hook' },
      }),
      'patch to localhost',
      'url',
    );
    assert.equal(
      expectOk(await t.get<WebhookEndpoint>(`/webhooks/endpoints/${made.id}`, { token: owner.token })).url,
      'https://8.8.8.8/hook',
    );
  });

  it('refuses special-purpose targets in every written form on create and on change', async () => {
    const { t, owner } = team();
    const mine = await createWallet(owner);
    const url = `/wallets/${mine.id}/webhooks/endpoints`;
    const made = expectOk(
      await t.post<WebhookEndpointWithSecret>(url, {
        token: owner.token,
        body: { name: 'Public', url: 'https://[2606:4700::1111]/' },
      }),
      201,
    );
    for (const target of [
      'http://[::127.0.0.1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[2002:7f00:1::1]/',
      'http://224.0.0.1/',
      'http://255.255.255.255/',
      'http://198.18.0.1/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::ffff:7f00:1]/',
    ]) {
      expectInvalid(
        await t.post(url, { token: owner.token, body: { name: 'X', url: target } }),
        target,
        'url',
      );
      expectInvalid(
        await t.patch<WebhookEndpoint>(`/webhooks/endpoints/${made.id}`, {
          token: owner.token,
          body: { url: target },
        }),
        `patch to ${target}`,
        'url',
      );
    }
    assert.deepEqual(
      expectOk(await t.get<WebhookEndpoint[]>(url, { token: owner.token })).map((endpoint) => endpoint.url),
      ['https://[2606:4700::1111]/'],
    );
  });
});
