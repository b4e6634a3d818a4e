/**
 * `Idempotency-Key` on authenticated POSTs (docs/reference/errors.md): replay of the first completed answer,
 * 422 for the key with another request, keys kept per caller, and what is not kept.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { expectError, expectFields, expectOk } from '../../../test/assertions.ts';
import { createTestApp, type TestApp, type TestUser } from '../../../test/harness.ts';
import type { Intent } from '../../modules/payments/intents/intents.schemas.ts';
import type { Seller, Wallet } from '../../modules/payments/wallets/wallets.schemas.ts';
import type { WebhookEndpointWithSecret } from '../../modules/payments/webhooks/endpoints/endpoints.schemas.ts';
import { seal } from '../secret-box.ts';
import { idempotencyKeys } from './idempotency.table.ts';

describe('Idempotency-Key', () => {
  let t: TestApp;
  let owner: TestUser;
  before(async () => {
    t = await createTestApp();
    owner = await t.actor('owner');
  });
  after(() => t.close());

  const createWallet = (name: string, key: string, by: TestUser = owner) =>
    t.post<Wallet>('/wallets', { token: by.token, body: { name }, headers: { 'idempotency-key': key } });

  it('replays the first answer to a retry, with Idempotent-Replayed, and creates nothing more', async () => {
    const first = await createWallet('Replayed', 'key-1');
    const created = expectOk(first, 201, 'payments');
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const again = await createWallet('Replayed', 'key-1');
    assert.equal(again.status, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.text, first.text);
    const wallets = expectOk(await t.get<Wallet[]>('/wallets?limit=100', { token: owner.token }));
    assert.equal(wallets.filter((wallet) => wallet.id === created.id).length, 1);
    assert.equal(wallets.filter((wallet) => wallet.name === 'Replayed').length, 1);
  });

  it('refuses the same key with another request (422) and keeps keys per caller', async () => {
    expectOk(await createWallet('First', 'key-2'), 201);
    const error = expectError(await createWallet('Second', 'key-2'), 422, 'UNPROCESSABLE_ENTITY');
    assert.match(error.message, /different request/);
    // Another caller's key of the same name is theirs.
    const other = await t.actor('other');
    expectOk(await createWallet('Second', 'key-2', other), 201);
  });

  it('does not keep refused requests: the key is free for a corrected retry', async () => {
    expectOk(await createWallet('Taken', 'key-3a'), 201);
    // Same name again: 409, not stored.
    expectError(await createWallet('Taken', 'key-3b'), 409, 'CONFLICT');
    const retry = await t.post<Wallet>('/wallets', {
      token: owner.token,
      body: { name: 'Taken' },
      headers: { 'idempotency-key': 'key-3b' },
    });
    expectError(retry, 409, 'CONFLICT');
    assert.equal(retry.headers['idempotent-replayed'], undefined);
  });

  it('fingerprints what the body says, not how it is spelled: keys in any order, arrays in theirs', async () => {
    const wallet = expectOk(await createWallet('Ordered', 'key-order-wallet'), 201);
    const seller = expectOk(
      await t.post<Seller>('/testmode/sellers', {
        token: owner.token,
        body: { wallet_id: wallet.id, provider: 'mercadopago' },
      }),
      201,
    );
    const send = (payload: string) =>
      t.post<Intent>('/testmode/intents/create', {
        token: owner.token,
        payload,
        contentType: 'application/json',
        headers: { 'idempotency-key': 'key-order' },
      });
    const ids = `"wallet_id":"${wallet.id}","seller_id":"${seller.id}"`;
    const rest =
      '"amount_cents":100,"currency":"BRL","sandbox":true,"provider":"mercadopago","status":"pending"';
    const first = await send(`{${ids},${rest},"metadata":{"a":{"x":1,"y":[1,{"p":1,"q":2}]},"b":2}}`);
    expectOk(first, 201);
    // The same request with its keys in another order, at the top and inside, with other spacing.
    const reordered = await send(
      `{ "metadata": { "b": 2, "a": { "y": [1, {"q": 2, "p": 1}], "x": 1 } }, ${rest}, ${ids} }`,
    );
    assert.equal(reordered.status, 201, reordered.text);
    assert.equal(reordered.headers['idempotent-replayed'], 'true');
    assert.equal(reordered.text, first.text);
    // An array's order is part of what it says.
    expectError(
      await send(`{${ids},${rest},"metadata":{"a":{"x":1,"y":[{"p":1,"q":2},1]},"b":2}}`),
      422,
      'UNPROCESSABLE_ENTITY',
    );
  });

  const storedAnswer = async (user: TestUser, key: string) => {
    const [row] = await t.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.user_id, user.id), eq(idempotencyKeys.key, key)));
    assert.ok(row, `the key ${key} is stored`);
    return row;
  };

  it('keeps the stored answer sealed, and replays it as it was: a secret shown once is not at rest in clear', async () => {
    const wallet = expectOk(await createWallet('Sealed', 'key-sealed-wallet'), 201);
    const create = () =>
      t.post<WebhookEndpointWithSecret>(`/wallets/${wallet.id}/webhooks/endpoints`, {
        token: owner.token,
        body: { name: 'Sealed hook', url: 'https://hooks.example.com/in' },
        headers: { 'idempotency-key': 'key-sealed' },
      });
    const first = await create();
    const { secret, id } = expectOk(first, 201);
    assert.match(secret, /^whsec_/);
    const row = await storedAnswer(owner, 'key-sealed');
    assert.equal(row.response_status, 201);
    for (const shown of [secret, secret.slice('whsec_'.length), id, 'Sealed hook']) {
      assert.ok(!JSON.stringify(row).includes(shown), `the stored row shows ${shown}`);
    }
    const again = await create();
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.text, first.text);
  });

  it('withholds a stored answer it cannot open (another SECRETS_KEY, or dropped when sealing began): 409, never a second run', async () => {
    const first = await createWallet('Unreadable', 'key-unreadable');
    const wallet = expectOk(first, 201);
    const withheld = async (body: string | null) => {
      await t.db
        .update(idempotencyKeys)
        .set({ response_body: body })
        .where(and(eq(idempotencyKeys.user_id, owner.id), eq(idempotencyKeys.key, 'key-unreadable')));
      // The request did run: running it again could make a second resource, so the retry is told
      // the answer is withheld, neither a replay nor a 500 nor a new wallet.
      const retry = await createWallet('Unreadable', 'key-unreadable');
      const error = expectError(retry, 409, 'CONFLICT');
      assert.equal(error.reason, 'answer_withheld');
      assert.deepEqual(error.meta, { status: 201 });
      assert.match(error.message, /completed/);
      assert.equal(retry.headers['idempotent-replayed'], undefined);
    };
    await withheld(seal(randomBytes(32), first.text));
    await withheld(null);
    const wallets = expectOk(await t.get<Wallet[]>('/wallets?limit=100', { token: owner.token }));
    assert.equal(
      wallets.filter((one) => one.name === 'Unreadable').length,
      1,
      'made by the first request only',
    );
    assert.ok(wallets.some((one) => one.id === wallet.id));
  });

  it('refuses a key of more than 255 characters, naming the header', async () => {
    expectFields(await createWallet('Long', 'k'.repeat(256)), 'header.idempotency-key');
  });
});
