/**
 * Inbound provider notifications (docs/reference/webhooks.md, `POST /webhooks/{provider}`) against the
 * Mercado Pago simulator over real HTTP, with a seller connected through the real OAuth flow and
 * notifications signed as Mercado Pago signs them: the applied, duplicate, stale, ignored and unmatched
 * outcomes and what each leaves in the database, provider failures and concurrent copies. Refusals
 * (signature, timestamp, configuration, input) are in notifications-refusals.test.ts.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expectError, expectOk } from '../../../../../test/assertions.ts';
import { signNotification } from '../../../../../test/mercadopago-simulator.ts';
import { seal } from '../../../../kernel/secret-box.ts';
import { sellers } from '../../connections/connections.table.ts';
import * as intentsRepo from '../../intents/intents.repository.ts';
import type { Intent } from '../../intents/intents.schemas.ts';
import { connectSeller, UUID_V7 } from '../../payments.fixtures.ts';
import type { Seller } from '../../wallets/wallets.schemas.ts';
import { webhookDeliveries } from '../delivery/delivery.table.ts';
import { createOutbox } from '../delivery/outbox.ts';
import {
  newPaymentId,
  notificationBody,
  notificationHelpers,
  useNotificationsBench,
  WEBHOOK_SECRET,
} from './notifications.fixtures.ts';
import type { NotificationReceipt } from './notifications.schemas.ts';
import { settleNotification } from './notifications.service.ts';
import { providerNotifications } from './notifications.table.ts';

const POLICY = createOutbox([0], undefined, []);

describe('POST /webhooks/{provider}: outcomes', () => {
  const bench = useNotificationsBench();
  const { intentWithPayment, notify, counts, recordsOf, eventsOf, intentNow, receiptOf } =
    notificationHelpers(bench);

  it('applies a signed payment notification: the intent moves, with one event, one delivery, one record', async () => {
    const { sim, t, endpointId } = bench();
    const { intent, paymentId } = await intentWithPayment({
      status: 'approved',
      status_detail: 'accredited',
    });
    const before = await counts();

    const receipt = receiptOf(await notify(paymentId));
    assert.deepEqual(Object.keys(receipt).sort(), ['event_id', 'outcome', 'received']);
    assert.equal(receipt.received, true);
    assert.equal(receipt.outcome, 'applied');
    assert.match(receipt.event_id ?? '', UUID_V7);

    const moved = await intentNow(intent.id);
    assert.equal(moved.status, 'succeeded');
    assert.equal(moved.status_detail, null);
    assert.deepEqual(moved.provider_data, { transaction_id: paymentId });

    const event = (await eventsOf(intent.id)).find((row) => row.id === receipt.event_id);
    assert.equal(event?.type, 'payment.succeeded');
    assert.equal(event?.source, 'mercadopago');
    assert.equal(event?.payload.status, 'succeeded');
    assert.equal(event?.payload.external_id, paymentId);

    const deliveries = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.event_id, receipt.event_id ?? ''));
    assert.equal(deliveries.length, 1);
    assert.equal(deliveries[0]?.endpoint_id, endpointId);
    // A delivery worker may already have attempted it: any status, but it exists.
    assert.ok(['pending', 'delivered', 'failed'].includes(deliveries[0]!.status));

    const records = await recordsOf(paymentId);
    assert.equal(records.length, 1);
    const [record] = records;
    assert.equal(record?.provider, 'mercadopago');
    assert.equal(record?.type, 'payment');
    assert.equal(record?.outcome, 'applied');
    assert.equal(record?.reason, null);
    assert.equal(record?.intent_id, intent.id);
    assert.equal(record?.event_id, receipt.event_id);
    assert.equal(record?.request_id, `req-${paymentId}`);
    assert.deepEqual(record?.payload, notificationBody(paymentId));

    const after = await counts();
    assert.deepEqual(after, {
      events: before.events + 1,
      deliveries: before.deliveries + 1,
      notifications: before.notifications + 1,
    });

    // The same notification again (Mercado Pago retries): 200, nothing created.
    const again = receiptOf(await notify(paymentId));
    assert.deepEqual(again, { received: true, outcome: 'duplicate' });
    assert.deepEqual(await counts(), after);
    assert.equal((await intentNow(intent.id)).updated_at, moved.updated_at);

    // A later status of the same payment is not a duplicate: a refund moves a succeeded intent.
    await sim.settle(paymentId, 'refunded', 'refunded', { notify: false });
    assert.equal(receiptOf(await notify(paymentId)).outcome, 'applied');
    assert.equal((await intentNow(intent.id)).status, 'refunded');
    assert.deepEqual(await counts(), {
      events: after.events + 1,
      deliveries: after.deliveries + 1,
      notifications: after.notifications + 1,
    });
  });

  it('accepts ts in milliseconds and maps status_detail', async () => {
    const { intent, paymentId } = await intentWithPayment({
      status: 'rejected',
      status_detail: 'cc_rejected_insufficient_amount',
    });
    const receipt = receiptOf(await notify(paymentId, { ts: Date.now() }));
    assert.equal(receipt.outcome, 'applied');
    const moved = await intentNow(intent.id);
    assert.equal(moved.status, 'rejected');
    assert.equal(moved.status_detail, 'insufficient_funds');
  });

  it('takes data.id from the body when the query lacks it, and accepts unknown fields and parameters', async () => {
    const { intent, paymentId } = await intentWithPayment({ status: 'approved' });
    const body = { ...notificationBody(paymentId), extra: { nested: [1, 'two'] }, another: null };
    const receipt = receiptOf(await notify(paymentId, { query: 'source_news=webhooks&foo=bar', body }));
    assert.equal(receipt.outcome, 'applied');
    assert.equal((await intentNow(intent.id)).status, 'succeeded');
    const [record] = await recordsOf(paymentId);
    assert.deepEqual(record?.payload, body);
  });

  it('records a notification of another type as ignored: 200, no lookup, no event', async () => {
    const { sim, t } = bench();
    const { intent, paymentId } = await intentWithPayment({ status: 'approved' });
    const before = await counts();
    const lookups = sim.paymentLookups;
    assert.deepEqual(receiptOf(await notify(paymentId, { type: 'merchant_order' })), {
      received: true,
      outcome: 'ignored',
    });
    const [record] = await recordsOf(paymentId);
    assert.equal(record?.outcome, 'ignored');
    assert.equal(record?.type, 'merchant_order');
    assert.equal(record?.intent_id, null);
    assert.equal(record?.event_id, null);
    assert.match(record?.reason ?? '', /merchant_order/);

    // The legacy form: `?id=…&topic=…`, no data.id (the manifest then has no id part) and no body.
    const legacy = await t.post<NotificationReceipt>('/webhooks/mercadopago?id=42&topic=merchant_order', {
      headers: {
        'x-request-id': 'legacy-1',
        'x-signature': signNotification({ secret: WEBHOOK_SECRET, requestId: 'legacy-1' }),
      },
    });
    assert.equal(receiptOf(legacy).outcome, 'ignored');
    const [legacyRecord] = await t.db
      .select()
      .from(providerNotifications)
      .where(eq(providerNotifications.request_id, 'legacy-1'));
    assert.deepEqual(
      [legacyRecord?.type, legacyRecord?.resource_id, legacyRecord?.payload],
      ['merchant_order', null, {}],
    );

    assert.deepEqual(await counts(), {
      ...before,
      notifications: before.notifications + 2,
    });
    assert.equal(sim.paymentLookups, lookups);
    assert.equal((await intentNow(intent.id)).status, 'pending');
  });

  it('records an unknown payment id as unmatched (200), without asking the provider', async () => {
    const { sim } = bench();
    const paymentId = newPaymentId();
    const before = await counts();
    const lookups = sim.paymentLookups;
    assert.deepEqual(receiptOf(await notify(paymentId)), { received: true, outcome: 'unmatched' });
    const [record] = await recordsOf(paymentId);
    assert.equal(record?.outcome, 'unmatched');
    assert.equal(record?.intent_id, null);
    assert.equal(record?.request_id, `req-${paymentId}`);
    assert.deepEqual(record?.payload, notificationBody(paymentId));
    assert.deepEqual(await counts(), { ...before, notifications: before.notifications + 1 });
    assert.equal(sim.paymentLookups, lookups);
  });

  it('records a payment the provider does not know (404) as unmatched, with its intent', async () => {
    const { sim } = bench();
    const { intent, paymentId } = await intentWithPayment(undefined);
    const before = await counts();
    const lookups = sim.paymentLookups;
    assert.equal(receiptOf(await notify(paymentId)).outcome, 'unmatched');
    assert.equal(sim.paymentLookups, lookups + 1);
    const [record] = await recordsOf(paymentId);
    assert.equal(record?.outcome, 'unmatched');
    assert.equal(record?.intent_id, intent.id);
    assert.match(record?.reason ?? '', /provider does not know/);
    assert.deepEqual(await counts(), { ...before, notifications: before.notifications + 1 });
    assert.equal((await intentNow(intent.id)).status, 'pending');
  });

  it('records an intent whose seller has no usable credentials (a test seller, another key) as unmatched', async () => {
    const { sim, t, owner, walletId } = bench();
    const testSeller = expectOk(
      await t.post<Seller>('/testmode/sellers', {
        token: owner.token,
        body: { wallet_id: walletId, provider: 'mercadopago' },
      }),
      201,
    );
    const { intent, paymentId } = await intentWithPayment({ status: 'approved' }, {}, testSeller.id);
    const lookups = sim.paymentLookups;
    assert.equal(receiptOf(await notify(paymentId)).outcome, 'unmatched');
    assert.equal(sim.paymentLookups, lookups);
    const [record] = await recordsOf(paymentId);
    assert.equal(record?.intent_id, intent.id);
    assert.match(record?.reason ?? '', /credentials/);
    assert.equal((await intentNow(intent.id)).status, 'pending');

    // Credentials sealed with another SECRETS_KEY cannot be opened: the same outcome.
    const resealed = await connectSeller(t, owner, walletId);
    await t.db
      .update(sellers)
      .set({ credentials: seal(randomBytes(32), '{"access_token":"APP_USR-x"}') })
      .where(eq(sellers.id, resealed));
    const other = await intentWithPayment({ status: 'approved' }, {}, resealed);
    assert.equal(receiptOf(await notify(other.paymentId)).outcome, 'unmatched');
    assert.equal(sim.paymentLookups, lookups);
    assert.equal((await intentNow(other.intent.id)).status, 'pending');
  });

  it('keeps a backwards notification as stale: 200, the intent unchanged, no event', async () => {
    const { intent, paymentId } = await intentWithPayment({ status: 'pending' }, { status: 'succeeded' });
    const before = await counts();
    assert.deepEqual(receiptOf(await notify(paymentId)), { received: true, outcome: 'stale' });
    const now = await intentNow(intent.id);
    assert.equal(now.status, 'succeeded');
    assert.equal(now.updated_at, intent.updated_at);
    assert.equal((await eventsOf(intent.id)).length, 1);
    const [record] = await recordsOf(paymentId);
    assert.equal(record?.outcome, 'stale');
    assert.equal(record?.intent_id, intent.id);
    assert.equal(record?.event_id, null);
    assert.match(record?.reason ?? '', /succeeded to pending/);
    assert.deepEqual(await counts(), { ...before, notifications: before.notifications + 1 });
  });

  it('answers 502 when the provider fails and records nothing, so its retry is processed', async () => {
    const { sim } = bench();
    const { intent, paymentId } = await intentWithPayment({ status: 'approved' });
    const before = await counts();
    sim.failNext(500);
    expectError(await notify(paymentId), 502, 'BAD_GATEWAY');
    assert.deepEqual(await counts(), before);
    assert.equal((await intentNow(intent.id)).status, 'pending');
    assert.equal(receiptOf(await notify(paymentId)).outcome, 'applied');
    assert.equal((await intentNow(intent.id)).status, 'succeeded');
  });

  it('treats concurrent copies of one notification as one: a single event, the others duplicates', async () => {
    const { intent, paymentId } = await intentWithPayment({ status: 'approved' });
    const before = await counts();
    const answers = await Promise.all([notify(paymentId), notify(paymentId), notify(paymentId)]);
    const outcomes = answers.map((answer) => receiptOf(answer).outcome).sort();
    assert.deepEqual(outcomes, ['applied', 'duplicate', 'duplicate']);
    assert.equal((await eventsOf(intent.id)).length, 2);
    assert.deepEqual(await counts(), {
      events: before.events + 1,
      deliveries: before.deliveries + 1,
      notifications: before.notifications + 1,
    });
  });

  it('decides again when another writer moved the intent first (the conditional update lost)', async () => {
    const { t, owner } = bench();
    const record = (paymentId: string) => ({
      provider: 'mercadopago',
      type: 'payment',
      resource_id: paymentId,
      request_id: 'race',
      payload: {},
    });
    const readRow = async (id: string) => (await intentsRepo.findIntent(t.db, id))!;

    // A copy that read `pending` before another copy applied `succeeded`: a duplicate, nothing written.
    const a = await intentWithPayment({ status: 'approved' });
    const staleA = await readRow(a.intent.id);
    assert.equal(receiptOf(await notify(a.paymentId)).outcome, 'applied');
    let before = await counts();
    assert.deepEqual(
      await settleNotification(t.db, POLICY, staleA, { status: 'succeeded' }, record(a.paymentId)),
      { received: true, outcome: 'duplicate' },
    );
    assert.deepEqual(await counts(), before);

    // Cancelled meanwhile: the move is now refused, so the notification is stale.
    const b = await intentWithPayment({ status: 'approved' });
    const staleB = await readRow(b.intent.id);
    expectOk(await t.post<Intent>(`/intents/${b.intent.id}/cancel`, { token: owner.token }));
    before = await counts();
    assert.equal(
      (await settleNotification(t.db, POLICY, staleB, { status: 'succeeded' }, record(b.paymentId))).outcome,
      'stale',
    );
    assert.deepEqual(await counts(), { ...before, notifications: before.notifications + 1 });
    assert.equal((await intentNow(b.intent.id)).status, 'cancelled');

    // Moved to `processing` meanwhile: the move is still allowed and is applied from there.
    const c = await intentWithPayment({ status: 'approved' });
    const staleC = await readRow(c.intent.id);
    expectOk(
      await t.post<Intent>(`/testmode/intents/${c.intent.id}/simulate`, {
        token: owner.token,
        body: { status: 'processing' },
      }),
    );
    const applied = await settleNotification(
      t.db,
      POLICY,
      staleC,
      { status: 'succeeded' },
      record(c.paymentId),
    );
    assert.equal(applied.outcome, 'applied');
    assert.equal((await intentNow(c.intent.id)).status, 'succeeded');
    assert.equal((await eventsOf(c.intent.id)).length, 3);
  });
});
