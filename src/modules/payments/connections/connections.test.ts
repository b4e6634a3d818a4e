/**
 * Provider connections (docs/reference/payments.md) against the Mercado Pago simulator over real HTTP: the
 * whole OAuth flow (connect, consent, callback, stored collector, binding to a wallet), refused states, PKCE,
 * the seller flow, collectors, revocation, provider failures and the auth table.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { expectError, expectFields, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.ts';
import {
  type MercadoPagoSimulator,
  startMercadoPagoSimulator,
} from '../../../../test/mercadopago-simulator.ts';
import { loadConfig } from '../../../kernel/config.ts';
import { open, seal } from '../../../kernel/secret-box.ts';
import { generateToken, hashToken } from '../../../kernel/tokens.ts';
import { expectHiddenFrom } from '../payments.fixtures.ts';
import type { Wallet } from '../wallets/wallets.schemas.ts';
import { collectors } from '../wallets/wallets.table.ts';
import type { Collector, ConnectResult, RevokeResult } from './connections.schemas.ts';
import { appendQuery } from './connections.service.ts';
import { oauthStates, sellers } from './connections.table.ts';

const CLIENT = { clientId: 'sim-client', clientSecret: 'sim-secret' };
const PUBLIC_BASE_URL = 'http://127.0.0.1:8080';
const CALLBACK = `${PUBLIC_BASE_URL}/providers/mercadopago/callback`;
const UNKNOWN_ID = '01937a4e-0000-7000-8000-0000000000ff';

describe('provider connections', () => {
  let sim: MercadoPagoSimulator;
  let t: TestApp;
  let key: Buffer;
  let ana: TestUser;
  let bea: TestUser;
  let anaWallet: string;

  before(async () => {
    sim = await startMercadoPagoSimulator(CLIENT);
    const env = {
      MERCADOPAGO_CLIENT_ID: CLIENT.clientId,
      MERCADOPAGO_CLIENT_SECRET: CLIENT.clientSecret,
      MERCADOPAGO_AUTH_URL: sim.url,
      MERCADOPAGO_API_URL: sim.url,
      PUBLIC_BASE_URL,
      SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    };
    t = await createTestApp(env);
    key = loadConfig({ ...env, NODE_ENV: 'test' }).secretsKey!;
    ana = await t.actor('ana');
    bea = await t.actor('bea');
    anaWallet = expectOk(
      await t.post<Wallet>('/wallets', { token: ana.token, body: { name: 'Ana shop' } }),
      201,
    ).id;
  });
  after(async () => {
    await t?.close();
    await sim?.close();
  });

  const connect = (user: TestUser, body: Record<string, unknown>) =>
    t.post<ConnectResult>('/providers/mercadopago/connect', { token: user.token, body });

  /** Follows the consent URL at the simulator (real HTTP) and returns the callback path + query. */
  async function consent(url: string): Promise<string> {
    const answer = await fetch(url, { redirect: 'manual' });
    assert.equal(answer.status, 302);
    const location = answer.headers.get('location')!;
    assert.ok(location.startsWith(`${CALLBACK}?`), location);
    return location.slice(PUBLIC_BASE_URL.length);
  }

  async function connectAndConsent(user: TestUser, body: Record<string, unknown>) {
    const { url } = expectOk(await connect(user, body), 200, 'payments');
    return { url: url as string, callback: await consent(url) };
  }

  it('runs the whole OAuth flow: connect, consent, callback, stored collector, wallet binding', async () => {
    const final = 'https://app.example.com/done?tab=pay%20ments&x=1#section';
    const { url, callback } = await connectAndConsent(ana, { flow: 'collector', final_redirect_url: final });

    const consentUrl = new URL(url);
    assert.equal(consentUrl.origin + consentUrl.pathname, `${sim.url}/authorization`);
    const q = consentUrl.searchParams;
    assert.equal(q.get('client_id'), CLIENT.clientId);
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('platform_id'), 'mp');
    assert.equal(q.get('redirect_uri'), CALLBACK);
    assert.equal(q.get('code_challenge_method'), 'S256');
    assert.match(q.get('code_challenge')!, /^[A-Za-z0-9_-]{43}$/);
    const state = q.get('state')!;
    assert.match(state, /^[A-Za-z0-9_-]{43}$/);

    // The state is stored hashed, the verifier sealed, expiring in about ten minutes.
    const [stored] = await t.db
      .select()
      .from(oauthStates)
      .where(eq(oauthStates.state_hash, hashToken(state)));
    assert.ok(stored);
    assert.ok(!JSON.stringify(stored).includes(state));
    assert.match(open(key, stored.code_verifier), /^[A-Za-z0-9_-]{43}$/);
    const ttl = stored.expires_at.getTime() - Date.now();
    assert.ok(ttl > 9 * 60_000 && ttl <= 10 * 60_000 + 5_000, `ttl ${ttl}`);

    const answer = await t.get(callback);
    assert.equal(answer.status, 302, answer.text);
    const location = answer.headers.location as string;
    assert.ok(
      location.startsWith('https://app.example.com/done?tab=pay%20ments&x=1&status=connected'),
      location,
    );
    assert.ok(location.endsWith('#section'), location);
    const back = new URL(location);
    assert.equal(back.searchParams.get('tab'), 'pay ments');
    assert.equal(back.searchParams.get('flow'), 'collector');
    const credentialId = back.searchParams.get('credential_id')!;

    // The collector: tokens sealed, not readable as plaintext.
    const [row] = await t.db.select().from(collectors).where(eq(collectors.id, credentialId));
    assert.ok(row?.credentials);
    assert.equal(row.owner_id, ana.id);
    const accessToken = sim.issuedTokens.at(-1)!;
    assert.ok(!row.credentials.includes(accessToken));
    const raw = await t.db.execute(sql`select credentials from collectors where id = ${credentialId}`);
    assert.ok(!JSON.stringify(raw).includes(accessToken));
    const opened = JSON.parse(open(key, row.credentials));
    assert.equal(opened.access_token, accessToken);
    assert.match(opened.refresh_token, /^TG-/);
    assert.ok(row.token_expires_at !== null && row.token_expires_at.getTime() > Date.now());

    // Listed without credentials.
    const list = expectOk(await t.get<Collector[]>('/collectors', { token: ana.token }), 200, 'payments');
    const listed = list.find((entry: { id: string }) => entry.id === credentialId)!;
    assert.deepEqual(Object.keys(listed).sort(), [
      'created_at',
      'id',
      'owner_id',
      'provider',
      'provider_user_id',
      'revoked_at',
    ]);
    assert.equal(listed.provider, 'mercadopago');
    assert.equal(listed.provider_user_id, String(row.provider_user_id));
    assert.equal(listed.revoked_at, null);
    assert.deepEqual(expectOk(await t.get<Collector[]>('/collectors', { token: bea.token })), []);

    // Bound to a wallet through the wallet route.
    const bound = expectOk(
      await t.post<Wallet>(`/wallets/${anaWallet}/collector`, {
        token: ana.token,
        body: { collector_id: credentialId },
      }),
    );
    assert.equal(bound.collector_id, credentialId);

    // The state is single-use: the same callback again is a 400 envelope, no redirect.
    const replay = await t.get(callback);
    expectError(replay, 400, 'BAD_REQUEST');
    assert.equal(replay.headers.location, undefined);
  });

  it('refuses an expired state and an unknown state (400, no exchange)', async () => {
    const { callback } = await connectAndConsent(ana, {
      flow: 'collector',
      final_redirect_url: 'https://app.example.com/x',
    });
    const state = new URL(callback, PUBLIC_BASE_URL).searchParams.get('state')!;
    await t.db
      .update(oauthStates)
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where(eq(oauthStates.state_hash, hashToken(state)));
    const before = sim.exchanges;
    expectError(await t.get(callback), 400, 'BAD_REQUEST');
    expectError(
      await t.get(`/providers/mercadopago/callback?code=x&state=${generateToken()}`),
      400,
      'BAD_REQUEST',
    );
    assert.equal(sim.exchanges, before);
    expectFields(await t.get('/providers/mercadopago/callback?code=x'), 'query.state');
  });

  it('fails the exchange with a wrong PKCE verifier: 302 with status=error', async () => {
    const { callback } = await connectAndConsent(ana, {
      flow: 'collector',
      final_redirect_url: 'https://app.example.com/back',
    });
    const state = new URL(callback, PUBLIC_BASE_URL).searchParams.get('state')!;
    await t.db
      .update(oauthStates)
      .set({ code_verifier: seal(key, generateToken()) })
      .where(eq(oauthStates.state_hash, hashToken(state)));
    const count = (await t.db.select().from(collectors)).length;
    const answer = await t.get(callback);
    assert.equal(answer.status, 302);
    assert.equal(
      answer.headers.location,
      'https://app.example.com/back?status=error&flow=collector&error=provider_error',
    );
    assert.equal((await t.db.select().from(collectors)).length, count);
    // The state was consumed all the same.
    expectError(await t.get(callback), 400, 'BAD_REQUEST');
  });

  it('reports the user refusing consent as access_denied', async () => {
    sim.denyNext();
    const { callback } = await connectAndConsent(ana, {
      flow: 'collector',
      final_redirect_url: 'https://app.example.com/back',
    });
    const answer = await t.get(callback);
    assert.equal(answer.status, 302);
    assert.equal(
      answer.headers.location,
      'https://app.example.com/back?status=error&flow=collector&error=access_denied',
    );
  });

  it('redirects with status=error when the provider fails or is down', async () => {
    sim.failNext(500);
    const { callback } = await connectAndConsent(ana, {
      flow: 'collector',
      final_redirect_url: 'https://app.example.com/back?a=1',
    });
    const answer = await t.get(callback);
    assert.equal(answer.status, 302);
    assert.equal(
      answer.headers.location,
      'https://app.example.com/back?a=1&status=error&flow=collector&error=provider_error',
    );

    // A provider that does not answer at all (nothing listens at the API URL).
    const down = await createTestApp({
      MERCADOPAGO_CLIENT_ID: CLIENT.clientId,
      MERCADOPAGO_CLIENT_SECRET: CLIENT.clientSecret,
      MERCADOPAGO_AUTH_URL: sim.url,
      MERCADOPAGO_API_URL: 'http://127.0.0.1:9',
      PUBLIC_BASE_URL,
    });
    try {
      const user = await down.actor('carla');
      const { url } = expectOk(
        await down.post<ConnectResult>('/providers/mercadopago/connect', {
          token: user.token,
          body: { flow: 'collector', final_redirect_url: 'https://app.example.com/back' },
        }),
      );
      const result = await down.get(await consent(url));
      assert.equal(result.status, 302);
      assert.match(result.headers.location as string, /status=error&flow=collector&error=provider_error$/);
    } finally {
      await down.close();
    }
  });

  it('stores a seller of the wallet in the seller flow', async () => {
    const { callback } = await connectAndConsent(ana, {
      flow: 'seller',
      final_redirect_url: 'https://app.example.com/sellers',
      wallet_id: anaWallet,
    });
    const answer = await t.get(callback);
    assert.equal(answer.status, 302);
    const back = new URL(answer.headers.location as string);
    assert.equal(back.searchParams.get('status'), 'connected');
    assert.equal(back.searchParams.get('flow'), 'seller');
    const [seller] = await t.db
      .select()
      .from(sellers)
      .where(eq(sellers.id, back.searchParams.get('credential_id')!));
    assert.equal(seller?.wallet_id, anaWallet);
    assert.equal(seller?.is_test, false);
    assert.equal(JSON.parse(open(key, seller!.credentials!)).access_token, sim.issuedTokens.at(-1));
  });

  it('revokes a collector and a seller, erasing credentials; 409 twice; 404 for others', async () => {
    const collectorId = new URL(
      (
        await t.get(
          (
            await connectAndConsent(ana, { flow: 'collector', final_redirect_url: 'https://a.example/' })
          ).callback,
        )
      ).headers.location as string,
    ).searchParams.get('credential_id')!;
    const sellerId = new URL(
      (
        await t.get(
          (
            await connectAndConsent(ana, {
              flow: 'seller',
              final_redirect_url: 'https://a.example/',
              wallet_id: anaWallet,
            })
          ).callback,
        )
      ).headers.location as string,
    ).searchParams.get('credential_id')!;

    const revoke = (user: TestUser, body: unknown, provider = 'mercadopago') =>
      t.post<RevokeResult>(`/providers/${provider}/revoke`, { token: user.token, body });
    // Not public (docs/reference/auth.md): someone else's credential is 404 (connections-revoke.test.ts).
    expectError(await revoke(bea, { flow: 'collector', id: collectorId }), 404, 'NOT_FOUND');
    expectError(await revoke(bea, { flow: 'seller', id: sellerId }), 404, 'NOT_FOUND');
    expectError(await revoke(ana, { flow: 'collector', id: UNKNOWN_ID }), 404, 'NOT_FOUND');
    expectError(await revoke(ana, { flow: 'seller', id: collectorId }), 404, 'NOT_FOUND');
    expectError(await revoke(ana, { flow: 'collector', id: collectorId }, 'stripe'), 404, 'NOT_FOUND');
    expectFields(await revoke(ana, { flow: 'other', id: collectorId }), 'flow');
    expectFields(await revoke(ana, { flow: 'collector', id: 'nope' }), 'id');

    const revoked = expectOk(await revoke(ana, { flow: 'collector', id: collectorId }));
    assert.equal(revoked.id, collectorId);
    assert.equal(revoked.flow, 'collector');
    assert.ok(revoked.revoked_at);
    const [row] = await t.db.select().from(collectors).where(eq(collectors.id, collectorId));
    assert.equal(row?.credentials, null);
    assert.ok(row?.revoked_at);
    expectError(await revoke(ana, { flow: 'collector', id: collectorId }), 409, 'CONFLICT');
    const listed = expectOk(await t.get<Collector[]>('/collectors', { token: ana.token })).find(
      (entry: { id: string }) => entry.id === collectorId,
    )!;
    assert.ok(listed.revoked_at);

    expectOk(await revoke(ana, { flow: 'seller', id: sellerId }));
    const [seller] = await t.db.select().from(sellers).where(eq(sellers.id, sellerId));
    assert.equal(seller?.credentials, null);
    expectError(await revoke(ana, { flow: 'seller', id: sellerId }), 409, 'CONFLICT');
  });

  it('validates connect: provider, URL, wallet_id rules and wallet ownership', async () => {
    const good = { flow: 'collector', final_redirect_url: 'https://app.example.com/' };
    expectError(
      await t.post<ConnectResult>('/providers/stripe/connect', { token: ana.token, body: good }),
      404,
      'NOT_FOUND',
    );
    expectError(await t.get('/providers/stripe/callback?state=abc'), 404, 'NOT_FOUND');
    expectFields(
      await connect(ana, { ...good, final_redirect_url: 'ftp://example.com/' }),
      'final_redirect_url',
    );
    expectFields(await connect(ana, { ...good, final_redirect_url: 'not a url' }), 'final_redirect_url');
    expectFields(await connect(ana, { flow: 'buyer', final_redirect_url: 'https://a.example/' }), 'flow');
    expectFields(await connect(ana, { ...good, extra: 1 }), 'extra');
    expectFields(await connect(ana, { ...good, flow: 'seller' }), 'wallet_id');
    expectFields(await connect(ana, { ...good, wallet_id: anaWallet }), 'wallet_id');
    expectError(await connect(ana, { ...good, flow: 'seller', wallet_id: UNKNOWN_ID }), 404, 'NOT_FOUND');
  });

  it('answers connect for a wallet the caller does not own as for an unknown one (404), storing no state', async () => {
    const statesOf = async (walletId: string) =>
      (await t.db.select().from(oauthStates).where(eq(oauthStates.wallet_id, walletId))).length;
    const before = await statesOf(anaWallet);
    const body = { flow: 'seller', final_redirect_url: 'https://bea.example/', wallet_id: anaWallet };
    await expectHiddenFrom(t, bea, [
      {
        method: 'POST',
        url: '/providers/mercadopago/connect',
        body,
        unknown: { body: { ...body, wallet_id: UNKNOWN_ID } },
      },
    ]);
    assert.equal(await statesOf(anaWallet), before);
  });

  it('answers 503 when the OAuth application is not configured', async () => {
    const bare = await createTestApp({ PUBLIC_BASE_URL });
    try {
      const user = await bare.actor('dora');
      const error = expectError(
        await bare.post('/providers/mercadopago/connect', {
          token: user.token,
          body: { flow: 'collector', final_redirect_url: 'https://a.example/' },
        }),
        503,
        'SERVICE_UNAVAILABLE',
      );
      assert.match(error.message, /MERCADOPAGO_CLIENT_ID/);
    } finally {
      await bare.close();
    }
  });

  it('appends the result to any final URL, encoded, keeping query and fragment', () => {
    const params = { status: 'connected', flow: 'seller', credential_id: 'a b&c' };
    assert.equal(
      appendQuery('https://x.example/p', params),
      'https://x.example/p?status=connected&flow=seller&credential_id=a+b%26c',
    );
    assert.equal(
      appendQuery('https://x.example/p?', params),
      'https://x.example/p?status=connected&flow=seller&credential_id=a+b%26c',
    );
    assert.equal(
      appendQuery('https://x.example/p?q=%C3%A9#h?x', params),
      'https://x.example/p?q=%C3%A9&status=connected&flow=seller&credential_id=a+b%26c#h?x',
    );
  });

  checkAuth(
    'protected connection routes',
    () => t,
    () => [
      // Someone else's wallet is the 404 of an unknown one, not a 403 (tested above).
      {
        method: 'POST',
        url: '/providers/mercadopago/connect',
        body: { flow: 'seller', final_redirect_url: 'https://a.example/', wallet_id: anaWallet },
      },
      { method: 'GET', url: '/collectors' },
      { method: 'POST', url: '/providers/mercadopago/revoke', body: { flow: 'collector', id: UNKNOWN_ID } },
    ],
  );
});
