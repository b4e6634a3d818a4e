/**
 * Revoking someone else's credential (docs/reference/auth.md and docs/reference/payments.md). A collector,
 * and a seller as something a wallet owns, is not public: to a caller with no role on it, `POST
 * /providers/{provider}/revoke` answers exactly what an unknown id gets (404), so credential ids cannot be
 * probed, and a revoked one does not betray its state with a 409 either. Nothing is revoked by such a call.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { type ApiResponse, createTestApp, type TestApp, type TestUser } from '../../../../test/harness.ts';
import {
  type MercadoPagoSimulator,
  startMercadoPagoSimulator,
} from '../../../../test/mercadopago-simulator.ts';
import type { Seller, Wallet } from '../wallets/wallets.schemas.ts';
import type { Collector, ConnectResult, RevokeResult } from './connections.schemas.ts';

const CLIENT = { clientId: 'sim-client', clientSecret: 'sim-secret' };
const PUBLIC_BASE_URL = 'http://127.0.0.1:8080';
const UNKNOWN_ID = '01937a4e-0000-7000-8000-0000000000ff';

describe('revoking a credential of someone else', () => {
  let sim: MercadoPagoSimulator;
  let t: TestApp;
  let ana: TestUser;
  let bea: TestUser;
  let anaWallet: string;

  before(async () => {
    sim = await startMercadoPagoSimulator(CLIENT);
    t = await createTestApp({
      MERCADOPAGO_CLIENT_ID: CLIENT.clientId,
      MERCADOPAGO_CLIENT_SECRET: CLIENT.clientSecret,
      MERCADOPAGO_AUTH_URL: sim.url,
      MERCADOPAGO_API_URL: sim.url,
      PUBLIC_BASE_URL,
    });
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

  /** Ana's collector, connected through the whole OAuth flow at the simulator (real HTTP). */
  async function connectCollector(): Promise<string> {
    const { url } = expectOk(
      await t.post<ConnectResult>('/providers/mercadopago/connect', {
        token: ana.token,
        body: { flow: 'collector', final_redirect_url: 'https://a.example/' },
      }),
      200,
      'payments',
    );
    const consent = await fetch(url, { redirect: 'manual' });
    assert.equal(consent.status, 302);
    const callback = consent.headers.get('location')!.slice(PUBLIC_BASE_URL.length);
    const back = await t.get(callback);
    assert.equal(back.status, 302, back.text);
    return new URL(back.headers.location as string).searchParams.get('credential_id')!;
  }

  /** A seller of Ana's wallet (a test seller: no OAuth needed for the question asked here). */
  async function connectSeller(): Promise<string> {
    return expectOk(
      await t.post<Seller>('/testmode/sellers', {
        token: ana.token,
        body: { wallet_id: anaWallet, provider: 'mercadopago' },
      }),
      201,
      'payments',
    ).id;
  }

  const revoke = (user: TestUser, flow: 'collector' | 'seller', id: string) =>
    t.post<RevokeResult>('/providers/mercadopago/revoke', { token: user.token, body: { flow, id } });

  /** Asserts `answer` is the 404 an unknown id gets, word for word. */
  async function expectLikeUnknown(answer: ApiResponse, flow: 'collector' | 'seller', label: string) {
    const unknown = await revoke(bea, flow, UNKNOWN_ID);
    expectError(unknown, 404, 'NOT_FOUND');
    expectError(answer, 404, 'NOT_FOUND');
    assert.deepEqual(
      { ...answer.body, timestamp: undefined },
      { ...unknown.body, timestamp: undefined },
      `${label}: answers like an unknown id`,
    );
  }

  it("answers 404 for another user's collector, as for an unknown id, and leaves it alone", async () => {
    const collectorId = await connectCollector();
    await expectLikeUnknown(await revoke(bea, 'collector', collectorId), 'collector', 'live collector');
    const [listed] = expectOk(await t.get<Collector[]>('/collectors', { token: ana.token })).filter(
      (entry: { id: string }) => entry.id === collectorId,
    );
    assert.equal(listed.revoked_at, null, 'still live');

    // Revoked by its owner, it still tells an outsider nothing (no 409).
    expectOk(await revoke(ana, 'collector', collectorId));
    await expectLikeUnknown(await revoke(bea, 'collector', collectorId), 'collector', 'revoked collector');
  });

  it('answers 404 for a seller of a wallet the caller does not own, as for an unknown id, and leaves it alone', async () => {
    const sellerId = await connectSeller();
    await expectLikeUnknown(await revoke(bea, 'seller', sellerId), 'seller', 'live seller');
    const sellers = expectOk(await t.get<Seller[]>(`/wallets/${anaWallet}/sellers`, { token: ana.token }));
    assert.equal(
      sellers.find((entry: { id: string }) => entry.id === sellerId)?.revoked_at,
      null,
      'still live',
    );

    expectOk(await revoke(ana, 'seller', sellerId));
    await expectLikeUnknown(await revoke(bea, 'seller', sellerId), 'seller', 'revoked seller');
  });
});
