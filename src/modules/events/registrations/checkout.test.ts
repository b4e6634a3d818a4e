/**
 * Paid tickets through Mercado Pago (docs/reference/checkout.md), end to end over real HTTP: the service
 * listens on a port, the simulator creates preferences, takes payments on its page and notifies the service
 * exactly as Mercado Pago does, and a local subscriber receives the wallet's webhooks.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { providerNotifications } from '../../payments/webhooks/inbound/notifications.table.ts';
import { checkoutHelpers, until, useCheckoutBench } from './checkout.fixtures.ts';

describe('checkout: pay on Mercado Pago, get a confirmed registration', () => {
  const bench = useCheckoutBench();
  const h = checkoutHelpers(bench);

  it('creates the registration, the intent and the preference in one request', async () => {
    const { t, sim, walletId } = bench();
    const { event, edition, ticketType } = await h.paidEdition({ max_quantity: 10 });
    const payer = await t.actor('payer');
    const started = Date.now();

    const registration = expectOk(await h.register(payer, edition.id, ticketType.id), 201, 'events');
    assert.equal(registration.status, 'pending_payment');
    assert.equal(registration.user_id, payer.id);
    assert.ok(registration.intent_id);
    const holdEnds = Date.parse(registration.hold_expires_at ?? '');
    // CHECKOUT_HOLD_MINUTES defaults to 15.
    assert.ok(Math.abs(holdEnds - started - 15 * 60_000) < 5_000, registration.hold_expires_at ?? 'no hold');

    const preference = h.preferenceOf(registration.intent_id);
    // A sandbox wallet pays on the sandbox page.
    assert.equal(
      registration.checkout_url,
      `${sim.url}/checkout/v1/sandbox/redirect?pref_id=${preference.id}`,
    );
    assert.equal(preference.idempotencyKey, registration.intent_id);
    const body = preference.body as Record<string, unknown> & { items: Record<string, unknown>[] };
    assert.equal(body.external_reference, registration.intent_id);
    assert.deepEqual(
      body.items.map((item) => [item.title, item.quantity, item.unit_price, item.currency_id]),
      [['Conference pass', 1, 50.5, 'BRL']],
    );
    // fee_bps 1000 of 5050 cents: 505 cents, in major units.
    assert.equal(body.marketplace_fee, 5.05);
    assert.equal(body.notification_url, `${t.baseUrl}/webhooks/mercadopago`);
    assert.deepEqual(body.back_urls, {
      success: `${t.baseUrl}/checkout/${registration.intent_id}`,
      pending: `${t.baseUrl}/checkout/${registration.intent_id}`,
      failure: `${t.baseUrl}/checkout/${registration.intent_id}`,
    });
    assert.equal(body.expires, true);
    assert.equal(body.expiration_date_to, registration.hold_expires_at);

    const intent = await h.intent(registration.intent_id);
    assert.equal(intent.status, 'pending');
    assert.equal(intent.wallet_id, walletId);
    assert.equal(intent.amount_cents, 5050);
    assert.equal(intent.currency, 'BRL');
    assert.equal(intent.sandbox, true);
    assert.deepEqual(intent.metadata, {
      registration_id: registration.id,
      edition_id: edition.id,
      event_id: event.id,
      ticket_type_id: ticketType.id,
      user_id: payer.id,
    });
    const [ticket] = await h.ticketTypes(edition.id);
    assert.equal(ticket?.held_count, 1);
    assert.equal(ticket?.confirmed_count, 0);
    assert.equal(ticket?.remaining, 9);

    // The payer reads it too.
    assert.equal((await h.registration(registration.id, payer)).checkout_url, registration.checkout_url);
  });

  it('confirms on an approved payment: badge, seat, intent and the registration.confirmed webhook', async () => {
    const { t, sim } = bench();
    const { event, edition, ticketType } = await h.paidEdition();
    const payer = await t.actor('payer');
    const registration = expectOk(await h.register(payer, edition.id, ticketType.id), 201);
    const preference = h.preferenceOf(registration.intent_id ?? '');

    // The payer opens checkout_url and presses "approve": the simulator's own page and form.
    const page = await fetch(registration.checkout_url ?? '');
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Conference pass/);
    const paid = await fetch(`${sim.url}/checkout/v1/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `pref_id=${encodeURIComponent(preference.id)}&outcome=approved`,
      redirect: 'manual',
    });
    assert.equal(paid.status, 302);
    assert.ok(paid.headers.get('location')?.startsWith(`${t.baseUrl}/checkout/${registration.intent_id}?`));

    const confirmed = await h.registrationWhen(registration.id, 'confirmed');
    assert.equal(confirmed.checkout_url, null);
    const intent = await h.intent(registration.intent_id ?? '');
    assert.equal(intent.status, 'succeeded');
    assert.equal(typeof (intent.provider_data as { transaction_id?: unknown }).transaction_id, 'string');
    const [ticket] = await h.ticketTypes(edition.id);
    assert.equal(ticket?.held_count, 0);
    assert.equal(ticket?.confirmed_count, 1);
    const badge = (await h.emissions(edition.id)).find((emission) => emission.user_id === payer.id);
    assert.equal(badge?.status, 'active');
    assert.equal(badge?.origin, 'participant');

    const hooks = await until(
      async () =>
        h.received('registration.confirmed').filter((hook) => hook.data.registration_id === registration.id),
      (found) => found.length === 1,
      'registration.confirmed delivered',
    );
    assert.deepEqual(hooks[0]?.data, {
      registration_id: registration.id,
      edition_id: edition.id,
      event_id: event.id,
      ticket_type_id: ticketType.id,
      user_id: payer.id,
      intent_id: registration.intent_id,
    });
    await until(
      async () =>
        h.received('payment.succeeded').filter((hook) => hook.data.intent_id === registration.intent_id),
      (found) => found.length === 1,
      'payment.succeeded delivered',
    );
  });

  it('gives the same registration and checkout back to a payer who registers again (no second hold)', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition({ max_quantity: 5 });
    const payer = await t.actor('payer');
    const first = expectOk(await h.register(payer, edition.id, ticketType.id), 201);
    const preferences = sim.preferences.size;
    const again = expectOk(await h.register(payer, edition.id, ticketType.id), 200);
    assert.equal(again.id, first.id);
    assert.equal(again.checkout_url, first.checkout_url);
    assert.equal(again.intent_id, first.intent_id);
    assert.equal(sim.preferences.size, preferences);
    assert.equal((await h.ticketTypes(edition.id))[0]?.held_count, 1);
  });

  it('keeps the registration pending after a rejected payment, and confirms a pending one once approved', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition();
    const rejectedPayer = await t.actor('rejected');
    const rejected = expectOk(await h.register(rejectedPayer, edition.id, ticketType.id), 201);
    await sim.pay(h.preferenceOf(rejected.intent_id ?? '').id, 'rejected');
    await until(
      () => h.intent(rejected.intent_id ?? ''),
      (intent) => intent.status === 'rejected',
      'intent rejected',
    );
    assert.equal((await h.registration(rejected.id)).status, 'pending_payment');

    const slowPayer = await t.actor('slow');
    const slow = expectOk(await h.register(slowPayer, edition.id, ticketType.id), 201);
    const payment = await sim.pay(h.preferenceOf(slow.intent_id ?? '').id, 'pending');
    // `pay` returns once the service has answered the notification.
    assert.deepEqual(sim.notificationsSent.at(-1), { paymentId: payment.id, status: 200 });
    assert.equal((await h.intent(slow.intent_id ?? '')).status, 'pending');
    assert.equal((await h.registration(slow.id)).status, 'pending_payment');
    await sim.settle(payment.id, 'approved', 'accredited');
    await h.registrationWhen(slow.id, 'confirmed');
  });

  it('gives back a payment approved after the intent was rejected (paid again on the same page)', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition();
    const registration = expectOk(await h.register(await t.actor('retry'), edition.id, ticketType.id), 201);
    const preferenceId = h.preferenceOf(registration.intent_id ?? '').id;
    await sim.pay(preferenceId, 'rejected');
    const approved = await sim.pay(preferenceId, 'approved');
    await until(
      async () => sim.refunds.filter((refund) => refund.paymentId === approved.id),
      (refunds) => refunds.length === 1,
      'the orphan payment refunded',
    );
    assert.equal((await h.intent(registration.intent_id ?? '')).status, 'rejected');
    assert.equal((await h.registration(registration.id)).status, 'pending_payment');
    const [record] = await t.db
      .select()
      .from(providerNotifications)
      .where(eq(providerNotifications.resource_id, approved.id));
    assert.equal(record?.outcome, 'stale');
    assert.match(record?.reason ?? '', /the payment is refunded/);
  });

  it('opens a fresh checkout for a payer who registers again after a refused card', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition({ max_quantity: 5 });
    const payer = await t.actor('refused');
    const first = expectOk(await h.register(payer, edition.id, ticketType.id), 201);
    await sim.pay(h.preferenceOf(first.intent_id ?? '').id, 'rejected');

    const again = expectOk(await h.register(payer, edition.id, ticketType.id), 200);
    assert.equal(again.id, first.id);
    assert.equal(again.status, 'pending_payment');
    assert.equal(again.hold_expires_at, first.hold_expires_at, 'the same hold');
    assert.notEqual(again.intent_id, first.intent_id);
    assert.notEqual(again.checkout_url, first.checkout_url);
    assert.equal((await h.intent(first.intent_id ?? '')).status, 'rejected');
    assert.equal((await h.ticketTypes(edition.id))[0]?.held_count, 1, 'no second hold');
    // While the fresh checkout can be paid, registering again gives it back as it is.
    assert.equal(
      expectOk(await h.register(payer, edition.id, ticketType.id), 200).intent_id,
      again.intent_id,
    );

    await sim.pay(h.preferenceOf(again.intent_id ?? '').id, 'approved');
    await h.registrationWhen(first.id, 'confirmed');
    assert.equal((await h.intent(again.intent_id ?? '')).status, 'succeeded');
  });

  it('opens the fresh checkout for the ticket type held, whichever type the payer asks for again', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition({ max_quantity: 5 });
    const cheaper = await h.createTicketType(edition.id, {
      name: 'Day pass',
      price_cents: 1000,
      currency: 'BRL',
    });
    const payer = await t.actor('switcher');
    const first = expectOk(await h.register(payer, edition.id, ticketType.id), 201);
    await sim.pay(h.preferenceOf(first.intent_id ?? '').id, 'rejected');

    // Asking for the cheaper type while holding a seat of the first: the held registration's checkout.
    const again = expectOk(await h.register(payer, edition.id, cheaper.id), 200);
    assert.equal(again.id, first.id);
    assert.equal(again.ticket_type_id, ticketType.id);
    assert.notEqual(again.intent_id, first.intent_id);
    assert.equal((await h.intent(again.intent_id ?? '')).amount_cents, 5050, 'priced as the seat held');
    const [item] = (h.preferenceOf(again.intent_id ?? '').body.items as Record<string, unknown>[]) ?? [];
    assert.equal(item?.unit_price, 50.5);
  });

  /** An approved payment of the intent at the simulator, with `fields`, and its notification (answered 200). */
  const notifyApproved = async (intentId: string, fields: Record<string, unknown>) => {
    const id = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    const { sim } = bench();
    sim.addPayment({
      id,
      status: 'approved',
      status_detail: 'accredited',
      external_reference: intentId,
      ...fields,
    });
    assert.equal(await sim.notify(id), 200);
    return id;
  };

  it('changes nothing for a payment whose amount or currency differs from the intent (mismatch)', async () => {
    const { t } = bench();
    const { edition, ticketType } = await h.paidEdition();
    const payer = await t.actor('payer');
    const registration = expectOk(await h.register(payer, edition.id, ticketType.id), 201);
    const preference = h.preferenceOf(registration.intent_id ?? '');
    for (const [amount, currency] of [
      [1, 'BRL'],
      [50.5, 'ARS'],
    ] as const) {
      const payment = {
        transaction_amount: amount,
        currency_id: currency,
        collector_id: preference.collectorId,
      };
      await notifyApproved(registration.intent_id ?? '', payment);
    }
    const intent = await h.intent(registration.intent_id ?? '');
    assert.equal(intent.status, 'pending');
    assert.equal((await h.registration(registration.id)).status, 'pending_payment');
    const records = await t.db
      .select()
      .from(providerNotifications)
      .where(eq(providerNotifications.intent_id, registration.intent_id ?? ''));
    assert.deepEqual(
      records.map((record) => [record.outcome, record.reason]),
      [
        ['mismatch', 'the payment is 100 BRL and the intent 5050 BRL'],
        ['mismatch', 'the payment is 5050 ARS and the intent 5050 BRL'],
      ],
    );
  });

  it('changes nothing for a payment that names no collector (mismatch, as another account)', async () => {
    const { t } = bench();
    const { edition, ticketType } = await h.paidEdition();
    const registration = expectOk(await h.register(await t.actor('payer'), edition.id, ticketType.id), 201);
    // Right reference, amount and currency, but no account it was paid to.
    const id = await notifyApproved(registration.intent_id ?? '', {
      transaction_amount: 50.5,
      currency_id: 'BRL',
    });
    assert.equal((await h.intent(registration.intent_id ?? '')).status, 'pending');
    assert.equal((await h.registration(registration.id)).status, 'pending_payment');
    assert.equal((await h.ticketTypes(edition.id))[0]?.confirmed_count, 0);
    const records = await t.db
      .select()
      .from(providerNotifications)
      .where(eq(providerNotifications.resource_id, id));
    assert.deepEqual(
      records.map((record) => [record.outcome, record.reason]),
      [['mismatch', 'the payment names no account it was paid to (collector)']],
    );
  });
});

