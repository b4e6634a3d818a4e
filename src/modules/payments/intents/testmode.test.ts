/**
 * Test mode (docs/reference/payments.md): test sellers, intents created in any status and
 * simulated status changes, each recording its payment event; 503 when TEST_MODE is off. Someone
 * else's wallet and intents are unknown to the caller (404).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import type { AppError } from '../../../kernel/http/errors.ts';
import { sellers } from '../connections/connections.table.ts';
import {
  expectHiddenFrom,
  expectInvalid,
  expectMalformedJson,
  INTENT_KEYS,
  ISO,
  paymentsFixtures,
  SELLER_KEYS,
  UNKNOWN_ID,
  UUID_V7,
  usePaymentsTeam,
} from '../payments.fixtures.ts';
import { requireWalletOwner } from '../wallets/index.ts';
import type { Seller, Wallet } from '../wallets/wallets.schemas.ts';
import { createOutbox } from '../webhooks/delivery/outbox.ts';
import type { Intent } from './intents.schemas.ts';
import type { NewIntent } from './intents.table.ts';
import { createIntent as createIntentInOneStatement } from './intents.transitions.ts';

describe('test mode', () => {
  const team = usePaymentsTeam();
  const {
    createWallet,
    createSeller,
    createIntent,
    intentBody,
    walletWithSeller,
    eventsOf,
    insertCollector,
  } = paymentsFixtures(team);
  let wallet: Wallet;
  let seller: Seller;
  let intent: Intent;

  before(async () => {
    ({ wallet, seller } = await walletWithSeller(team().owner));
    intent = await createIntent(team().owner, wallet.id, seller.id);
  });

  // Only the wallet's owner has a role: anyone else gets the 404 of an unknown id (below).
  checkAuth(
    'test-mode routes',
    () => team().t,
    () => [
      {
        method: 'POST',
        url: '/testmode/sellers',
        body: { wallet_id: wallet.id, provider: 'mercadopago' },
      },
      {
        method: 'POST',
        url: '/testmode/intents/create',
        body: intentBody(wallet.id, seller.id),
      },
      {
        method: 'POST',
        url: `/testmode/intents/${intent.id}/simulate`,
        body: { status: 'succeeded' },
      },
    ],
  );

  it('answers a stranger exactly as for an unknown wallet or intent (404), writing nothing', async () => {
    const { t, owner, outsider } = team();
    // A sandbox wallet with a live seller, a revoked one and a pending and a final intent, and a
    // seller of another wallet: whatever the owner would be told (409, 404), a stranger is not.
    const { wallet: w, seller: live } = await walletWithSeller(owner);
    const revoked = await createSeller(owner, w.id);
    await t.db.update(sellers).set({ revoked_at: new Date() }).where(eq(sellers.id, revoked.id));
    const other = await walletWithSeller(owner);
    const pending = await createIntent(owner, w.id, live.id, { status: 'pending' });
    const final = await createIntent(owner, w.id, live.id, { status: 'refunded' });
    expectOk(
      await t.patch<Wallet>(`/wallets/${w.id}/sandbox`, { token: owner.token, body: { sandbox: true } }),
    );
    const sellersBefore = expectOk(await t.get<Seller[]>(`/wallets/${w.id}/sellers`, { token: owner.token }));
    const intentsBefore = expectOk(await t.get<Intent[]>(`/wallets/${w.id}/intents`, { token: owner.token }));

    const create = (body: unknown) => ({
      method: 'POST' as const,
      url: '/testmode/intents/create',
      body,
      unknown: { body: intentBody(UNKNOWN_ID, live.id) },
    });
    const simulate = (id: string) => ({
      method: 'POST' as const,
      url: `/testmode/intents/${id}/simulate`,
      body: { status: 'succeeded' },
      unknown: { url: `/testmode/intents/${UNKNOWN_ID}/simulate` },
    });
    await expectHiddenFrom(t, outsider, [
      {
        method: 'POST',
        url: '/testmode/sellers',
        body: { wallet_id: w.id, provider: 'mercadopago' },
        unknown: { body: { wallet_id: UNKNOWN_ID, provider: 'mercadopago' } },
      },
      // Ownership comes first: every other check of the statement answers the same.
      create(intentBody(w.id, live.id)),
      create(intentBody(w.id, UNKNOWN_ID)),
      create(intentBody(w.id, other.seller.id)),
      create(intentBody(w.id, revoked.id)),
      create(intentBody(w.id, live.id, { sandbox: false })),
      simulate(pending.id),
      simulate(final.id),
    ]);

    assert.deepEqual(
      expectOk(await t.get<Seller[]>(`/wallets/${w.id}/sellers`, { token: owner.token })),
      sellersBefore,
    );
    assert.deepEqual(
      expectOk(await t.get<Intent[]>(`/wallets/${w.id}/intents`, { token: owner.token })),
      intentsBefore,
    );
    assert.equal((await eventsOf(pending.id)).length, 1);
    assert.equal((await eventsOf(final.id)).length, 1);
  });

  it('decides whose wallet it is exactly as requireWalletOwner does (one-statement guard)', async () => {
    const { t, owner, outsider } = team();
    const { wallet: w, seller: s } = await walletWithSeller(owner);
    const policy = createOutbox([60], undefined, []);
    for (const caller of [owner, outsider]) {
      for (const walletId of [w.id, UNKNOWN_ID]) {
        const guard = await requireWalletOwner(t.db, walletId, {
          userId: caller.id,
          email: caller.email,
        }).then(
          () => 'found',
          (error: unknown) => ((error as AppError).code === 'NOT_FOUND' ? 'not found' : 'other'),
        );
        const values = {
          ...intentBody(walletId, s.id),
          id: uuidv7(),
          status_detail: null,
          provider_data: {},
          metadata: {},
        } as NewIntent;
        const created = await createIntentInOneStatement(t.db, caller.id, values, 'testmode', policy);
        assert.equal(
          created.refusal === 'no_wallet' ? 'not found' : 'found',
          guard,
          `wallet ${walletId === w.id ? "the owner's" : 'unknown'} asked by ${caller === owner ? 'its owner' : 'a stranger'}`,
        );
      }
    }
  });

  describe('POST /testmode/sellers', () => {
    it('creates a test seller without credentials, listed on the wallet', async () => {
      const { t, owner } = team();
      const w = await createWallet(owner);
      const made = await createSeller(owner, w.id);
      assert.deepEqual(Object.keys(made).sort(), SELLER_KEYS);
      assert.match(made.id, UUID_V7);
      assert.equal(made.wallet_id, w.id);
      assert.equal(made.provider, 'mercadopago');
      assert.match(made.provider_user_id, /^test_[0-9a-f]{16}$/);
      assert.match(made.created_at, ISO);
      assert.equal(made.revoked_at, null);
      assert.deepEqual(expectOk(await t.get<Seller[]>(`/wallets/${w.id}/sellers`, { token: owner.token })), [
        made,
      ]);
      const [row] = await t.db.select().from(sellers).where(eq(sellers.id, made.id));
      assert.equal(row?.is_test, true);
      assert.equal(row?.credentials, null);
      assert.equal(row?.owner_id, owner.id);
    });

    it('refuses bad bodies (400) and unknown wallets (404)', async () => {
      const { t, owner } = team();
      await expectMalformedJson(t, 'POST', '/testmode/sellers', owner);
      const cases: Array<[string, unknown, string]> = [
        ['missing wallet', { provider: 'mercadopago' }, 'wallet_id'],
        ['bad wallet id', { wallet_id: 'x', provider: 'mercadopago' }, 'wallet_id'],
        ['unknown provider', { wallet_id: wallet.id, provider: 'stripe' }, 'provider'],
        ['unknown field', { wallet_id: wallet.id, provider: 'mercadopago', x: 1 }, 'x'],
      ];
      for (const [label, body, field] of cases) {
        expectInvalid(await t.post<Seller>('/testmode/sellers', { token: owner.token, body }), label, field);
      }
      expectError(
        await t.post<Seller>('/testmode/sellers', {
          token: owner.token,
          body: { wallet_id: UNKNOWN_ID, provider: 'mercadopago' },
        }),
        404,
        'NOT_FOUND',
      );
    });
  });

  describe('POST /testmode/intents/create', () => {
    it('creates an intent in the status sent, with the wallet collector, and records its event', async () => {
      const { t, owner } = team();
      const { wallet: w, seller: s } = await walletWithSeller(owner);
      const collectorId = await insertCollector(owner.id);
      expectOk(
        await t.post<Wallet>(`/wallets/${w.id}/collector`, {
          token: owner.token,
          body: { collector_id: collectorId },
        }),
      );
      const response = await t.post<Intent>('/testmode/intents/create', {
        token: owner.token,
        body: intentBody(w.id, s.id, {
          amount_cents: 9_007_199_254_740_991,
          currency: 'USD',
          sandbox: false,
          status: 'rejected',
          status_detail: 'insufficient_funds',
          provider_data: { transaction_id: 'mp-42', raw: { a: 1 } },
          metadata: { order: 'A-1' },
        }),
      });
      const made = expectOk(response, 201, 'payments');
      assert.equal(response.body.message, 'Created');
      assert.deepEqual(Object.keys(made).sort(), INTENT_KEYS);
      assert.match(made.id, UUID_V7);
      assert.deepEqual(
        {
          wallet_id: made.wallet_id,
          seller_id: made.seller_id,
          collector_id: made.collector_id,
          amount_cents: made.amount_cents,
          currency: made.currency,
          sandbox: made.sandbox,
          provider: made.provider,
          status: made.status,
          status_detail: made.status_detail,
          provider_data: made.provider_data,
          metadata: made.metadata,
        },
        {
          wallet_id: w.id,
          seller_id: s.id,
          collector_id: collectorId,
          amount_cents: 9_007_199_254_740_991,
          currency: 'USD',
          sandbox: false,
          provider: 'mercadopago',
          status: 'rejected',
          status_detail: 'insufficient_funds',
          provider_data: { transaction_id: 'mp-42', raw: { a: 1 } },
          metadata: { order: 'A-1' },
        },
      );
      assert.deepEqual(expectOk(await t.get<Intent>(`/intents/${made.id}`, { token: owner.token })), made);
      const events = await eventsOf(made.id);
      assert.equal(events.length, 1);
      const [event] = events;
      assert.equal(event?.type, 'payment.rejected');
      assert.equal(event?.source, 'testmode');
      assert.equal(event?.wallet_id, w.id);
      assert.deepEqual(event?.payload, {
        event_id: event?.id,
        intent_id: made.id,
        wallet_id: w.id,
        provider: 'mercadopago',
        external_id: 'mp-42',
        status: 'rejected',
        status_detail: 'insufficient_funds',
        amount_cents: 9_007_199_254_740_991,
        currency: 'USD',
        sandbox: false,
        metadata: { order: 'A-1' },
      });
    });

    it('defaults status_detail to null, provider_data and metadata to {}, external_id to null', async () => {
      const { owner } = team();
      const made = await createIntent(owner, wallet.id, seller.id, { status: 'succeeded' });
      assert.deepEqual(
        [made.status_detail, made.provider_data, made.metadata, made.collector_id],
        [null, {}, {}, null],
      );
      const [event] = await eventsOf(made.id);
      assert.equal(event?.payload.external_id, null);
      assert.equal(event?.type, 'payment.succeeded');
    });

    it('refuses malformed JSON and invalid fields (400 naming the field)', async () => {
      const { t, owner } = team();
      await expectMalformedJson(t, 'POST', '/testmode/intents/create', owner);
      const base = intentBody(wallet.id, seller.id);
      const { wallet_id: _w, ...noWallet } = base;
      const cases: Array<[string, unknown, string]> = [
        ['no wallet_id', noWallet, 'wallet_id'],
        ['bad wallet_id', { ...base, wallet_id: 'nope' }, 'wallet_id'],
        ['bad seller_id', { ...base, seller_id: 12 }, 'seller_id'],
        ['amount as a string', { ...base, amount_cents: '100' }, 'amount_cents'],
        ['amount 0', { ...base, amount_cents: 0 }, 'amount_cents'],
        ['negative amount', { ...base, amount_cents: -5 }, 'amount_cents'],
        ['fractional amount', { ...base, amount_cents: 1.5 }, 'amount_cents'],
        ['amount beyond 2^53', { ...base, amount_cents: 2 ** 53 }, 'amount_cents'],
        ['lower-case currency', { ...base, currency: 'usd' }, 'currency'],
        ['four-letter currency', { ...base, currency: 'USDT' }, 'currency'],
        ['sandbox as a string', { ...base, sandbox: 'true' }, 'sandbox'],
        ['unknown provider', { ...base, provider: 'stripe' }, 'provider'],
        ['unknown status', { ...base, status: 'paid' }, 'status'],
        ['unknown status_detail', { ...base, status_detail: 'broke' }, 'status_detail'],
        ['provider_data not an object', { ...base, provider_data: [1] }, 'provider_data'],
        ['metadata not an object', { ...base, metadata: 'x' }, 'metadata'],
        ['an unknown field', { ...base, fee: 1 }, 'fee'],
      ];
      for (const [label, body, field] of cases) {
        expectInvalid(
          await t.post<Intent>('/testmode/intents/create', { token: owner.token, body }),
          label,
          field,
        );
      }
    });

    it('refuses unknown wallets and sellers, another wallet’s seller (404) and a revoked seller (409)', async () => {
      const { t, owner, outsider } = team();
      const other = await walletWithSeller(owner);
      const post = (body: unknown) =>
        t.post<Intent>('/testmode/intents/create', { token: owner.token, body });
      expectError(await post(intentBody(UNKNOWN_ID, seller.id)), 404, 'NOT_FOUND');
      // Ownership is decided before the seller is looked at: a stranger learns nothing of it,
      // not even that the wallet exists.
      const stranger = { token: outsider.token, body: intentBody(wallet.id, UNKNOWN_ID) };
      const hidden = await t.post<Intent>('/testmode/intents/create', stranger);
      expectError(hidden, 404, 'NOT_FOUND');
      assert.equal(hidden.body.message, 'Wallet not found');
      expectError(await post(intentBody(wallet.id, UNKNOWN_ID)), 404, 'NOT_FOUND');
      expectError(await post(intentBody(wallet.id, other.seller.id)), 404, 'NOT_FOUND');
      await t.db.update(sellers).set({ revoked_at: new Date() }).where(eq(sellers.id, other.seller.id));
      expectError(await post(intentBody(other.wallet.id, other.seller.id)), 409, 'CONFLICT');
      assert.deepEqual(
        expectOk(await t.get<Intent[]>(`/wallets/${other.wallet.id}/intents`, { token: owner.token })),
        [],
      );
    });

    it('a sandbox wallet accepts only sandbox intents (409 otherwise); a live wallet accepts both', async () => {
      const { t, owner } = team();
      const { wallet: w, seller: s } = await walletWithSeller(owner);
      await createIntent(owner, w.id, s.id, { sandbox: false });
      await createIntent(owner, w.id, s.id, { sandbox: true });
      expectOk(
        await t.patch<Wallet>(`/wallets/${w.id}/sandbox`, { token: owner.token, body: { sandbox: true } }),
      );
      const error = expectError(
        await t.post<Intent>('/testmode/intents/create', {
          token: owner.token,
          body: intentBody(w.id, s.id, { sandbox: false }),
        }),
        409,
        'CONFLICT',
      );
      assert.equal(typeof error.message, 'string');
      const ok = await createIntent(owner, w.id, s.id, { sandbox: true });
      assert.equal(ok.sandbox, true);
      assert.equal(
        expectOk(await t.get<Intent[]>(`/wallets/${w.id}/intents`, { token: owner.token })).length,
        3,
      );
    });
  });

  describe('POST /testmode/intents/{id}/simulate', () => {
    it('moves the intent, with its status_detail, and records the event with source simulate', async () => {
      const { t, owner } = team();
      const made = await createIntent(owner, wallet.id, seller.id, { status: 'pending' });
      const moved = expectOk(
        await t.post<Intent>(`/testmode/intents/${made.id}/simulate`, {
          token: owner.token,
          body: { status: 'rejected', status_detail: 'high_risk' },
        }),
        200,
        'payments',
      );
      assert.deepEqual([moved.status, moved.status_detail], ['rejected', 'high_risk']);
      assert.deepEqual(expectOk(await t.get<Intent>(`/intents/${made.id}`, { token: owner.token })), moved);
      const events = await eventsOf(made.id);
      assert.deepEqual(
        events.map((event) => [event.type, event.source, event.payload.status_detail]),
        [
          ['payment.pending', 'testmode', null],
          ['payment.rejected', 'simulate', 'high_risk'],
        ],
      );
    });

    it('refuses bad bodies (400), unknown intents (404) and forbidden moves (409)', async () => {
      const { t, owner } = team();
      const url = `/testmode/intents/${intent.id}/simulate`;
      await expectMalformedJson(t, 'POST', url, owner);
      const cases: Array<[string, unknown, string]> = [
        ['no status', {}, 'status'],
        ['unknown status', { status: 'paid' }, 'status'],
        ['unknown detail', { status: 'rejected', status_detail: 'nope' }, 'status_detail'],
        ['an unknown field', { status: 'rejected', x: 1 }, 'x'],
      ];
      for (const [label, body, field] of cases) {
        expectInvalid(await t.post<Intent>(url, { token: owner.token, body }), label, field);
      }
      expectInvalid(
        await t.post<Intent>('/testmode/intents/bad/simulate', {
          token: owner.token,
          body: { status: 'succeeded' },
        }),
        'bad id',
        'params.intent_id',
      );
      expectError(
        await t.post<Intent>(`/testmode/intents/${UNKNOWN_ID}/simulate`, {
          token: owner.token,
          body: { status: 'succeeded' },
        }),
        404,
        'NOT_FOUND',
      );
      const error = expectError(
        await t.post<Intent>(url, { token: owner.token, body: { status: 'pending' } }),
        409,
        'CONFLICT',
      );
      assert.deepEqual(error.meta, { from: 'pending', to: 'pending' });
    });
  });
});

describe('test mode off (TEST_MODE=false)', () => {
  const team = usePaymentsTeam({ TEST_MODE: 'false' });

  it('answers 503 on every test-mode route, before authentication and the body', async () => {
    const { t, owner } = team();
    const wallet = expectOk(
      await t.post<Wallet>('/wallets', { token: owner.token, body: { name: 'Off' } }),
      201,
    );
    const requests: Array<[string, unknown]> = [
      ['/testmode/sellers', { wallet_id: wallet.id, provider: 'mercadopago' }],
      ['/testmode/intents/create', { wallet_id: wallet.id }],
      [`/testmode/intents/${UNKNOWN_ID}/simulate`, { status: 'succeeded' }],
      ['/testmode/intents/not-a-uuid/simulate', { nonsense: true }],
    ];
    for (const [url, body] of requests) {
      const response = await t.post<Intent>(url, { token: owner.token, body });
      expectError(response, 503, 'SERVICE_UNAVAILABLE');
      assert.equal(response.body.module, 'payments');
    }
    // The test-mode check comes before authentication: no token is a 503 too.
    expectError(await t.post<Seller>('/testmode/sellers', { body: {} }), 503, 'SERVICE_UNAVAILABLE');
    assert.deepEqual(
      expectOk(await t.get<Seller[]>(`/wallets/${wallet.id}/sellers`, { token: owner.token })),
      [],
    );
  });
});
