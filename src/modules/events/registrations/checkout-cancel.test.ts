/**
 * Cancelling a confirmed paid registration: the money goes back in full first, through the same
 * serialised refund as the refund routes, and only then is the seat freed; when the provider
 * fails nothing changes. Over real HTTP against the Mercado Pago simulator, with the wallet's
 * webhook endpoint at a local subscriber.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import type { TestUser } from '../../../../test/harness.ts';
import { attendanceFixtures } from '../check-ins/check-ins.fixtures.ts';
import { checkoutHelpers, until, useCheckoutBench } from './checkout.fixtures.ts';
import type { Registration } from './registrations.schemas.ts';

const HOUR = 3_600_000;

describe('cancelling a confirmed paid registration', () => {
  const bench = useCheckoutBench();
  const h = checkoutHelpers(bench);
  const attendance = attendanceFixtures(bench);
  const cancel = (id: string, by: TestUser) =>
    bench().t.post<Registration>(`/registrations/${id}/cancel`, { token: by.token });

  for (const who of ['registrant', 'owner'] as const) {
    it(`refunds it in full first when the ${who} cancels: seat freed, badge revoked, registration.refunded sent`, async () => {
      const { t, sim, owner } = bench();
      const { event, edition, ticketType, payer, registration, payment } = await h.paidRegistration();
      const intentId = registration.intent_id ?? '';
      const calls = sim.calls.refund;

      const cancelled = expectOk(await cancel(registration.id, who === 'owner' ? owner : payer));
      assert.equal(cancelled.status, 'cancelled');
      assert.equal(cancelled.status_reason, 'refunded');
      assert.ok(cancelled.cancelled_at);

      // The provider gave all of it back, once, and the service's books say the same.
      assert.equal(sim.calls.refund - calls, 1);
      assert.equal(sim.refundedOf(payment.id), 50.5);
      const intent = await h.intent(intentId);
      assert.equal(intent.status, 'refunded');
      assert.equal(intent.refunded_cents, 5050);

      const [ticket] = await h.ticketTypes(edition.id);
      assert.equal(ticket?.confirmed_count, 0);
      assert.equal(ticket?.held_count, 0);
      const badge = (await h.emissions(edition.id)).find((emission) => emission.user_id === payer.id);
      assert.equal(badge?.status, 'revoked');
      assert.equal(badge?.status_reason, 'registration_cancelled');
      assert.deepEqual(await h.registrationHook('registration.refunded', registration.id), {
        registration_id: registration.id,
        edition_id: edition.id,
        event_id: event.id,
        ticket_type_id: ticketType.id,
        user_id: payer.id,
        intent_id: intentId,
      });

      // The provider's own notification of the refund then changes nothing.
      await until(
        async () => sim.notificationsSent.filter((sent) => sent.paymentId === payment.id),
        (sent) => sent.length === 2 && sent.every((one) => one.status === 200),
        'refund notification answered',
      );
      assert.equal((await h.registration(registration.id)).status, 'cancelled');
      // Nothing is left to refund or to cancel, and the provider is not asked again.
      expectError(
        await t.post(`/registrations/${registration.id}/refund`, { token: owner.token, body: {} }),
        409,
        'CONFLICT',
      );
      expectError(await cancel(registration.id, payer), 409, 'CONFLICT');
      assert.equal(sim.calls.refund - calls, 1);
    });
  }

  it('changes nothing when the provider refuses the refund: 502, still confirmed with its seat, badge and money', async () => {
    const { sim } = bench();
    const { edition, payer, registration, payment } = await h.paidRegistration();
    const intentId = registration.intent_id ?? '';
    // A refusal (4xx). A 5xx leaves the outcome unknown: checkout-refund-outcomes.test.ts.
    sim.failNext(400, 'refund');
    expectError(await cancel(registration.id, payer), 502, 'BAD_GATEWAY');

    const still = await h.registration(registration.id);
    assert.equal(still.status, 'confirmed');
    assert.equal(still.cancelled_at, null);
    const intent = await h.intent(intentId);
    assert.equal(intent.status, 'succeeded');
    assert.equal(intent.refunded_cents, 0);
    assert.equal(sim.refundedOf(payment.id), 0);
    const [ticket] = await h.ticketTypes(edition.id);
    assert.equal(ticket?.confirmed_count, 1);
    const badge = (await h.emissions(edition.id)).find((emission) => emission.user_id === payer.id);
    assert.equal(badge?.status, 'active');

    // A refusal changed nothing: the same cancellation then goes through.
    assert.equal(expectOk(await cancel(registration.id, payer)).status, 'cancelled');
    assert.equal(sim.refundedOf(payment.id), 50.5);
  });

  it('lets the registrant cancel (and get the money back) only before the edition starts; an owner or admin still can', async () => {
    const { sim, owner } = bench();
    const startedAt = Date.now() - HOUR;
    const { payer, registration, payment } = await h.paidRegistration(
      {},
      {
        starts_at: new Date(startedAt).toISOString(),
        ends_at: new Date(startedAt + 48 * HOUR).toISOString(),
      },
    );
    const calls = sim.calls.refund;
    const refused = expectError(await cancel(registration.id, payer), 409, 'CONFLICT');
    assert.match(refused.message, /edition has started.*only an owner or admin/);
    assert.equal(refused.reason, 'edition_started');
    assert.deepEqual(refused.meta, {
      starts_at: new Date(startedAt).toISOString(),
    });
    assert.equal((await h.registration(registration.id)).status, 'confirmed');
    assert.equal(sim.calls.refund, calls);

    const cancelled = expectOk(await cancel(registration.id, owner));
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(sim.refundedOf(payment.id), 50.5);
  });

  it('lets the registrant cancel only before they are checked in; an admin still can', async () => {
    const { sim, admin } = bench();
    const startsAt = Date.now() + 2 * HOUR;
    const { edition, payer, registration, payment } = await h.paidRegistration(
      {},
      { starts_at: new Date(startsAt).toISOString(), ends_at: new Date(startsAt + 48 * HOUR).toISOString() },
    );
    // Check-in opens a day before the edition starts.
    expectOk(await attendance.scan(edition.id, { code: await attendance.badgeUrlOf(edition.id, payer.id) }));
    const refused = expectError(await cancel(registration.id, payer), 409, 'CONFLICT');
    assert.match(refused.message, /checked in.*only an owner or admin/);
    assert.equal(refused.reason, 'checked_in');
    assert.equal(refused.meta, undefined);
    assert.equal(sim.refundedOf(payment.id), 0);

    assert.equal(expectOk(await cancel(registration.id, admin)).status, 'cancelled');
    assert.equal(sim.refundedOf(payment.id), 50.5);
  });

  it('tells the registrant of a test-mode payment, in words for them, that nothing can be given back', async () => {
    const { t, owner, sim } = bench();
    const { edition, ticketType } = await h.paidEdition();
    const payer = await t.actor('payer');
    const registration = expectOk(await h.register(payer, edition.id, ticketType.id), 201);
    const intentId = registration.intent_id ?? '';
    // The wallet's owner simulates the payment: no money at the provider.
    expectOk(
      await t.post(`/testmode/intents/${intentId}/simulate`, {
        token: owner.token,
        body: { status: 'succeeded' },
      }),
      200,
      'payments',
    );
    await h.registrationWhen(registration.id, 'confirmed');
    const calls = sim.calls.refund;

    const toRegistrant = expectError(await cancel(registration.id, payer), 409, 'CONFLICT');
    assert.doesNotMatch(toRegistrant.message, /simulate|intent|test mode/);
    assert.match(toRegistrant.message, /no money was taken.*organisers/);
    assert.equal(toRegistrant.reason, 'test_mode_payment');
    assert.deepEqual(toRegistrant.meta, { intent_id: intentId });
    const toOwner = expectError(await cancel(registration.id, owner), 409, 'CONFLICT');
    assert.match(toOwner.message, /simulated in test mode.*\/testmode\/intents\/\{intent_id\}\/simulate/);
    assert.equal((await h.registration(registration.id)).status, 'confirmed');
    assert.equal(sim.calls.refund, calls);
  });
});
