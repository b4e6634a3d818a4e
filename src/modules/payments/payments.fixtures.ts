/**
 * Shared helpers of the payments tests: a test app with an owner and an outsider, wallets, test
 * sellers and test intents made through the API, reads of the stored payment events, and sellers
 * connected through the real OAuth flow against the Mercado Pago simulator.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { asc, eq } from 'drizzle-orm';
import { expectError, expectFields, expectOk } from '../../../test/assertions.ts';
import { type ApiResponse, createTestApp, type TestApp, type TestUser } from '../../../test/harness.ts';
import type { MercadoPagoSimulator } from '../../../test/mercadopago-simulator.ts';
import { uuidv7 } from '../../kernel/db/ids.ts';
import type { ConnectResult } from './connections/connections.schemas.ts';
import type { Intent } from './intents/intents.schemas.ts';
import { paymentEvents } from './intents/intents.table.ts';
import type { Seller, Wallet } from './wallets/wallets.schemas.ts';
import { collectors } from './wallets/wallets.table.ts';
import type { WebhookEndpointWithSecret } from './webhooks/endpoints/endpoints.schemas.ts';

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const UNKNOWN_ID = '01937a4e-0000-7000-8000-0000000000ff';
export const MALFORMED_JSON = '{"name": "Broken", ';
export const WALLET_KEYS = [
  'collector_id',
  'created_at',
  'fee_bps',
  'id',
  'name',
  'owner_id',
  'sandbox',
  'updated_at',
];
export const SELLER_KEYS = ['created_at', 'id', 'provider', 'provider_user_id', 'revoked_at', 'wallet_id'];
export const INTENT_KEYS = [
  'amount_cents',
  'collector_id',
  'created_at',
  'currency',
  'id',
  'metadata',
  'provider',
  'provider_data',
  'refunded_cents',
  'sandbox',
  'seller_id',
  'status',
  'status_detail',
  'updated_at',
  'wallet_id',
];

export function expectInvalid(response: ApiResponse, label: string, ...fields: string[]): void {
  try {
    expectFields(response, ...fields);
    assert.equal(response.body.module, 'payments');
  } catch (error) {
    throw new Error(`${label}: ${(error as Error).message}`);
  }
}

export async function expectMalformedJson(
  t: TestApp,
  method: 'POST' | 'PATCH',
  url: string,
  by: TestUser,
): Promise<void> {
  const response = await t.request(method, url, {
    token: by.token,
    payload: MALFORMED_JSON,
    contentType: 'application/json',
  });
  expectError(response, 400, 'BAD_REQUEST');
  assert.equal(response.body.module, 'payments');
}

/** A request at something of a wallet, and the same request naming an id that does not exist. */
export interface HiddenCase {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  /** The request naming an unknown id; `url` and `body` where left out. */
  unknown: { url?: string; body?: unknown };
}

/**
 * A wallet and what it owns are not public (docs/reference/auth.md): to anyone but the wallet's owner they
 * are unknown. Each case, sent by `stranger`, must get exactly what the same request naming an unknown id
 * gets: 404 `NOT_FOUND`, the same message and body, but for the timestamp.
 */
export async function expectHiddenFrom(t: TestApp, stranger: TestUser, cases: HiddenCase[]): Promise<void> {
  for (const { method, url, body, unknown } of cases) {
    const send = (to: string, payload: unknown) =>
      t.request(method, to, { token: stranger.token, ...(payload === undefined ? {} : { body: payload }) });
    const hidden = await send(url, body);
    const missing = await send(unknown.url ?? url, 'body' in unknown ? unknown.body : body);
    try {
      expectError(missing, 404, 'NOT_FOUND');
      expectError(hidden, 404, 'NOT_FOUND');
      assert.equal(hidden.body.module, 'payments');
      assert.deepEqual({ ...hidden.body, timestamp: 0 }, { ...missing.body, timestamp: 0 });
    } catch (error) {
      throw new Error(`${method} ${url} by a stranger: ${(error as Error).message}`);
    }
  }
}

export interface PaymentsTeam {
  t: TestApp;
  owner: TestUser;
  outsider: TestUser;
}

/** A test app (with `env`) and two actors, started in `before` and closed in `after`. */
export function usePaymentsTeam(env: Record<string, string> = {}): () => PaymentsTeam {
  let team: PaymentsTeam | undefined;
  before(async () => {
    const t = await createTestApp(env);
    team = { t, owner: await t.actor('owner'), outsider: await t.actor('outsider') };
  });
  after(() => team?.t.close());
  return () => {
    if (team === undefined) throw new Error('the team starts in a before hook');
    return team;
  };
}

let nameCount = 0;
export const newName = (prefix = 'Wallet') => `${prefix} ${process.pid}-${nameCount++}`;

