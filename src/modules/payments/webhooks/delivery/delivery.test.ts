/**
 * The delivery worker end to end (docs/reference/webhooks.md), over real HTTP: test-mode intents and
 * simulated transitions produce deliveries that a local subscriber receives, signed so the official
 * `standardwebhooks` verifier accepts them; failures follow a short retry schedule to `failed` with every
 * attempt recorded; 410 disables the endpoint; a rotation signs with both secrets; a test event goes the same
 * way.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asc, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { expectError, expectOk } from '../../../../../test/assertions.ts';
import {
  eventually,
  type Received,
  type Subscriber,
  startSubscriber,
} from '../../../../../test/subscriber.ts';
import type { Intent } from '../../intents/intents.schemas.ts';
import { paymentsFixtures, UUID_V7, usePaymentsTeam } from '../../payments.fixtures.ts';
import type { WebhookEndpoint, WebhookEndpointWithSecret } from '../endpoints/endpoints.schemas.ts';
import { webhookEndpoints } from '../endpoints/endpoints.table.ts';
import type { PaymentEvent } from '../webhook-events/webhook-events.schemas.ts';
import { TEST_MESSAGE } from '../webhook-events/webhook-payloads.ts';
import type { WebhookDelivery } from './deliveries.schemas.ts';
import { webhookAttempts, webhookDeliveries } from './delivery.table.ts';
import { readDueQueue } from './delivery-queue.repository.ts';

const SCHEDULE = [0, 0.2, 0.2];

interface DeliveredMessage {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

describe('webhook delivery worker', () => {
  const team = usePaymentsTeam({
    WEBHOOK_RETRY_SCHEDULE: SCHEDULE.join(','),
    WEBHOOK_TIMEOUT_MS: '1000',
  });
  const { walletWithSeller, createIntent } = paymentsFixtures(team);
  let subscriber: Subscriber;

  before(async () => {
    subscriber = await startSubscriber();
  });
  after(() => subscriber.close());

  /** A wallet with a seller and one endpoint at the subscriber (path `/<label>`). */
  const setUp = async (label: string, body: Record<string, unknown> = {}) => {
    const { wallet, seller } = await walletWithSeller(team().owner);
    const endpoint = expectOk(
      await team().t.post<WebhookEndpointWithSecret>(`/wallets/${wallet.id}/webhooks/endpoints`, {
        token: team().owner.token,
        body: { name: label, url: `${subscriber.url}/${label}`, ...body },
      }),
      201,
      'payments',
    );
    return { wallet, seller, endpoint };
  };
  const receivedAt = (label: string) => subscriber.received.filter((r) => r.path === `/${label}`);
  const waitReceived = (label: string, count: number) =>
    eventually(async () => {
      const got = receivedAt(label);
      return got.length >= count ? got : undefined;
    }, `${count} requests at /${label}`);
  const deliveriesOf = (endpointId: string) =>
    team()
      .t.db.select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpoint_id, endpointId))
      .orderBy(asc(webhookDeliveries.created_at), asc(webhookDeliveries.id));
  const attemptsOf = (deliveryId: string) =>
    team()
      .t.db.select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.delivery_id, deliveryId))
      .orderBy(asc(webhookAttempts.attempt));
  const settled = (endpointId: string, count: number) =>
    eventually(async () => {
      const rows = await deliveriesOf(endpointId);
      return rows.length === count && rows.every((row) => row.status !== 'pending') ? rows : undefined;
    }, `${count} settled deliveries`);
  /** The verified message of a delivery (docs/reference/webhooks.md: `type`, `timestamp`, `data`). */
  const verify = (secret: string, request: Received) =>
    new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as DeliveredMessage;

  it('delivers a test-mode intent, signed so standardwebhooks verifies it', async () => {
    const { wallet, seller, endpoint } = await setUp('created');
    const intent = await createIntent(team().owner, wallet.id, seller.id, {
      status: 'succeeded',
      provider_data: { transaction_id: 'mp-1001' },
      metadata: { order: 'A-17' },
    });
    const [request] = await waitReceived('created', 1);
    assert.equal(request!.headers['content-type'], 'application/json');
    const message = verify(endpoint.secret, request!);
    assert.deepEqual(Object.keys(message).sort(), ['data', 'timestamp', 'type']);
    assert.equal(message.type, 'payment.succeeded');
    assert.deepEqual(message.data, {
      event_id: request!.headers['webhook-id'],
      intent_id: intent.id,
      wallet_id: wallet.id,
      provider: 'mercadopago',
      external_id: 'mp-1001',
      status: 'succeeded',
      status_detail: null,
      amount_cents: 5000,
      currency: 'BRL',
      sandbox: true,
      metadata: { order: 'A-17' },
    });
    // In the order of docs/reference/webhooks.md, whatever order the stored jsonb keeps.
    assert.deepEqual(Object.keys(message.data), [
      'event_id',
      'intent_id',
      'wallet_id',
      'provider',
      'external_id',
      'status',
      'status_detail',
      'amount_cents',
      'currency',
      'sandbox',
      'metadata',
    ]);
    assert.match(String(message.data.event_id), UUID_V7);
    assert.ok(Math.abs(Number(request!.headers['webhook-timestamp']) - Date.now() / 1000) < 60);
    // A secret that did not sign is refused by the same verifier.
    assert.throws(() => verify('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw5ABC8AfM9Tc=', request!));

    const [delivery] = await settled(endpoint.id, 1);
    assert.equal(delivery!.status, 'delivered');
    assert.equal(delivery!.event_id, message.data.event_id);
    assert.equal(delivery!.attempts, 1);
    assert.equal(delivery!.response_status, 200);
    assert.equal(delivery!.response_body, 'ok');
    assert.equal(delivery!.next_attempt_at, null);
    assert.equal(delivery!.claim_id, null);
    const [attempt] = await attemptsOf(delivery!.id);
    assert.equal(attempt!.attempt, 1);
    assert.equal(attempt!.response_status, 200);
    assert.equal(attempt!.error, null);
  });

  it('delivers every later transition, in order, and only the types an endpoint takes', async () => {
    const { wallet, seller, endpoint } = await setUp('sequence');
    const picky = expectOk(
      await team().t.post<WebhookEndpointWithSecret>(`/wallets/${wallet.id}/webhooks/endpoints`, {
        token: team().owner.token,
        body: { name: 'refunds', url: `${subscriber.url}/refunds`, event_types: ['payment.refunded'] },
      }),
      201,
    );
    const intent = await createIntent(team().owner, wallet.id, seller.id);
    for (const status of ['succeeded', 'refunded']) {
      expectOk(
        await team().t.post<Intent>(`/testmode/intents/${intent.id}/simulate`, {
          token: team().owner.token,
          body: { status },
        }),
      );
    }
    const got = await waitReceived('sequence', 3);
    const types = got.map((r) => verify(endpoint.secret, r).type);
    assert.deepEqual(types.sort(), ['payment.pending', 'payment.refunded', 'payment.succeeded']);
    const [refund] = await waitReceived('refunds', 1);
    assert.equal(verify(picky.secret, refund!).type, 'payment.refunded');
    assert.equal((await deliveriesOf(picky.id)).length, 1);
  });

  it('retries a failing endpoint on the schedule, then marks the delivery failed', async () => {
    const { wallet, seller, endpoint } = await setUp('failing');
    subscriber.respond = (r) => (r.path === '/failing' ? { status: 500, body: 'boom' } : {});
    await createIntent(team().owner, wallet.id, seller.id);
    const [delivery] = await settled(endpoint.id, 1);
    assert.equal(delivery!.status, 'failed');
    assert.equal(delivery!.attempts, SCHEDULE.length);
    assert.equal(delivery!.response_status, 500);
    assert.equal(delivery!.response_body, 'boom');
    assert.equal(delivery!.next_attempt_at, null);
    const attempts = await attemptsOf(delivery!.id);
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.response_status, a.response_body]),
      [
        [1, 500, 'boom'],
        [2, 500, 'boom'],
        [3, 500, 'boom'],
      ],
    );
    // Every attempt carries the same webhook-id, so a subscriber can de-duplicate.
    const got = receivedAt('failing');
    assert.equal(got.length, SCHEDULE.length);
    assert.equal(new Set(got.map((r) => r.headers['webhook-id'])).size, 1);
    // Attempts follow the schedule (0.2 s ±10% after the previous one), never sooner.
    for (let i = 1; i < attempts.length; i++) {
      const gap = attempts[i]!.started_at.getTime() - attempts[i - 1]!.started_at.getTime();
      assert.ok(gap >= 170, `attempt ${i + 1} came ${gap} ms after the previous one`);
    }
    subscriber.respond = () => ({});
  });

  it('records timeouts and refused connections as failed attempts, and keeps 4 KiB of a body', async () => {
    const slow = await setUp('slow');
    subscriber.respond = (r) =>
      r.path === '/slow'
        ? { delayMs: 1500 }
        : r.path === '/big'
          ? { status: 400, body: 'é'.repeat(5000) }
          : {};
    await createIntent(team().owner, slow.wallet.id, slow.seller.id);
    const big = await setUp('big');
    await createIntent(team().owner, big.wallet.id, big.seller.id);

    const [timedOut] = await settled(slow.endpoint.id, 1);
    assert.equal(timedOut!.status, 'failed');
    assert.equal(timedOut!.response_status, null);
    assert.match(timedOut!.last_error ?? '', /timed out after 1000 ms/);
    const slowAttempts = await attemptsOf(timedOut!.id);
    assert.equal(slowAttempts.length, SCHEDULE.length);
    assert.ok(slowAttempts.every((a) => a.error?.includes('timed out') && a.duration_ms >= 900));

    const [kept] = await settled(big.endpoint.id, 1);
    assert.equal(kept!.response_status, 400);
    assert.equal(Buffer.byteLength(kept!.response_body ?? ''), 4096);

    // Nobody listens on the discard port: the connection is refused.
    const closed = await setUp('closed', { url: 'http://127.0.0.1:9/closed' });
    await createIntent(team().owner, closed.wallet.id, closed.seller.id);
    const [refused] = await settled(closed.endpoint.id, 1);
    assert.equal(refused!.status, 'failed');
    assert.match(refused!.last_error ?? '', /connection failed \(ECONNREFUSED\)/);
    subscriber.respond = () => ({});
  });

  it('honours Retry-After when it asks for longer than the schedule', async () => {
    const { wallet, seller, endpoint } = await setUp('later');
    subscriber.respond = (r) =>
      r.path === '/later' ? { status: 503, headers: { 'retry-after': '30' } } : {};
    await createIntent(team().owner, wallet.id, seller.id);
    const [delivery] = await eventually(async () => {
      const rows = await deliveriesOf(endpoint.id);
      return rows[0]?.attempts === 1 && rows[0].claim_id === null ? rows : undefined;
    }, 'the first attempt');
    assert.equal(delivery!.status, 'pending');
    const wait = delivery!.next_attempt_at!.getTime() - delivery!.last_attempted_at!.getTime();
    assert.ok(wait >= 29_000 && wait <= 31_000, `next attempt in ${wait} ms`);
    subscriber.respond = () => ({});
  });

  it('disables the endpoint on 410 and stops delivering to it', async () => {
    const { wallet, seller, endpoint } = await setUp('gone');
    subscriber.respond = (r) => (r.path === '/gone' ? { status: 410 } : {});
    await createIntent(team().owner, wallet.id, seller.id);
    const [delivery] = await settled(endpoint.id, 1);
    assert.equal(delivery!.status, 'failed');
    assert.equal(delivery!.attempts, 1);
    assert.equal(delivery!.response_status, 410);
    const shown = expectOk(
      await team().t.get<WebhookEndpoint>(`/webhooks/endpoints/${endpoint.id}`, {
        token: team().owner.token,
      }),
    );
    assert.equal(shown.enabled, false);
    assert.equal(shown.disabled_reason, 'gone');
    // A later event owes the disabled endpoint nothing.
    await createIntent(team().owner, wallet.id, seller.id);
    assert.equal((await deliveriesOf(endpoint.id)).length, 1);
    assert.equal(receivedAt('gone').length, 1);
    subscriber.respond = () => ({});
  });

  it('fails, without another attempt, a delivery whose endpoint is disabled before its retry', async () => {
    const { wallet, seller, endpoint } = await setUp('paused');
    // The first attempt fails and asks for a second later, leaving time to disable the endpoint.
    subscriber.respond = (r) =>
      r.path === '/paused' ? { status: 503, headers: { 'retry-after': '2' } } : {};
    await createIntent(team().owner, wallet.id, seller.id);
    await eventually(async () => {
      const [row] = await deliveriesOf(endpoint.id);
      return row?.attempts === 1 && row.claim_id === null ? row : undefined;
    }, 'the first attempt');
    expectOk(
      await team().t.patch<WebhookEndpoint>(`/webhooks/endpoints/${endpoint.id}`, {
        token: team().owner.token,
        body: { enabled: false },
      }),
    );
    const [failed] = await settled(endpoint.id, 1);
    assert.equal(failed!.status, 'failed');
    assert.equal(failed!.attempts, 1);
    assert.equal(failed!.last_error, 'endpoint disabled');
    assert.equal((await attemptsOf(failed!.id)).length, 1);
    assert.equal(receivedAt('paused').length, 1);
    subscriber.respond = () => ({});
  });

  it('signs with the new and the previous secret for 24 hours after a rotation', async () => {
    const { wallet, seller, endpoint } = await setUp('rotated');
    const rotated = expectOk(
      await team().t.post<WebhookEndpointWithSecret>(`/webhooks/endpoints/${endpoint.id}/rotate-secret`, {
        token: team().owner.token,
      }),
    );
    await createIntent(team().owner, wallet.id, seller.id);
    const [request] = await waitReceived('rotated', 1);
    assert.equal(String(request!.headers['webhook-signature']).split(' ').length, 2);
    assert.equal(verify(rotated.secret, request!).type, 'payment.pending');
    assert.equal(verify(endpoint.secret, request!).type, 'payment.pending');

    // Once the window has passed, only the new secret signs.
    await team()
      .t.db.update(webhookEndpoints)
      .set({ previous_secret_expires_at: new Date(Date.now() - 1000) })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await createIntent(team().owner, wallet.id, seller.id);
    const [, second] = await waitReceived('rotated', 2);
    assert.equal(String(second!.headers['webhook-signature']).split(' ').length, 1);
    verify(rotated.secret, second!);
    assert.throws(() => verify(endpoint.secret, second!));
  });

  describe('POST /webhooks/endpoints/{id}/test', () => {
    it('sends a signed webhook.test through the normal path, whatever the endpoint’s event types', async () => {
      const { wallet, endpoint } = await setUp('test-event', { event_types: ['payment.refunded'] });
      const delivery = expectOk(
        await team().t.post<WebhookDelivery>(`/webhooks/endpoints/${endpoint.id}/test`, {
          token: team().owner.token,
        }),
        202,
        'payments',
      );
      assert.equal(delivery.endpoint_id, endpoint.id);
      assert.equal(delivery.wallet_id, wallet.id);
      assert.equal(delivery.status, 'pending');
      assert.equal(delivery.attempts, 0);

      const [request] = await waitReceived('test-event', 1);
      const message = verify(endpoint.secret, request!);
      assert.equal(request!.headers['webhook-id'], delivery.event_id);
      assert.deepEqual(message, {
        type: 'webhook.test',
        timestamp: message.timestamp,
        data: {
          event_id: delivery.event_id,
          wallet_id: wallet.id,
          endpoint_id: endpoint.id,
          message: TEST_MESSAGE,
        },
      });
      const [row] = await settled(endpoint.id, 1);
      assert.equal(row!.status, 'delivered');
      const done = expectOk(
        await team().t.get<WebhookDelivery>(`/webhooks/deliveries/${delivery.id}`, {
          token: team().owner.token,
        }),
      );
      assert.equal(done.status, 'delivered');
      assert.equal(done.response_status, 200);
      // The event is stored like any other, belonging to no intent.
      const event = expectOk(
        await team().t.get<PaymentEvent>(`/webhooks/events/${delivery.event_id}`, {
          token: team().owner.token,
        }),
      );
      assert.equal(event.type, 'webhook.test');
      assert.equal(event.intent_id, null);
      assert.equal(event.source, 'test');
    });

    it('refuses a disabled endpoint (409, nothing stored), and hides another owner’s (404)', async () => {
      const { endpoint } = await setUp('test-disabled');
      expectOk(
        await team().t.patch(`/webhooks/endpoints/${endpoint.id}`, {
          token: team().owner.token,
          body: { enabled: false },
        }),
      );
      const refused = expectError(
        await team().t.post(`/webhooks/endpoints/${endpoint.id}/test`, { token: team().owner.token }),
        409,
        'CONFLICT',
      );
      assert.equal(refused.reason, 'endpoint_disabled');
      assert.equal((await deliveriesOf(endpoint.id)).length, 0);
      expectError(
        await team().t.post(`/webhooks/endpoints/${endpoint.id}/test`, { token: team().outsider.token }),
        404,
        'NOT_FOUND',
      );
      expectError(await team().t.post(`/webhooks/endpoints/${endpoint.id}/test`), 401, 'UNAUTHORIZED');
      assert.equal((await deliveriesOf(endpoint.id)).length, 0);
    });
  });
});

