/**
 * Wallets (docs/reference/payments.md): creation, the caller's wallets, read, sandbox flag, fee, collector
 * binding and sellers. Success with side effects, bad input, auth (shared table), 404 for unknown
 * ids and, alike, for anyone's wallet but the caller's own.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import {
  expectHiddenFrom,
  expectInvalid,
  expectMalformedJson,
  ISO,
  newName,
  paymentsFixtures,
  SELLER_KEYS,
  UNKNOWN_ID,
  UUID_V7,
  usePaymentsTeam,
  WALLET_KEYS,
} from '../payments.fixtures.ts';
import type { Seller, Wallet } from './wallets.schemas.ts';

describe('wallets', () => {
  const team = usePaymentsTeam();
  const { createWallet, createSeller, insertCollector } = paymentsFixtures(team);
  let wallet: Wallet;

  before(async () => {
    wallet = await createWallet(team().owner, 'Shared wallet');
  });

  // A wallet has one owner and no other role: anyone else is a stranger, who gets the 404 of an
  // unknown id, not a 403 (below).
  checkAuth(
    'wallet routes',
    () => team().t,
    () => {
      const url = `/wallets/${wallet.id}`;
      return [
        { method: 'POST', url: '/wallets', body: { name: 'Nobody' } },
        { method: 'GET', url: '/wallets' },
        { method: 'GET', url },
        { method: 'PATCH', url: `${url}/sandbox`, body: { sandbox: true } },
        { method: 'PATCH', url: `${url}/fee`, body: { fee_bps: 10 } },
        { method: 'POST', url: `${url}/collector`, body: { collector_id: UNKNOWN_ID } },
        { method: 'DELETE', url: `${url}/collector` },
        { method: 'GET', url: `${url}/sellers` },
      ];
    },
  );

  it('answers a stranger exactly as for an unknown wallet (404) on every route, changing nothing', async () => {
    const { t, owner, outsider } = team();
    // A wallet with something to lose: a fee, a bound collector and a seller.
    const mine = await createWallet(owner);
    const url = `/wallets/${mine.id}`;
    const gone = `/wallets/${UNKNOWN_ID}`;
    expectOk(await t.patch<Wallet>(`${url}/fee`, { token: owner.token, body: { fee_bps: 250 } }));
    const collectorId = await insertCollector(owner.id);
    expectOk(
      await t.post<Wallet>(`${url}/collector`, { token: owner.token, body: { collector_id: collectorId } }),
    );
    await createSeller(owner, mine.id);
    const before = expectOk(await t.get<Wallet>(url, { token: owner.token }));
    const sellersBefore = expectOk(await t.get<Seller[]>(`${url}/sellers`, { token: owner.token }));
    // The stranger's own live collector: the binding would succeed but for the wallet.
    const theirs = await insertCollector(outsider.id);

    await expectHiddenFrom(t, outsider, [
      { method: 'GET', url, unknown: { url: gone } },
      {
        method: 'PATCH',
        url: `${url}/sandbox`,
        body: { sandbox: true },
        unknown: { url: `${gone}/sandbox` },
      },
      { method: 'PATCH', url: `${url}/fee`, body: { fee_bps: 0 }, unknown: { url: `${gone}/fee` } },
      {
        method: 'POST',
        url: `${url}/collector`,
        body: { collector_id: theirs },
        unknown: { url: `${gone}/collector` },
      },
      // Authorization before the collector is looked at: an unknown one does not change the answer.
      {
        method: 'POST',
        url: `${url}/collector`,
        body: { collector_id: UNKNOWN_ID },
        unknown: { url: `${gone}/collector` },
      },
      { method: 'DELETE', url: `${url}/collector`, unknown: { url: `${gone}/collector` } },
      { method: 'GET', url: `${url}/sellers`, unknown: { url: `${gone}/sellers` } },
    ]);

    assert.deepEqual(expectOk(await t.get(url, { token: owner.token })), before);
    assert.deepEqual(
      expectOk(await t.get<Seller[]>(`${url}/sellers`, { token: owner.token })),
      sellersBefore,
    );
    assert.deepEqual([before.fee_bps, before.sandbox, before.collector_id], [250, false, collectorId]);
  });

  describe('POST /wallets and reads', () => {
    it('creates a wallet owned by the caller, readable and listed newest first', async () => {
      const { t } = team();
      const me = await t.actor('creator');
      const response = await t.post<Wallet>('/wallets', { token: me.token, body: { name: 'Tickets' } });
      const created = expectOk(response, 201, 'payments');
      assert.equal(response.body.message, 'Created');
      assert.deepEqual(Object.keys(created).sort(), WALLET_KEYS);
      assert.match(created.id, UUID_V7);
      assert.deepEqual(
        [created.owner_id, created.name, created.sandbox, created.fee_bps, created.collector_id],
        [me.id, 'Tickets', false, 0, null],
      );
      assert.match(created.created_at, ISO);
      assert.match(created.updated_at, ISO);
      assert.deepEqual(expectOk(await t.get<Wallet>(`/wallets/${created.id}`, { token: me.token })), created);

      const second = await createWallet(me, 'Second');
      const list = await t.get<Wallet[]>('/wallets?limit=1', { token: me.token });
      assert.deepEqual(expectOk(list, 200, 'payments'), [second]);
      assert.deepEqual(list.body.pagination, {
        page: 1,
        limit: 1,
        total: 2,
        has_next: true,
        has_prev: false,
        next_page: 2,
        prev_page: null,
      });
      assert.deepEqual(expectOk(await t.get<Wallet[]>('/wallets?page=2&limit=1', { token: me.token })), [
        created,
      ]);
      // Only the caller's own wallets.
      assert.deepEqual(expectOk(await t.get<Wallet[]>('/wallets', { token: team().outsider.token })), []);
    });

    it('refuses a name the caller already uses (409 naming name), but another owner may use it', async () => {
      const { t, owner, outsider } = team();
      const error = expectError(
        await t.post<Wallet>('/wallets', { token: owner.token, body: { name: 'Shared wallet' } }),
        409,
        'CONFLICT',
      );
      assert.equal(error.fields?.[0]?.field, 'name');
      await createWallet(outsider, 'Shared wallet');
    });

    it('refuses malformed JSON and invalid fields (400)', async () => {
      const { t, owner } = team();
      await expectMalformedJson(t, 'POST', '/wallets', owner);
      const cases: Array<[string, unknown, string]> = [
        ['no name', {}, 'name'],
        ['an empty name', { name: '' }, 'name'],
        ['a long name', { name: 'x'.repeat(201) }, 'name'],
        ['a number as name', { name: 12 }, 'name'],
        ['an unknown field', { name: 'Fine', sandbox: true }, 'sandbox'],
      ];
      for (const [label, body, field] of cases) {
        expectInvalid(await t.post<Wallet>('/wallets', { token: owner.token, body }), label, field);
      }
      expectInvalid(
        await t.get<Wallet[]>('/wallets?limit=101', { token: owner.token }),
        'limit 101',
        'query.limit',
      );
    });

    it('answers 404 for an unknown wallet and 400 for a malformed id', async () => {
      const { t, owner } = team();
      expectError(await t.get<Wallet>(`/wallets/${UNKNOWN_ID}`, { token: owner.token }), 404, 'NOT_FOUND');
      expectInvalid(
        await t.get<Wallet>('/wallets/not-a-uuid', { token: owner.token }),
        'bad id',
        'params.wallet_id',
      );
    });
  });

  describe('PATCH sandbox and fee', () => {
    it('switches sandbox on and off (docs/reference/payments.md), read back', async () => {
      const { t, owner } = team();
      const mine = await createWallet(owner);
      const on = expectOk(
        await t.patch<Wallet>(`/wallets/${mine.id}/sandbox`, { token: owner.token, body: { sandbox: true } }),
        200,
        'payments',
      );
      assert.equal(on.sandbox, true);
      assert.equal(
        expectOk(await t.get<Wallet>(`/wallets/${mine.id}`, { token: owner.token })).sandbox,
        true,
      );
      const off = expectOk(
        await t.patch<Wallet>(`/wallets/${mine.id}/sandbox`, {
          token: owner.token,
          body: { sandbox: false },
        }),
      );
      assert.equal(off.sandbox, false);
    });

    it('sets the fee from 0 to 10000, read back', async () => {
      const { t, owner } = team();
      const mine = await createWallet(owner);
      for (const fee of [250, 10000, 0]) {
        const data = expectOk(
          await t.patch<Wallet>(`/wallets/${mine.id}/fee`, { token: owner.token, body: { fee_bps: fee } }),
        );
        assert.equal(data.fee_bps, fee);
        assert.equal(
          expectOk(await t.get<Wallet>(`/wallets/${mine.id}`, { token: owner.token })).fee_bps,
          fee,
        );
      }
    });

    it('refuses bad sandbox and fee bodies (400) and unknown wallets (404)', async () => {
      const { t, owner } = team();
      const url = `/wallets/${wallet.id}`;
      await expectMalformedJson(t, 'PATCH', `${url}/sandbox`, owner);
      await expectMalformedJson(t, 'PATCH', `${url}/fee`, owner);
      const sandboxCases: Array<[string, unknown, string]> = [
        ['missing', {}, 'sandbox'],
        ['a string', { sandbox: 'true' }, 'sandbox'],
        ['an unknown field', { sandbox: true, extra: 1 }, 'extra'],
      ];
      for (const [label, body, field] of sandboxCases) {
        expectInvalid(await t.patch<Wallet>(`${url}/sandbox`, { token: owner.token, body }), label, field);
      }
      const feeCases: Array<[string, unknown, string]> = [
        ['missing', {}, 'fee_bps'],
        ['10001', { fee_bps: 10001 }, 'fee_bps'],
        ['negative', { fee_bps: -1 }, 'fee_bps'],
        ['a fraction', { fee_bps: 1.5 }, 'fee_bps'],
        ['a string', { fee_bps: '100' }, 'fee_bps'],
      ];
      for (const [label, body, field] of feeCases) {
        expectInvalid(await t.patch<Wallet>(`${url}/fee`, { token: owner.token, body }), label, field);
      }
      expectError(
        await t.patch<Wallet>(`/wallets/${UNKNOWN_ID}/sandbox`, {
          token: owner.token,
          body: { sandbox: true },
        }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.patch<Wallet>(`/wallets/${UNKNOWN_ID}/fee`, { token: owner.token, body: { fee_bps: 1 } }),
        404,
        'NOT_FOUND',
      );
      assert.equal(expectOk(await t.get<Wallet>(url, { token: owner.token })).fee_bps, 0);
    });
  });

  describe('collector binding', () => {
    it('binds a collector the caller owns and unbinds it, read back', async () => {
      const { t, owner } = team();
      const mine = await createWallet(owner);
      const collectorId = await insertCollector(owner.id);
      const bound = expectOk(
        await t.post<Wallet>(`/wallets/${mine.id}/collector`, {
          token: owner.token,
          body: { collector_id: collectorId },
        }),
        200,
        'payments',
      );
      assert.equal(bound.collector_id, collectorId);
      assert.equal(
        expectOk(await t.get<Wallet>(`/wallets/${mine.id}`, { token: owner.token })).collector_id,
        collectorId,
      );
      const unbound = expectOk(
        await t.delete<Wallet>(`/wallets/${mine.id}/collector`, { token: owner.token }),
        200,
        'payments',
      );
      assert.equal(unbound.collector_id, null);
      assert.equal(
        expectOk(await t.get<Wallet>(`/wallets/${mine.id}`, { token: owner.token })).collector_id,
        null,
      );
    });

    it('refuses an unknown or foreign collector (404) and a revoked one (409)', async () => {
      const { t, owner, outsider } = team();
      const url = `/wallets/${wallet.id}/collector`;
      const foreign = await insertCollector(outsider.id);
      const revoked = await insertCollector(owner.id, true);
      expectError(
        await t.post(url, { token: owner.token, body: { collector_id: UNKNOWN_ID } }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.post(url, { token: owner.token, body: { collector_id: foreign } }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.post(url, { token: owner.token, body: { collector_id: revoked } }),
        409,
        'CONFLICT',
      );
      assert.equal(
        expectOk(await t.get<Wallet>(`/wallets/${wallet.id}`, { token: owner.token })).collector_id,
        null,
      );
    });

    it('refuses bad bodies (400) and unknown wallets (404)', async () => {
      const { t, owner } = team();
      const url = `/wallets/${wallet.id}/collector`;
      await expectMalformedJson(t, 'POST', url, owner);
      const cases: Array<[string, unknown, string]> = [
        ['missing', {}, 'collector_id'],
        ['not a uuid', { collector_id: 'abc' }, 'collector_id'],
        ['a number', { collector_id: 5 }, 'collector_id'],
        ['an unknown field', { collector_id: UNKNOWN_ID, x: 1 }, 'x'],
      ];
      for (const [label, body, field] of cases) {
        expectInvalid(await t.post(url, { token: owner.token, body }), label, field);
      }
      const collectorId = await insertCollector(owner.id);
      expectError(
        await t.post<Wallet>(`/wallets/${UNKNOWN_ID}/collector`, {
          token: owner.token,
          body: { collector_id: collectorId },
        }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.delete<Wallet>(`/wallets/${UNKNOWN_ID}/collector`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectInvalid(
        await t.delete<Wallet>('/wallets/nope/collector', { token: owner.token }),
        'bad id',
        'params.wallet_id',
      );
    });
  });

  describe('GET /wallets/{id}/sellers', () => {
    it('lists the wallet’s sellers newest first, without credentials', async () => {
      const { t, owner } = team();
      const mine = await createWallet(owner, newName('Sellers'));
      assert.deepEqual(
        expectOk(await t.get<Seller[]>(`/wallets/${mine.id}/sellers`, { token: owner.token })),
        [],
      );
      const first = await createSeller(owner, mine.id);
      const second = await createSeller(owner, mine.id);
      const response = await t.get<Seller[]>(`/wallets/${mine.id}/sellers`, { token: owner.token });
      const sellers = expectOk(response, 200, 'payments');
      assert.deepEqual(sellers, [second, first]);
      assert.deepEqual(Object.keys(sellers[0]).sort(), SELLER_KEYS);
      assert.equal(response.body.pagination.total, 2);
    });

    it('answers 404 for an unknown wallet and 400 for bad paging', async () => {
      const { t, owner } = team();
      expectError(
        await t.get<Seller[]>(`/wallets/${UNKNOWN_ID}/sellers`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectInvalid(
        await t.get<Seller[]>(`/wallets/${wallet.id}/sellers?page=0`, { token: owner.token }),
        'page 0',
        'query.page',
      );
    });
  });
});