export function paymentsFixtures(team: () => PaymentsTeam) {
  const t = () => team().t;
  const createWallet = async (by: TestUser, name = newName()) =>
    expectOk(await t().post<Wallet>('/wallets', { token: by.token, body: { name } }), 201, 'payments');
  const createSeller = async (by: TestUser, walletId: string) =>
    expectOk(
      await t().post<Seller>('/testmode/sellers', {
        token: by.token,
        body: { wallet_id: walletId, provider: 'mercadopago' },
      }),
      201,
      'payments',
    );
  const intentBody = (walletId: string, sellerId: string, fields: Record<string, unknown> = {}) => ({
    wallet_id: walletId,
    seller_id: sellerId,
    amount_cents: 5000,
    currency: 'BRL',
    sandbox: true,
    provider: 'mercadopago',
    status: 'pending',
    ...fields,
  });
  const createIntent = async (
    by: TestUser,
    walletId: string,
    sellerId: string,
    fields: Record<string, unknown> = {},
  ) =>
    expectOk(
      await t().post<Intent>('/testmode/intents/create', {
        token: by.token,
        body: intentBody(walletId, sellerId, fields),
      }),
      201,
      'payments',
    );
  /** An endpoint of `walletId` at `url`, made by `by` (with `headers`: a language, say). */
  const createEndpoint = async (
    by: TestUser,
    walletId: string,
    body: { name: string; url: string },
    headers: Record<string, string> = {},
  ) =>
    expectOk(
      await t().post<WebhookEndpointWithSecret>(`/wallets/${walletId}/webhooks/endpoints`, {
        token: by.token,
        body,
        headers,
      }),
      201,
      'payments',
    );
  return {
    createWallet,
    createSeller,
    createIntent,
    createEndpoint,
    intentBody,
    /** A wallet of `by` with one test seller. */
    async walletWithSeller(by: TestUser) {
      const wallet = await createWallet(by);
      return { wallet, seller: await createSeller(by, wallet.id) };
    },
    /** The stored payment events of an intent, oldest first. */
    eventsOf: (intentId: string) =>
      t()
        .db.select()
        .from(paymentEvents)
        .where(eq(paymentEvents.intent_id, intentId))
        .orderBy(asc(paymentEvents.created_at), asc(paymentEvents.id)),
    /** A collector row made directly (the OAuth callback that makes them is tested elsewhere). */
    async insertCollector(ownerId: string, revoked = false): Promise<string> {
      const id = uuidv7();
      await t()
        .db.insert(collectors)
        .values({
          id,
          owner_id: ownerId,
          provider: 'mercadopago',
          provider_user_id: `mp_${id.slice(-6)}`,
          revoked_at: revoked ? new Date() : null,
        });
      return id;
    },
  };
}

/** The OAuth application the simulator is started with (`startMercadoPagoSimulator(SIM_CLIENT)`). */
export const SIM_CLIENT = { clientId: 'sim-client', clientSecret: 'sim-secret' };
/** Only the redirect URI is built from it: nothing listens there (the callback is injected). */
export const SIM_PUBLIC_BASE_URL = 'http://127.0.0.1:8080';

/** The environment of a test app whose Mercado Pago is `sim`. */
export const simulatorEnv = (sim: MercadoPagoSimulator): Record<string, string> => ({
  MERCADOPAGO_CLIENT_ID: SIM_CLIENT.clientId,
  MERCADOPAGO_CLIENT_SECRET: SIM_CLIENT.clientSecret,
  MERCADOPAGO_AUTH_URL: sim.url,
  MERCADOPAGO_API_URL: sim.url,
  PUBLIC_BASE_URL: SIM_PUBLIC_BASE_URL,
});

/**
 * A seller of `walletId` with real simulator credentials, made by the whole OAuth flow: connect,
 * the consent at the simulator (real HTTP), the callback. Returns the seller id; its access token
 * is the simulator's latest (`sim.issuedTokens.at(-1)`).
 */
export async function connectSeller(t: TestApp, by: TestUser, walletId: string): Promise<string> {
  const { url } = expectOk(
    await t.post<ConnectResult>('/providers/mercadopago/connect', {
      token: by.token,
      body: { flow: 'seller', final_redirect_url: 'https://app.example.com/sellers', wallet_id: walletId },
    }),
    200,
    'payments',
  );
  const consent = await fetch(url, { redirect: 'manual' });
  assert.equal(consent.status, 302);
  const callback = new URL(consent.headers.get('location')!);
  const answer = await t.get(`${callback.pathname}${callback.search}`);
  assert.equal(answer.status, 302, answer.text);
  const back = new URL(answer.headers.location as string);
  assert.equal(back.searchParams.get('status'), 'connected', back.toString());
  return back.searchParams.get('credential_id')!;
}