describe('the queue the metrics read', () => {
  // No worker: a delivery that comes due stays due and unclaimed.
  const team = usePaymentsTeam({ WEBHOOK_WORKER: 'false' });

  it('counts the due deliveries and how long the oldest has waited', async () => {
    assert.deepEqual(await readDueQueue(team().t.db), { due: 0, oldestAgeSeconds: 0 });
    const { id: walletId } = expectOk(
      await team().t.post<{ id: string }>('/wallets', { token: team().owner.token, body: { name: 'Queue' } }),
      201,
    );
    const endpoint = expectOk(
      await team().t.post<WebhookEndpoint>(`/wallets/${walletId}/webhooks/endpoints`, {
        token: team().owner.token,
        body: { name: 'Nobody', url: 'http://127.0.0.1:9/hooks' },
      }),
      201,
    );
    expectOk(
      await team().t.post(`/webhooks/endpoints/${endpoint.id}/test`, { token: team().owner.token }),
      202,
    );
    // The age is the database's now() less the due time: wait for it to pass a second.
    const queue = await eventually(async () => {
      const read = await readDueQueue(team().t.db);
      return read.oldestAgeSeconds >= 1 ? read : undefined;
    }, 'the due delivery to have waited a second');
    assert.equal(queue.due, 1);
    assert.ok(queue.oldestAgeSeconds >= 1, `${queue.oldestAgeSeconds} s`);
  });
});
