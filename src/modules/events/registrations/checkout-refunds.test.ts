/**
 * Refunds of paid registrations (full and partial) and intents (docs/reference/checkout.md), the event's payment link, and the
 * seller's token refresh, over real HTTP against the Mercado Pago simulator.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectError, expectFields, expectOk } from '../../../../test/assertions.ts';
import type { TestUser } from '../../../../test/harness.ts';
import type { Intent } from '../../payments/intents/intents.schemas.ts';
import type { Wallet } from '../../payments/wallets/wallets.schemas.ts';
import type { PaymentLink } from '../payment-links/payment-links.schemas.ts';
import { checkoutHelpers, until, useCheckoutBench } from './checkout.fixtures.ts';
import type { Registration, RegistrationListItem } from './registrations.schemas.ts';
import type { SalesSummary } from './sales.schemas.ts';

describe('refunds', () => {
  const bench = useCheckoutBench();
  const h = checkoutHelpers(bench);
  const refundRegistration = (id: string, by: TestUser, body: Record<string, unknown> = {}) =>
    bench().t.post<Registration>(`/registrations/${id}/refund`, { token: by.token, body });

  it('refunds a registration in full: provider refund, seat freed, badge revoked, webhook sent', async () => {
    const { sim, admin } = bench();
    const { edition, payer, registration, payment } = await h.paidRegistration();
    const refunded = expectOk(
      await refundRegistration(registration.id, admin, { reason: 'Workshop cancelled' }),
    );
    assert.equal(refunded.status, 'refunded');
    assert.equal(refunded.status_reason, 'Workshop cancelled');
    assert.ok(refunded.cancelled_at);
    assert.deepEqual(
      sim.refunds.filter((refund) => refund.paymentId === payment.id).map((refund) => refund.amount),
      [null],
    );
    const intent = await h.intent(registration.intent_id ?? '');
    assert.equal(intent.status, 'refunded');
    assert.equal(intent.refunded_cents, 5050);
    const [ticket] = await h.ticketTypes(edition.id);
    assert.equal(ticket?.confirmed_count, 0);
    const badge = (await h.emissions(edition.id)).find((emission) => emission.user_id === payer.id);
    assert.equal(badge?.status, 'revoked');
    assert.equal(badge?.status_reason, 'refunded');
    await until(
      async () =>
        h.received('registration.refunded').filter((hook) => hook.data.registration_id === registration.id),
      (found) => found.length === 1,
      'registration.refunded delivered',
    );
    // The provider then notifies the refund: a duplicate, nothing moves twice.
    await until(
      async () => sim.notificationsSent.filter((sent) => sent.paymentId === payment.id),
      (sent) => sent.length === 2 && sent.every((one) => one.status === 200),
      'refund notification answered',
    );
    expectError(await refundRegistration(registration.id, admin), 409, 'CONFLICT');
  });

  it('refunds part of a registration: it stays confirmed with the amount recorded; the rest ends it', async () => {
    const { t, admin, sim } = bench();
    const { edition, payer, registration, payment } = await h.paidRegistration();
    const refund = (body: Record<string, unknown>) =>
      t.post<Registration>(`/registrations/${registration.id}/refund`, { token: admin.token, body });
    const listed = async () =>
      expectOk(
        await t.get<RegistrationListItem[]>(`/editions/${edition.id}/registrations`, {
          token: admin.token,
        }),
      )[0]!;

    const partly = expectOk(await refund({ amount_cents: 1000, reason: 'Lunch was not served' }));
    assert.deepEqual([partly.status, partly.status_reason], ['confirmed', null]);
    assert.deepEqual(
      sim.refunds.filter((made) => made.paymentId === payment.id).map((made) => made.amount),
      [10],
    );
    const item = await listed();
    assert.deepEqual(
      [item.status, item.amount_cents, item.refunded_cents, item.payment_status],
      ['confirmed', 5050, 1000, 'succeeded'],
    );
    const badge = (await h.emissions(edition.id)).find((emission) => emission.user_id === payer.id);
    assert.equal(badge?.status, 'active');
    const sales = expectOk(
      await t.get<SalesSummary>(`/editions/${edition.id}/sales`, { token: admin.token }),
    );
    assert.equal(sales.counts.sold, 1);
    // The bench's wallet takes 10 % of what was kept: 4050.
    assert.deepEqual(sales.money, [
      {
        currency: 'BRL',
        payments: 1,
        revenue_cents: 5050,
        refunds_cents: 1000,
        fees_cents: 405,
        net_cents: 3645,
      },
    ]);

    const tooMuch = expectError(await refund({ amount_cents: 4051 }), 409, 'CONFLICT');
    assert.equal(tooMuch.reason, 'refund_exceeds_amount');
    expectFields(await refund({ amount_cents: 0 }), 'amount_cents');

    const rest = expectOk(await refund({}));
    assert.equal(rest.status, 'refunded');
    const after = await listed();
    assert.deepEqual([after.refunded_cents, after.payment_status], [5050, 'refunded']);
  });

  it('refuses staff and outsiders (403), and a registration that was not paid (409)', async () => {
    const { t, staff, outsider, owner } = bench();
    const { registration } = await h.paidRegistration();
    expectError(await refundRegistration(registration.id, staff), 403, 'FORBIDDEN');
    expectError(await refundRegistration(registration.id, outsider), 403, 'FORBIDDEN');
    const { edition } = await h.setupEdition();
    const free = await h.createTicketType(edition.id, { name: 'Free' });
    const freeRegistration = expectOk(await h.register(await t.actor('free'), edition.id, free.id), 201);
    const error = expectError(await refundRegistration(freeRegistration.id, owner), 409, 'CONFLICT');
    assert.match(error.message, /not paid/);
  });

  it('answers 502 and changes nothing when the provider refuses the refund', async () => {
    const { sim, owner } = bench();
    const { edition, registration } = await h.paidRegistration();
    // A refusal (4xx). A 5xx leaves the outcome unknown: checkout-refund-outcomes.test.ts.
    sim.failNext(400, 'refund');
    expectError(await refundRegistration(registration.id, owner), 502, 'BAD_GATEWAY');
    assert.equal((await h.registration(registration.id)).status, 'confirmed');
    assert.equal((await h.intent(registration.intent_id ?? '')).status, 'succeeded');
    assert.equal((await h.ticketTypes(edition.id))[0]?.confirmed_count, 1);
  });

  it('refunds an intent in parts: succeeded with refunded_cents, then refunded', async () => {
    const { t, sim, owner, outsider } = bench();
    const { registration, payment } = await h.paidRegistration();
    const url = `/intents/${registration.intent_id}/refund`;
    expectError(await t.post(url, { token: outsider.token, body: {} }), 404, 'NOT_FOUND');
    expectError(await t.post(url, { token: owner.token, body: { amount_cents: 6000 } }), 409, 'CONFLICT');
    expectError(
      await t.post(url, { token: owner.token, body: { amount_cents: '10' } }),
      400,
      'VALIDATION_ERROR',
    );

    const part = expectOk(
      await t.post<Intent>(url, { token: owner.token, body: { amount_cents: 1000 } }),
      200,
      'payments',
    );
    assert.equal(part.status, 'succeeded');
    assert.equal(part.refunded_cents, 1000);
    assert.equal((await h.registration(registration.id)).status, 'confirmed');

    const rest = expectOk(await t.post<Intent>(url, { token: owner.token }), 200, 'payments');
    assert.equal(rest.status, 'refunded');
    assert.equal(rest.refunded_cents, 5050);
    assert.deepEqual(
      sim.refunds.filter((refund) => refund.paymentId === payment.id).map((refund) => refund.amount),
      [10, 40.5],
    );
    await h.registrationWhen(registration.id, 'refunded');
  });
});

describe('the event payment link', () => {
  const bench = useCheckoutBench();
  const h = checkoutHelpers(bench);

  it('links a wallet of the event owner, reads and unlinks it, and refuses the others', async () => {
    const { t, owner, admin, outsider, walletId, sellerId } = bench();
    const { event } = await h.setupEdition();
    const url = `/events/${event.id}/payments`;
    const body = { wallet_id: walletId, seller_id: sellerId };
    expectError(await t.get(url, { token: owner.token }), 404, 'NOT_FOUND');
    expectError(await t.put(url, { token: admin.token, body }), 403, 'FORBIDDEN');
    expectError(await t.put(url, { token: outsider.token, body }), 403, 'FORBIDDEN');

    const linked = expectOk(await t.put<PaymentLink>(url, { token: owner.token, body }));
    assert.deepEqual(linked, { event_id: event.id, wallet_id: walletId, seller_id: sellerId, sandbox: true });
    assert.deepEqual(expectOk(await t.get<PaymentLink>(url, { token: admin.token })), linked);
    expectError(await t.delete(url, { token: admin.token }), 403, 'FORBIDDEN');
    assert.deepEqual(expectOk(await t.delete<PaymentLink>(url, { token: owner.token })), linked);
    expectError(await t.get(url, { token: owner.token }), 404, 'NOT_FOUND');
  });

  it('refuses a wallet the caller does not own (404), an unknown seller (404), a test or revoked seller (409)', async () => {
    const { t, owner, admin, walletId, sellerId } = bench();
    const { event } = await h.setupEdition();
    const url = `/events/${event.id}/payments`;
    const adminWallet = expectOk(
      await t.post<Wallet>('/wallets', { token: admin.token, body: { name: 'Not yours' } }),
      201,
    );
    const notOwned = expectError(
      await t.put(url, { token: owner.token, body: { wallet_id: adminWallet.id, seller_id: sellerId } }),
      404,
      'NOT_FOUND',
    );
    assert.equal(notOwned.message, 'Wallet not found');
    const unknown = expectError(
      await t.put(url, {
        token: owner.token,
        body: { wallet_id: walletId, seller_id: '01937a4e-0000-7000-8000-0000000000ff' },
      }),
      404,
      'NOT_FOUND',
    );
    assert.equal(unknown.message, 'Seller not found');
    const testSeller = expectOk(
      await t.post<{ id: string }>('/testmode/sellers', {
        token: owner.token,
        body: { wallet_id: walletId, provider: 'mercadopago' },
      }),
      201,
      'payments',
    );
    const refused = expectError(
      await t.put(url, { token: owner.token, body: { wallet_id: walletId, seller_id: testSeller.id } }),
      409,
      'CONFLICT',
    );
    assert.match(refused.message, /test-mode seller/);
    expectError(
      await t.put(url, { token: owner.token, body: { wallet_id: walletId } }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await t.put(url, { token: owner.token, body: { wallet_id: 'nope', seller_id: sellerId, x: 1 } }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('seller token refresh after a 401', () => {
  const bench = useCheckoutBench();
  const h = checkoutHelpers(bench);

  it('refreshes a token the provider refuses and tries once more', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition();
    const before = sim.calls.token;
    sim.revokeToken(sim.issuedTokens.at(-1) ?? '');
    const registration = expectOk(await h.register(await t.actor('payer'), edition.id, ticketType.id), 201);
    assert.ok(registration.checkout_url);
    assert.equal(sim.calls.token, before + 1);
    assert.equal(sim.calls.preference, 2);
    // The stored token is the new one: the next checkout needs no refresh.
    expectOk(await h.register(await t.actor('next'), edition.id, ticketType.id), 201);
    assert.equal(sim.calls.token, before + 1);
  });

  it('answers 502 and keeps nothing when the refresh fails too', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition();
    sim.revokeToken(sim.issuedTokens.at(-1) ?? '');
    sim.failNext(500, 'token');
    const payer = await t.actor('payer');
    expectError(await h.register(payer, edition.id, ticketType.id), 502, 'BAD_GATEWAY');
    assert.equal((await h.registrations(edition.id)).length, 0);
  });
});

describe('seller token refresh before expiry', () => {
  // Tokens that expire within the refresh margin (7 days) are refreshed before use.
  const bench = useCheckoutBench({}, { tokenTtlSeconds: 3600 });
  const h = checkoutHelpers(bench);

  it('refreshes a token near its expiry before use, storing the new ones', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition();
    const before = sim.calls.token;
    const tokensBefore = sim.issuedTokens.length;
    expectOk(await h.register(await t.actor('one'), edition.id, ticketType.id), 201);
    assert.equal(sim.calls.token, before + 1);
    assert.equal(sim.issuedTokens.length, tokensBefore + 1);

    // The refreshed token still expires within the margin: each use refreshes again, and every
    // refresh spends the newest refresh token (the simulator refuses a used one).
    expectOk(await h.register(await t.actor('two'), edition.id, ticketType.id), 201);
    assert.equal(sim.calls.token, before + 2);
  });
});

describe('idempotent checkouts (Idempotency-Key)', () => {
  // A provider that takes 200 ms, so that a retry can arrive while the first request runs.
  const bench = useCheckoutBench({}, { delayMs: 200 });
  const h = checkoutHelpers(bench);
  const registerWithKey = (by: TestUser, editionId: string, ticketTypeId: string, key: string) =>
    bench().t.post<Registration>(`/editions/${editionId}/registrations`, {
      token: by.token,
      body: { ticket_type_id: ticketTypeId },
      headers: { 'idempotency-key': key },
    });

  it('answers a retry still running with 409, then replays the answer once it completed', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition();
    const payer = await t.actor('payer');
    const running = registerWithKey(payer, edition.id, ticketType.id, 'checkout-1');
    // The retry goes once the first request is running: when the simulator holds its provider call.
    await until(
      async () => sim.held,
      (held) => held > 0,
      'the first request at the provider',
    );
    const second = await registerWithKey(payer, edition.id, ticketType.id, 'checkout-1');
    const first = await running;
    const created = expectOk(first, 201);
    const error = expectError(second, 409, 'CONFLICT');
    assert.match(error.message, /still running/);
    const replay = await registerWithKey(payer, edition.id, ticketType.id, 'checkout-1');
    assert.equal(replay.status, 201);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(expectOk(replay, 201).id, created.id);
    assert.equal(
      [...sim.preferences.values()].filter((p) => p.body.external_reference === created.intent_id).length,
      1,
    );
  });

  it('keeps no answer for a 502: a retry with the key runs again and succeeds', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition();
    const payer = await t.actor('payer');
    sim.failNext(503, 'preference');
    expectError(await registerWithKey(payer, edition.id, ticketType.id, 'checkout-2'), 502, 'BAD_GATEWAY');
    const retry = await registerWithKey(payer, edition.id, ticketType.id, 'checkout-2');
    expectOk(retry, 201);
    assert.equal(retry.headers['idempotent-replayed'], undefined);
  });
});