describe('checkout: refusals and provider failures leave nothing behind', () => {
  const bench = useCheckoutBench();
  const h = checkoutHelpers(bench);

  const nothingBehind = async (editionId: string, userId: string, ticketTypeId: string) => {
    const registrations = await h.registrations(editionId);
    assert.equal(registrations.filter((row) => row.user_id === userId).length, 0);
    const ticket = (await h.ticketTypes(editionId)).find((found) => found.id === ticketTypeId);
    assert.equal(ticket?.held_count, 0);
  };

  it('answers 502 when Mercado Pago fails or is unreachable, and keeps nothing', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition();
    const payer = await t.actor('payer');
    for (const status of [500, 503, 400, 429]) {
      sim.failNext(status, 'preference');
      const error = expectError(await h.register(payer, edition.id, ticketType.id), 502, 'BAD_GATEWAY');
      assert.match(error.message, /Mercado Pago checkout preference failed: HTTP \d+/);
      await nothingBehind(edition.id, payer.id, ticketType.id);
    }
    // Then it works.
    expectOk(await h.register(payer, edition.id, ticketType.id), 201);
  });

  it('refuses a paid ticket without a link, after an unlink, or when sold out counting holds (409)', async () => {
    const { t, owner } = bench();
    const { event, edition, ticketType } = await h.paidEdition({ max_quantity: 1 });
    const first = await t.actor('first');
    expectOk(await h.register(first, edition.id, ticketType.id), 201);
    const second = await t.actor('second');
    const soldOut = expectError(await h.register(second, edition.id, ticketType.id), 409, 'CONFLICT');
    assert.match(soldOut.message, /sold out/);
    assert.equal(soldOut.reason, 'sold_out');

    const other = await h.createTicketType(edition.id, { name: 'Other', price_cents: 100, currency: 'BRL' });
    expectOk(await t.delete(`/events/${event.id}/payments`, { token: owner.token }));
    const unlinked = expectError(await h.register(second, edition.id, other.id), 409, 'CONFLICT');
    assert.match(unlinked.message, /payments/);
    await nothingBehind(edition.id, second.id, other.id);
  });
});
