/**
 * Refunds whose outcome the provider leaves unclear (docs/decisions.md, "Refunds"): Mercado Pago makes the
 * refund and then answers an error, or the connection drops. The reservation is then kept, never
 * released: the caller gets a 502 saying the outcome is being confirmed, further refunds of the
 * intent are 409, and the resume job asks again with the same idempotency key until the provider
 * answers, recording what it gave back. (A definite refusal, a 4xx, releases it:
 * checkout-serialised.test.ts.) The service's `refunded_cents` always equals what the provider
 * gave back. Over real HTTP against the
 * Mercado Pago simulator; `JOBS_LEASE_MS` at its minimum so the resume job comes 2 s after.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import type { Intent } from '../../payments/intents/intents.schemas.ts';
import { intentRefunds } from '../../payments/intents/refunds.table.ts';
import { checkoutHelpers, until, useCheckoutBench } from './checkout.fixtures.ts';
import type { Registration } from './registrations.schemas.ts';

describe('refund outcomes the provider leaves unclear', () => {
  const bench = useCheckoutBench({ JOBS_LEASE_MS: '2000' });
  const h = checkoutHelpers(bench);
  const refundIntent = (intentId: string, body: Record<string, unknown> = {}) =>
    bench().t.post<Intent>(`/intents/${intentId}/refund`, { token: bench().owner.token, body });
  /** The provider's refunded total of a payment, in cents (BRL has two decimals). */
  const providerRefunded = (paymentId: string) => Math.round(bench().sim.refundedOf(paymentId) * 100);
  const refundsOf = (intentId: string) =>
    bench().t.db.select().from(intentRefunds).where(eq(intentRefunds.intent_id, intentId));
  // What a test arranged for refund requests (a lost or held answer) never outlives it.
  afterEach(() => bench().sim.clearRefundArrangements());

  for (const how of [500, 'reset'] as const) {
    it(`keeps the reservation when the refund is made but its answer is lost (${how}) and settles it once the provider answers`, async () => {
      const { sim } = bench();
      const { registration, payment } = await h.paidRegistration();
      const intentId = registration.intent_id ?? '';
      const calls = sim.calls.refund;
      sim.loseNextRefundAnswer(how);
      // The resume job's call to the provider is answered only once the checks below are done.
      const answer = sim.holdNextRefundAnswer();
      const unclear = expectError(await refundIntent(intentId, { amount_cents: 1000 }), 502, 'BAD_GATEWAY');
      assert.match(unclear.message, /being confirmed/);
      assert.equal(unclear.reason, 'refund_unconfirmed');
      assert.equal(providerRefunded(payment.id), 1000);
      const [reserved] = await refundsOf(intentId);
      assert.equal(reserved?.status, 'pending');
      assert.equal(reserved?.amount_cents, 1000);
      // Meanwhile no other refund of the intent reaches the provider, whatever its amount.
      const busy = expectError(await refundIntent(intentId, { amount_cents: 2000 }), 409, 'CONFLICT');
      assert.equal(busy.reason, 'refund_in_progress');
      expectError(await refundIntent(intentId), 409, 'CONFLICT');
      assert.equal((await h.intent(intentId)).refunded_cents, 0);

      // The resume job asks again with the same key: the provider answers the refund it made.
      await until(
        async () => sim.calls.refund - calls,
        (count) => count === 2,
        'the resume job asked the provider',
      );
      answer();
      await until(
        () => refundsOf(intentId),
        ([row]) => row?.status === 'settled',
        'the reservation settled',
      );
      const intent = await h.intent(intentId);
      assert.equal(intent.status, 'succeeded');
      assert.equal(intent.refunded_cents, 1000);
      assert.equal(providerRefunded(payment.id), intent.refunded_cents);
      assert.equal(sim.refunds.filter((made) => made.paymentId === payment.id).length, 1);
      assert.equal((await h.registration(registration.id)).status, 'confirmed');

      // Then the intent takes refunds again.
      const rest = expectOk(await refundIntent(intentId), 200, 'payments');
      assert.equal(rest.status, 'refunded');
      assert.equal(rest.refunded_cents, 5050);
      assert.equal(providerRefunded(payment.id), 5050);
    });
  }

  it('records what the provider gave back when it is not what was asked', async () => {
    const { sim } = bench();
    const { registration, payment } = await h.paidRegistration();
    const intentId = registration.intent_id ?? '';
    sim.limitNextRefund(15);
    const part = expectOk(await refundIntent(intentId, { amount_cents: 2000 }), 200, 'payments');
    assert.equal(part.refunded_cents, 1500);
    assert.equal(providerRefunded(payment.id), 1500);
    const [settled] = await refundsOf(intentId);
    assert.equal(settled?.status, 'settled');
    assert.equal(settled?.amount_cents, 1500);
  });

  it('ends a cancellation whose refund went unconfirmed once the refund is confirmed, refunding once', async () => {
    const { t, sim } = bench();
    const { edition, payer, registration, payment } = await h.paidRegistration();
    const cancel = () =>
      t.post<Registration>(`/registrations/${registration.id}/cancel`, { token: payer.token });
    sim.loseNextRefundAnswer(500);
    const unclear = expectError(await cancel(), 502, 'BAD_GATEWAY');
    assert.equal(unclear.reason, 'refund_unconfirmed');
    // Asked again meanwhile: a 409 (the refund in progress, or the registration already cancelled
    // by the provider's notification of the refund), never a second refund.
    expectError(await cancel(), 409, 'CONFLICT');

    await h.registrationWhen(registration.id, 'cancelled');
    const intent = await h.intent(registration.intent_id ?? '');
    assert.equal(intent.status, 'refunded');
    assert.equal(intent.refunded_cents, 5050);
    assert.equal(sim.refunds.filter((made) => made.paymentId === payment.id).length, 1);
    assert.equal((await h.ticketTypes(edition.id))[0]?.confirmed_count, 0);
  });

  // Last: it revokes the bench's seller.
  it('never lets the resume job release a reservation whose request is still waiting for the provider', async () => {
    const { t, sim, owner, sellerId } = bench();
    const { registration, payment } = await h.paidRegistration();
    const intentId = registration.intent_id ?? '';
    const calls = sim.calls.refund;
    const answer = sim.holdNextRefundAnswer();
    const pending = refundIntent(intentId, { amount_cents: 1000 });
    await until(
      async () => sim.calls.refund - calls,
      (count) => count === 1,
      'the request reached the provider',
    );
    const [reserved] = await refundsOf(intentId);
    assert.ok(reserved);
    // The seller's credentials go while the provider is making the refund: the resume job, due
    // now, cannot ask the provider, and must not take that as "nothing was refunded".
    expectOk(
      await t.post('/providers/mercadopago/revoke', {
        token: owner.token,
        body: { flow: 'seller', id: sellerId },
      }),
      200,
      'payments',
    );
    await until(
      () => h.jobsOf(reserved.id),
      ([job]) => (job?.attempts ?? 0) >= 1 && job?.claim_id === null,
      'the resume job ran',
    );
    answer();
    const part = expectOk(await pending, 200, 'payments');
    assert.equal(part.refunded_cents, 1000);
    assert.equal(providerRefunded(payment.id), 1000);
    const [settled] = await refundsOf(intentId);
    assert.equal(settled?.status, 'settled');
  });
});
