/**
 * What happens to a paid registration after the checkout (docs/reference/checkout.md), over real HTTP against
 * the simulator, with holds of one second (`CHECKOUT_HOLD_SECONDS`) so that their end is watched, not faked:
 * expiry, payments after it with and without a free seat, a lost notification recovered by reconciliation,
 * and a checkout nobody paid.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { providerNotifications } from '../../payments/webhooks/inbound/notifications.table.ts';
import { checkoutHelpers, until, useCheckoutBench } from './checkout.fixtures.ts';

describe('checkout: the hold ends (reconciliation 10 minutes later)', () => {
  const bench = useCheckoutBench({ CHECKOUT_HOLD_SECONDS: '1' });
  const h = checkoutHelpers(bench);

  it('expires an unpaid registration: the seat comes back and registration.expired is sent', async () => {
    const { t } = bench();
    const { edition, ticketType } = await h.paidEdition({ max_quantity: 1 });
    const payer = await t.actor('payer');
    const registration = expectOk(await h.register(payer, edition.id, ticketType.id), 201);
    assert.equal((await h.ticketTypes(edition.id))[0]?.remaining, 0);

    const expired = await h.registrationWhen(registration.id, 'expired');
    assert.equal(expired.status_reason, 'hold_expired');
    assert.equal(expired.checkout_url, null);
    // Cancelling it now is refused for that cause, by name.
    const refused = await t.post(`/registrations/${registration.id}/cancel`, { token: payer.token });
    assert.equal(expectError(refused, 409, 'CONFLICT').reason, 'hold_expired');
    const [ticket] = await h.ticketTypes(edition.id);
    assert.equal(ticket?.held_count, 0);
    assert.equal(ticket?.remaining, 1);
    // The intent waits for reconciliation: a payment being processed may still succeed.
    assert.equal((await h.intent(registration.intent_id ?? '')).status, 'pending');
    await until(
      async () =>
        h.received('registration.expired').filter((hook) => hook.data.registration_id === registration.id),
      (found) => found.length === 1,
      'registration.expired delivered',
    );
    // Someone else can now have the seat.
    expectOk(await h.register(await t.actor('next'), edition.id, ticketType.id), 201);
  });

  it('confirms a payment made after the hold ended when a seat is free', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition({ max_quantity: 3 });
    const payer = await t.actor('late');
    const registration = expectOk(await h.register(payer, edition.id, ticketType.id), 201);
    await h.registrationWhen(registration.id, 'expired');
    await sim.pay(h.preferenceOf(registration.intent_id ?? '').id, 'approved');
    const confirmed = await h.registrationWhen(registration.id, 'confirmed');
    assert.equal(confirmed.status_reason, null);
    const [ticket] = await h.ticketTypes(edition.id);
    assert.equal(ticket?.confirmed_count, 1);
    assert.equal(ticket?.held_count, 0);
    const badge = (await h.emissions(edition.id)).find((emission) => emission.user_id === payer.id);
    assert.equal(badge?.status, 'active');
  });

  it('refunds a payment made after the hold ended when the seat was sold meanwhile', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition({ max_quantity: 1 });
    const late = await t.actor('late');
    const lateRegistration = expectOk(await h.register(late, edition.id, ticketType.id), 201);
    await h.registrationWhen(lateRegistration.id, 'expired');
    const quick = await t.actor('quick');
    const quickRegistration = expectOk(await h.register(quick, edition.id, ticketType.id), 201);
    await sim.pay(h.preferenceOf(quickRegistration.intent_id ?? '').id, 'approved');
    await h.registrationWhen(quickRegistration.id, 'confirmed');

    const payment = await sim.pay(h.preferenceOf(lateRegistration.intent_id ?? '').id, 'approved');
    const refunded = await h.registrationWhen(lateRegistration.id, 'refunded');
    assert.equal(refunded.status_reason, 'sold_out_after_expiry');
    assert.deepEqual(
      sim.refunds.filter((refund) => refund.paymentId === payment.id).map((refund) => refund.amount),
      [null],
    );
    const intent = await until(
      () => h.intent(lateRegistration.intent_id ?? ''),
      (found) => found.status === 'refunded',
      'intent refunded',
    );
    assert.equal(intent.refunded_cents, 5050);
    const [ticket] = await h.ticketTypes(edition.id);
    assert.equal(ticket?.confirmed_count, 1);
    assert.equal(ticket?.max_quantity, 1);
    await until(
      async () =>
        h
          .received('registration.refunded')
          .filter((hook) => hook.data.registration_id === lateRegistration.id),
      (found) => found.length === 1,
      'registration.refunded delivered',
    );
  });
});

describe('checkout: reconciliation after the hold', () => {
  const bench = useCheckoutBench({ CHECKOUT_HOLD_SECONDS: '1', RECONCILE_AFTER_SECONDS: '1' });
  const h = checkoutHelpers(bench);

  it('confirms a paid registration whose notification was lost', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition();
    const payer = await t.actor('payer');
    const registration = expectOk(await h.register(payer, edition.id, ticketType.id), 201);
    const payment = await sim.pay(h.preferenceOf(registration.intent_id ?? '').id, 'approved', {
      notify: false,
    });
    await h.registrationWhen(registration.id, 'confirmed');
    const intent = await h.intent(registration.intent_id ?? '');
    assert.equal(intent.status, 'succeeded');
    assert.equal((intent.provider_data as { transaction_id?: string }).transaction_id, payment.id);
    const records = await t.db
      .select()
      .from(providerNotifications)
      .where(
        and(eq(providerNotifications.intent_id, intent.id), eq(providerNotifications.type, 'reconciliation')),
      );
    assert.deepEqual(
      records.map((record) => [record.outcome, record.resource_id]),
      [['applied', payment.id]],
    );
  });

  it('retries reconciliation when Mercado Pago fails, and confirms once it answers', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition();
    const registration = expectOk(await h.register(await t.actor('payer'), edition.id, ticketType.id), 201);
    await sim.pay(h.preferenceOf(registration.intent_id ?? '').id, 'approved', { notify: false });
    const searches = sim.calls.search;
    sim.failNext(503, 'search');
    await h.registrationWhen(registration.id, 'confirmed', 20_000);
    // The failed search, then the one that found the payment (the job's first retry waits 5 s).
    assert.ok(sim.calls.search >= searches + 2, `searches: ${sim.calls.search - searches}`);
    // The runner records the job's outcome after the handler's transaction has confirmed the
    // registration, so the job is read once it is no longer pending.
    const [job] = await until(
      () => h.jobsOf(registration.intent_id ?? ''),
      (found) => found[0]?.status !== 'pending',
      'reconciliation job settled',
    );
    assert.equal(job?.status, 'done');
    assert.equal(job?.attempts, 2);
    assert.match(job?.last_error ?? '', /Mercado Pago payment search failed: HTTP 503/);
  });

  it('cancels the intent of a checkout nobody paid (status_detail expired)', async () => {
    const { t } = bench();
    const { edition, ticketType } = await h.paidEdition();
    const registration = expectOk(await h.register(await t.actor('gone'), edition.id, ticketType.id), 201);
    await h.registrationWhen(registration.id, 'expired');
    const intent = await until(
      () => h.intent(registration.intent_id ?? ''),
      (found) => found.status !== 'pending',
      'intent settled',
    );
    assert.equal(intent.status, 'cancelled');
    assert.equal(intent.status_detail, 'expired');
    assert.equal((await h.registration(registration.id)).status, 'expired');
  });
});
