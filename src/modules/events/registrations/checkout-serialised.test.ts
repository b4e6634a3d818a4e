/**
 * Provider calls under concurrency: a refund is reserved in the database before Mercado Pago is
 * asked, so concurrent refunds reach the provider once and the service's `refunded_cents` always
 * equals what the provider gave back; a reservation left by a process that stopped is finished by
 * a job; a buyer's concurrent first registrations make one preference. Provider calls
 * interleave on the embedded database too; the server run adds parallel connections.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import type { ApiResponse } from '../../../../test/harness.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { reserveRefund } from '../../payments/checkout/refunds.ts';
import type { Intent } from '../../payments/intents/intents.schemas.ts';
import { intentRefunds } from '../../payments/intents/refunds.table.ts';
import { checkoutHelpers, until, useCheckoutBench } from './checkout.fixtures.ts';
import type { Registration } from './registrations.schemas.ts';

const statuses = (responses: ApiResponse[]) => responses.map((response) => response.status).sort();

describe('serialised provider calls', () => {
  const bench = useCheckoutBench();
  const h = checkoutHelpers(bench);
  const refundIntent = (intentId: string, body: Record<string, unknown> = {}) =>
    bench().t.post<Intent>(`/intents/${intentId}/refund`, { token: bench().owner.token, body });
  /** The provider's refunded total of a payment, in cents (BRL has two decimals). */
  const providerRefunded = (paymentId: string) => Math.round(bench().sim.refundedOf(paymentId) * 100);

  it('asks the provider once for ten concurrent refunds of one registration', async () => {
    const { t, sim, owner } = bench();
    const { registration, payment } = await h.paidRegistration();
    const calls = sim.calls.refund;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.post<Registration>(`/registrations/${registration.id}/refund`, { token: owner.token, body: {} }),
      ),
    );
    assert.deepEqual(statuses(responses), [200, ...Array(9).fill(409)]);
    for (const response of responses.filter((one) => one.status === 409)) {
      expectError(response, 409, 'CONFLICT');
    }
    assert.equal(sim.calls.refund - calls, 1);
    const intent = await h.intent(registration.intent_id ?? '');
    assert.equal(intent.status, 'refunded');
    assert.equal(intent.refunded_cents, 5050);
    assert.equal(providerRefunded(payment.id), intent.refunded_cents);
    await h.registrationWhen(registration.id, 'refunded');
  });

  it('sends one of two concurrent partial refunds that together pass the amount', async () => {
    const { sim } = bench();
    const { registration, payment } = await h.paidRegistration({ price_cents: 5000 });
    const intentId = registration.intent_id ?? '';
    const calls = sim.calls.refund;
    const responses = await Promise.all([
      refundIntent(intentId, { amount_cents: 4000 }),
      refundIntent(intentId, { amount_cents: 3000 }),
    ]);
    assert.deepEqual(statuses(responses), [200, 409]);
    assert.equal(sim.calls.refund - calls, 1);
    const part = await h.intent(intentId);
    assert.equal(part.status, 'succeeded');
    assert.ok([3000, 4000].includes(part.refunded_cents), String(part.refunded_cents));
    assert.equal(providerRefunded(payment.id), part.refunded_cents);

    const rest = expectOk(await refundIntent(intentId), 200, 'payments');
    assert.equal(rest.status, 'refunded');
    assert.equal(rest.refunded_cents, 5000);
    assert.equal(providerRefunded(payment.id), 5000);
  });

  it('releases the reservation when the provider refuses: 502, nothing changed, the next refund goes through', async () => {
    const { sim } = bench();
    const { registration, payment } = await h.paidRegistration();
    const intentId = registration.intent_id ?? '';
    // A refusal (4xx). A 5xx leaves the outcome unknown: checkout-refund-outcomes.test.ts.
    sim.failNext(400, 'refund');
    const refused = expectError(await refundIntent(intentId, { amount_cents: 1000 }), 502, 'BAD_GATEWAY');
    assert.doesNotMatch(refused.message, /being confirmed/);
    assert.deepEqual(
      await bench().t.db.select().from(intentRefunds).where(eq(intentRefunds.intent_id, intentId)),
      [],
    );
    const unchanged = await h.intent(intentId);
    assert.equal(unchanged.status, 'succeeded');
    assert.equal(unchanged.refunded_cents, 0);
    assert.equal(providerRefunded(payment.id), 0);

    const part = expectOk(await refundIntent(intentId, { amount_cents: 1000 }), 200, 'payments');
    assert.equal(part.refunded_cents, 1000);
    assert.equal(providerRefunded(payment.id), 1000);
  });

  it('finishes a refund whose process stopped after asking the provider, without refunding twice', async () => {
    const { t, sim } = bench();
    const { registration, payment } = await h.paidRegistration();
    const intentId = registration.intent_id ?? '';
    const calls = sim.calls.refund;
    // What a process leaves when it stops between the provider's answer and its own commit: the
    // reservation, and a refund done at the provider under the reservation's idempotency key.
    const { refund } = await reserveRefund(t.db, intentId, {}, { attemptId: uuidv7(), leaseMs: 1000 });
    const collector = h.preferenceOf(intentId).collectorId;
    const token = sim.issuedTokens.filter((issued) => issued.endsWith(`-${collector}`)).at(-1);
    const done = await fetch(`${sim.url}/v1/payments/${payment.id}/refunds`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-idempotency-key': refund.provider_key,
      },
      body: '{}',
    });
    assert.equal(done.status, 201);

    // The job takes the reservation up once it is due, asks again with the same key, and records
    // what the provider gave back, once.
    await until(
      () => t.db.select().from(intentRefunds).where(eq(intentRefunds.id, refund.id)),
      ([row]) => row?.status === 'settled',
      'the reservation settled',
    );
    assert.equal(sim.calls.refund - calls, 2);
    await h.registrationWhen(registration.id, 'refunded');
    const intent = await h.intent(intentId);
    assert.equal(intent.status, 'refunded');
    assert.equal(intent.refunded_cents, 5050);
    assert.equal(providerRefunded(payment.id), 5050);
    assert.equal(sim.refunds.filter((made) => made.paymentId === payment.id).length, 1);
  });

  it('makes one preference for ten concurrent first registrations of one buyer', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition({ max_quantity: 20 });
    const buyer = await t.actor('buyer');
    const preferences = sim.calls.preference;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => h.register(buyer, edition.id, ticketType.id)),
    );
    assert.deepEqual(statuses(responses), [200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const registrations = responses.map((response) => response.body.data);
    const [first] = registrations;
    for (const registration of registrations) {
      assert.equal(registration.id, first?.id);
      assert.equal(registration.checkout_url, first?.checkout_url);
      assert.equal(registration.intent_id, first?.intent_id);
    }
    assert.equal(sim.calls.preference - preferences, 1);
    const [ticket] = await h.ticketTypes(edition.id);
    assert.equal(ticket?.held_count, 1);
    assert.equal((await h.registrations(edition.id)).length, 1);
  });
});
