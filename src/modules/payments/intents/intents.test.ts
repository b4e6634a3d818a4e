/**
 * Intents (docs/reference/payments.md): the wallet's intents (newest first, status filter, paging), one
 * intent, and cancellation (only from pending/processing, recording `payment.cancelled`). Someone else's
 * wallet and intents are unknown to the caller (404).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import {
  expectHiddenFrom,
  expectInvalid,
  INTENT_KEYS,
  paymentsFixtures,
  UNKNOWN_ID,
  usePaymentsTeam,
} from '../payments.fixtures.ts';
import type { Seller, Wallet } from '../wallets/wallets.schemas.ts';
import type { Intent } from './intents.schemas.ts';

describe('intents', () => {
  const team = usePaymentsTeam();
  const { walletWithSeller, createIntent, eventsOf } = paymentsFixtures(team);
  let wallet: Wallet;
  let seller: Seller;
  let intent: Intent;

  before(async () => {
    ({ wallet, seller } = await walletWithSeller(team().owner));
    intent = await createIntent(team().owner, wallet.id, seller.id);
  });

  // Only the wallet's owner has a role: anyone else gets the 404 of an unknown id (below).
  checkAuth(
    'intent routes',
    () => team().t,
    () => [
      { method: 'GET', url: `/wallets/${wallet.id}/intents` },
      { method: 'GET', url: `/intents/${intent.id}` },
      { method: 'POST', url: `/intents/${intent.id}/cancel` },
    ],
  );

  it('answers a stranger exactly as for an unknown wallet or intent (404), changing nothing', async () => {
    const { t, owner, outsider } = team();
    const pending = await createIntent(owner, wallet.id, seller.id, { status: 'pending' });
    // A final intent: its owner would get a 409; a stranger must not learn even that.
    const final = await createIntent(owner, wallet.id, seller.id, { status: 'succeeded' });
    await expectHiddenFrom(t, outsider, [
      {
        method: 'GET',
        url: `/wallets/${wallet.id}/intents`,
        unknown: { url: `/wallets/${UNKNOWN_ID}/intents` },
      },
      { method: 'GET', url: `/intents/${pending.id}`, unknown: { url: `/intents/${UNKNOWN_ID}` } },
      {
        method: 'POST',
        url: `/intents/${pending.id}/cancel`,
        unknown: { url: `/intents/${UNKNOWN_ID}/cancel` },
      },
      {
        method: 'POST',
        url: `/intents/${final.id}/cancel`,
        unknown: { url: `/intents/${UNKNOWN_ID}/cancel` },
      },
    ]);
    assert.deepEqual(
      expectOk(await t.get<Intent>(`/intents/${pending.id}`, { token: owner.token })),
      pending,
    );
    assert.deepEqual(expectOk(await t.get<Intent>(`/intents/${final.id}`, { token: owner.token })), final);
    assert.equal((await eventsOf(pending.id)).length, 1);
    assert.equal((await eventsOf(final.id)).length, 1);
  });

  describe('GET /wallets/{id}/intents', () => {
    it('lists newest first, filters by status and pages', async () => {
      const { t, owner } = team();
      const { wallet: w, seller: s } = await walletWithSeller(owner);
      const a = await createIntent(owner, w.id, s.id, { status: 'pending' });
      const b = await createIntent(owner, w.id, s.id, { status: 'succeeded' });
      const c = await createIntent(owner, w.id, s.id, { status: 'pending' });
      const all = await t.get<Intent[]>(`/wallets/${w.id}/intents`, { token: owner.token });
      assert.deepEqual(expectOk(all, 200, 'payments'), [c, b, a]);
      assert.equal(all.body.pagination.total, 3);
      assert.deepEqual(
        expectOk(await t.get<Intent[]>(`/wallets/${w.id}/intents?status=pending`, { token: owner.token })),
        [c, a],
      );
      assert.deepEqual(
        expectOk(await t.get<Intent[]>(`/wallets/${w.id}/intents?status=refunded`, { token: owner.token })),
        [],
      );
      const page2 = await t.get<Intent[]>(`/wallets/${w.id}/intents?page=2&limit=2`, { token: owner.token });
      assert.deepEqual(expectOk(page2), [a]);
      assert.equal(page2.body.pagination.has_prev, true);
    });

    it('refuses a bad status filter, bad paging and bad ids (400) and unknown wallets (404)', async () => {
      const { t, owner } = team();
      const url = `/wallets/${wallet.id}/intents`;
      expectInvalid(
        await t.get<Intent[]>(`${url}?status=paid`, { token: owner.token }),
        'status',
        'query.status',
      );
      expectInvalid(await t.get<Intent[]>(`${url}?limit=0`, { token: owner.token }), 'limit', 'query.limit');
      expectInvalid(
        await t.get<Intent[]>(`${url}?other=1`, { token: owner.token }),
        'unknown query',
        'query.other',
      );
      expectInvalid(
        await t.get<Intent[]>('/wallets/x/intents', { token: owner.token }),
        'bad id',
        'params.wallet_id',
      );
      expectError(
        await t.get<Intent[]>(`/wallets/${UNKNOWN_ID}/intents`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
    });
  });

  describe('GET /intents/{id}', () => {
    it('reads the intent with every field of the interface', async () => {
      const { t, owner } = team();
      const data = expectOk(
        await t.get<Intent>(`/intents/${intent.id}`, { token: owner.token }),
        200,
        'payments',
      );
      assert.deepEqual(data, intent);
      assert.deepEqual(Object.keys(data).sort(), INTENT_KEYS);
    });

    it('answers 404 for an unknown intent and 400 for a malformed id', async () => {
      const { t, owner } = team();
      expectError(await t.get<Intent>(`/intents/${UNKNOWN_ID}`, { token: owner.token }), 404, 'NOT_FOUND');
      expectInvalid(
        await t.get<Intent>('/intents/123', { token: owner.token }),
        'bad id',
        'params.intent_id',
      );
    });
  });

  describe('POST /intents/{id}/cancel', () => {
    for (const from of ['pending', 'processing'] as const) {
      it(`cancels a ${from} intent and records payment.cancelled`, async () => {
        const { t, owner } = team();
        const made = await createIntent(owner, wallet.id, seller.id, {
          status: from,
          provider_data: { transaction_id: 'tx-1' },
        });
        const cancelled = expectOk(
          await t.post<Intent>(`/intents/${made.id}/cancel`, { token: owner.token }),
          200,
          'payments',
        );
        assert.equal(cancelled.status, 'cancelled');
        assert.equal(cancelled.status_detail, null);
        assert.deepEqual(
          expectOk(await t.get<Intent>(`/intents/${made.id}`, { token: owner.token })),
          cancelled,
        );
        const events = await eventsOf(made.id);
        assert.deepEqual(
          events.map((event) => [event.type, event.source]),
          [
            [`payment.${from}`, 'testmode'],
            ['payment.cancelled', 'cancel'],
          ],
        );
        const last = events[1]!;
        assert.deepEqual(last.payload, {
          event_id: last.id,
          intent_id: made.id,
          wallet_id: wallet.id,
          provider: 'mercadopago',
          external_id: 'tx-1',
          status: 'cancelled',
          status_detail: null,
          amount_cents: 5000,
          currency: 'BRL',
          sandbox: true,
          metadata: {},
        });
      });
    }

    for (const from of ['succeeded', 'rejected', 'cancelled', 'failed', 'refunded'] as const) {
      it(`refuses to cancel a ${from} intent (409 with from/to), recording nothing`, async () => {
        const { t, owner } = team();
        const made = await createIntent(owner, wallet.id, seller.id, { status: from });
        const error = expectError(
          await t.post<Intent>(`/intents/${made.id}/cancel`, { token: owner.token }),
          409,
          'CONFLICT',
        );
        assert.deepEqual(error.meta, { from, to: 'cancelled' });
        assert.equal(
          expectOk(await t.get<Intent>(`/intents/${made.id}`, { token: owner.token })).status,
          from,
        );
        assert.equal((await eventsOf(made.id)).length, 1);
      });
    }

    it('answers 404 for an unknown intent and 400 for a malformed id', async () => {
      const { t, owner } = team();
      expectError(
        await t.post<Intent>(`/intents/${UNKNOWN_ID}/cancel`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectInvalid(
        await t.post<Intent>('/intents/zz/cancel', { token: owner.token }),
        'bad id',
        'params.intent_id',
      );
    });
  });
});
