/**
 * The transition rule of intents (docs/reference/payments.md), table-driven over every pair of statuses, both
 * as a pure function and through POST /testmode/intents/{id}/simulate; and the sandbox rule
 * (a sandbox wallet accepts only sandbox intents) over every combination.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { paymentsFixtures, usePaymentsTeam } from '../payments.fixtures.ts';
import type { Seller, Wallet } from '../wallets/wallets.schemas.ts';
import type { Intent } from './intents.schemas.ts';
import { INTENT_STATUSES, type IntentStatus } from './intents.table.ts';
import { canTransition } from './intents.transitions.ts';

/** The rule written out as data, independently of the implementation. */
const ALLOWED: Record<IntentStatus, IntentStatus[]> = {
  pending: ['processing', 'succeeded', 'rejected', 'cancelled', 'failed', 'refunded'],
  processing: ['pending', 'succeeded', 'rejected', 'cancelled', 'failed', 'refunded'],
  succeeded: ['refunded'],
  rejected: [],
  cancelled: [],
  failed: [],
  refunded: [],
};

const PAIRS = INTENT_STATUSES.flatMap((from) => INTENT_STATUSES.map((to) => [from, to] as const));

describe('intent transition rule', () => {
  it('canTransition matches the table for all 49 pairs', () => {
    for (const [from, to] of PAIRS) {
      assert.equal(canTransition(from, to), ALLOWED[from].includes(to), `${from} -> ${to}`);
    }
  });

  describe('through simulate', () => {
    const team = usePaymentsTeam();
    const { walletWithSeller, createIntent, eventsOf } = paymentsFixtures(team);
    let wallet: Wallet;
    let seller: Seller;
    before(async () => {
      ({ wallet, seller } = await walletWithSeller(team().owner));
    });

    for (const [from, to] of PAIRS) {
      const allowed = ALLOWED[from].includes(to);
      it(`${from} -> ${to}: ${allowed ? `moves and records payment.${to}` : 'refused (409), nothing recorded'}`, async () => {
        const { t, owner } = team();
        const made = await createIntent(owner, wallet.id, seller.id, { status: from });
        const response = await t.post<Intent>(`/testmode/intents/${made.id}/simulate`, {
          token: owner.token,
          body: { status: to },
        });
        const events = () => eventsOf(made.id);
        if (allowed) {
          assert.equal(expectOk(response, 200, 'payments').status, to);
          assert.deepEqual(
            (await events()).map((event) => [event.type, event.source]),
            [
              [`payment.${from}`, 'testmode'],
              [`payment.${to}`, 'simulate'],
            ],
          );
        } else {
          const error = expectError(response, 409, 'CONFLICT');
          assert.deepEqual(error.meta, { from, to });
          assert.equal(response.body.module, 'payments');
          assert.equal((await events()).length, 1);
        }
        const read = expectOk(await t.get<Intent>(`/intents/${made.id}`, { token: owner.token }));
        assert.equal(read.status, allowed ? to : from);
      });
    }
  });
});

describe('sandbox rule', () => {
  const team = usePaymentsTeam();
  const { walletWithSeller, intentBody } = paymentsFixtures(team);

  const cases = [
    { walletSandbox: false, intentSandbox: false, accepted: true },
    { walletSandbox: false, intentSandbox: true, accepted: true },
    { walletSandbox: true, intentSandbox: true, accepted: true },
    { walletSandbox: true, intentSandbox: false, accepted: false },
  ];
  for (const { walletSandbox, intentSandbox, accepted } of cases) {
    it(`a ${walletSandbox ? 'sandbox' : 'live'} wallet ${accepted ? 'accepts' : 'refuses (409)'} a sandbox:${intentSandbox} intent`, async () => {
      const { t, owner } = team();
      const { wallet, seller } = await walletWithSeller(owner);
      const flag = expectOk(
        await t.patch<Wallet>(`/wallets/${wallet.id}/sandbox`, {
          token: owner.token,
          body: { sandbox: walletSandbox },
        }),
      );
      assert.equal(flag.sandbox, walletSandbox);
      const response = await t.post<Intent>('/testmode/intents/create', {
        token: owner.token,
        body: intentBody(wallet.id, seller.id, { sandbox: intentSandbox }),
      });
      if (accepted) assert.equal(expectOk(response, 201, 'payments').sandbox, intentSandbox);
      else expectError(response, 409, 'CONFLICT');
      const list = expectOk(await t.get<Intent[]>(`/wallets/${wallet.id}/intents`, { token: owner.token }));
      assert.equal(list.length, accepted ? 1 : 0);
    });
  }

  it('switching a wallet back from sandbox accepts live intents again', async () => {
    const { t, owner } = team();
    const { wallet, seller } = await walletWithSeller(owner);
    const live = intentBody(wallet.id, seller.id, { sandbox: false });
    expectOk(
      await t.patch<Wallet>(`/wallets/${wallet.id}/sandbox`, { token: owner.token, body: { sandbox: true } }),
    );
    expectError(
      await t.post<Intent>('/testmode/intents/create', { token: owner.token, body: live }),
      409,
      'CONFLICT',
    );
    expectOk(
      await t.patch<Wallet>(`/wallets/${wallet.id}/sandbox`, {
        token: owner.token,
        body: { sandbox: false },
      }),
    );
    expectOk(await t.post<Intent>('/testmode/intents/create', { token: owner.token, body: live }), 201);
  });
});
