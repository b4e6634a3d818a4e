/**
 * The owner's view of the webhook pipeline (docs/reference/webhooks.md): the wallet's stored events, an
 * endpoint's deliveries, one delivery, its attempts, and the manual retry. Real data through the
 * real pipeline: test-mode intents, endpoints at a local subscriber, the in-process worker.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expectError, expectOk } from '../../../../../test/assertions.ts';
import { checkAuth } from '../../../../../test/auth-check.ts';
import {
  type Answer,
  eventually,
  type Received,
  type Subscriber,
  startSubscriber,
} from '../../../../../test/subscriber.ts';
import type { Intent } from '../../intents/intents.schemas.ts';
import {
  expectHiddenFrom,
  expectInvalid,
  ISO,
  paymentsFixtures,
  UNKNOWN_ID,
  UUID_V7,
  usePaymentsTeam,
} from '../../payments.fixtures.ts';
import type { Wallet } from '../../wallets/wallets.schemas.ts';
import type { WebhookEndpoint, WebhookEndpointWithSecret } from '../endpoints/endpoints.schemas.ts';
import type { PaymentEvent } from '../webhook-events/webhook-events.schemas.ts';
import type { WebhookAttempt, WebhookDelivery } from './deliveries.schemas.ts';
import { webhookDeliveries } from './delivery.table.ts';

const SCHEDULE = [0, 0.2, 0.2];
const EVENT_KEYS = ['created_at', 'id', 'intent_id', 'payload', 'source', 'type', 'wallet_id'];
const DELIVERY_KEYS = [
  'attempts',
  'created_at',
  'endpoint_id',
  'event_id',
  'id',
  'last_attempted_at',
  'last_error',
  'next_attempt_at',
  'response_body',
  'response_status',
  'status',
  'updated_at',
  'wallet_id',
];
const ATTEMPT_KEYS = ['attempt', 'duration_ms', 'error', 'response_body', 'response_status', 'started_at'];

describe('webhook events, deliveries and retries', () => {
  const team = usePaymentsTeam({
    WEBHOOK_RETRY_SCHEDULE: SCHEDULE.join(','),
    WEBHOOK_TIMEOUT_MS: '1000',
  });
  const { walletWithSeller, createWallet, createIntent } = paymentsFixtures(team);
  let subscriber: Subscriber;
  /** How the subscriber answers at each path (`/<label>`); 200 `ok` elsewhere. */
  const answers = new Map<string, (request: Received) => Answer>();
  /** A wallet, an endpoint, an event and its delivered delivery, for the auth and error tables. */
  let shared: {
    wallet: Wallet;
    endpoint: WebhookEndpointWithSecret;
    event: PaymentEvent;
    delivery: WebhookDelivery;
  };

  const owner = () => team().owner;
  const get = async <T>(url: string) =>
    expectOk(await team().t.get<T>(url, { token: owner().token }), 200, 'payments');
  const getPage = async <T>(url: string) => {
    const response = await team().t.get<T>(url, { token: owner().token });
    return { data: expectOk(response, 200, 'payments'), pagination: response.body.pagination };
  };
  const retry = (deliveryId: string, token = owner().token) =>
    team().t.post<WebhookDelivery>(`/webhooks/deliveries/${deliveryId}/retry`, { token });

  /** A wallet with a seller and one endpoint at the subscriber (path `/<label>`). */
  const setUp = async (label: string, answer?: (request: Received) => Answer) => {
    if (answer !== undefined) answers.set(`/${label}`, answer);
    const { wallet, seller } = await walletWithSeller(owner());
    const endpoint = expectOk(
      await team().t.post<WebhookEndpointWithSecret>(`/wallets/${wallet.id}/webhooks/endpoints`, {
        token: owner().token,
        body: { name: label, url: `${subscriber.url}/${label}` },
      }),
      201,
      'payments',
    );
    return { wallet, seller, endpoint };
  };
  const receivedAt = (label: string) => subscriber.received.filter((r) => r.path === `/${label}`);
  const deliveriesOf = (endpointId: string, query = '') =>
    get<WebhookDelivery[]>(`/webhooks/endpoints/${endpointId}/deliveries${query}`);
  /** The endpoint's only delivery once `done` says so (read through the API). */
  const deliveryWhen = (endpointId: string, done: (delivery: WebhookDelivery) => boolean, label: string) =>
    eventually(async () => {
      const [delivery] = await deliveriesOf(endpointId);
      return delivery !== undefined && done(delivery) ? delivery : undefined;
    }, label);
  const settled = (endpointId: string) =>
    deliveryWhen(endpointId, (d) => d.status !== 'pending', 'a settled delivery');
  const typeOf = (request: Received) => (JSON.parse(request.body) as { type: string }).type;
  /** The requests `label`'s endpoint received for this event (`webhook-id` is the event id). */
  const receivedFor = (label: string, eventId: string) =>
    receivedAt(label).filter((request) => request.headers['webhook-id'] === eventId);
  /**
   * Shows that nothing is left to happen, without sleeping: a marker event on the same wallet is
   * attempted `attempts` times (its retries follow the same schedule). The worker claims due
   * deliveries earliest-due first, so an attempt that was due before the marker's last one has been
   * made by the time that one arrives.
   */
  const workerPassed = async (
    made: { wallet: { id: string }; seller: { id: string } },
    label: string,
    attempts = 1,
  ) => {
    const before = receivedAt(label).length;
    await createIntent(owner(), made.wallet.id, made.seller.id);
    await eventually(
      async () => (receivedAt(label).length >= before + attempts ? true : undefined),
      `the marker event's ${attempts} attempt(s)`,
    );
  };

  before(async () => {
    subscriber = await startSubscriber();
    subscriber.respond = (request) => answers.get(request.path)?.(request) ?? {};
    const { wallet, seller, endpoint } = await setUp('shared');
    await createIntent(owner(), wallet.id, seller.id, { status: 'succeeded' });
    const delivery = await settled(endpoint.id);
    shared = {
      wallet,
      endpoint,
      delivery,
      event: await get<PaymentEvent>(`/webhooks/events/${delivery.event_id}`),
    };
  });
  after(() => subscriber.close());

  // Only the wallet's owner has a role: anyone else gets the 404 of an unknown id ('errors').
  checkAuth(
    'webhook event and delivery routes',
    () => team().t,
    () => {
      const delivery = `/webhooks/deliveries/${shared.delivery.id}`;
      return [
        { method: 'GET', url: `/wallets/${shared.wallet.id}/webhooks/events` },
        { method: 'GET', url: `/webhooks/events/${shared.event.id}` },
        { method: 'GET', url: `/webhooks/endpoints/${shared.endpoint.id}/deliveries` },
        { method: 'GET', url: delivery },
        { method: 'GET', url: `${delivery}/attempts` },
        { method: 'POST', url: `${delivery}/retry` },
      ];
    },
  );

  describe('events', () => {
    it('lists the wallet’s events newest first, paginated, filtered by type and intent', async () => {
      const { wallet, seller } = await walletWithSeller(owner());
      const first = await createIntent(owner(), wallet.id, seller.id, {
        provider_data: { transaction_id: 'mp-2001' },
      });
      for (const status of ['succeeded', 'refunded']) {
        expectOk(
          await team().t.post<Intent>(`/testmode/intents/${first.id}/simulate`, {
            token: owner().token,
            body: { status },
          }),
        );
      }
      const second = await createIntent(owner(), wallet.id, seller.id, {
        status: 'succeeded',
        metadata: { order: 'B-2' },
      });
      const url = `/wallets/${wallet.id}/webhooks/events`;

      const all = await getPage<PaymentEvent[]>(url);
      assert.deepEqual(
        all.data.map((e) => [e.intent_id, e.type, e.source]),
        [
          [second.id, 'payment.succeeded', 'testmode'],
          [first.id, 'payment.refunded', 'simulate'],
          [first.id, 'payment.succeeded', 'simulate'],
          [first.id, 'payment.pending', 'testmode'],
        ],
      );
      assert.deepEqual(all.pagination, {
        page: 1,
        limit: 20,
        total: 4,
        has_next: false,
        has_prev: false,
        next_page: null,
        prev_page: null,
      });
      const [newest] = all.data;
      assert.deepEqual(Object.keys(newest).sort(), EVENT_KEYS);
      assert.match(newest.id, UUID_V7);
      assert.equal(newest.wallet_id, wallet.id);
      assert.match(newest.created_at, ISO);
      // The payload is the `data` object subscribers receive.
      assert.deepEqual(newest.payload, {
        event_id: newest.id,
        intent_id: second.id,
        wallet_id: wallet.id,
        provider: 'mercadopago',
        external_id: null,
        status: 'succeeded',
        status_detail: null,
        amount_cents: 5000,
        currency: 'BRL',
        sandbox: true,
        metadata: { order: 'B-2' },
      });
      assert.equal((all.data[3].payload as Record<string, unknown>).external_id, 'mp-2001');

      const page1 = await getPage<PaymentEvent[]>(`${url}?limit=3`);
      assert.equal(page1.data.length, 3);
      assert.deepEqual(
        [page1.pagination.total, page1.pagination.has_next, page1.pagination.next_page],
        [4, true, 2],
      );
      const page2 = await getPage<PaymentEvent[]>(`${url}?page=2&limit=3`);
      assert.deepEqual(
        page2.data.map((e) => e.id),
        [all.data[3].id],
      );
      assert.deepEqual(
        [page2.pagination.has_next, page2.pagination.has_prev, page2.pagination.prev_page],
        [false, true, 1],
      );

      const succeeded = await getPage<PaymentEvent[]>(`${url}?type=payment.succeeded`);
      assert.deepEqual(
        succeeded.data.map((e) => e.id),
        [all.data[0].id, all.data[2].id],
      );
      assert.equal(succeeded.pagination.total, 2);
      assert.deepEqual(
        (await get<PaymentEvent[]>(`${url}?intent_id=${first.id}`)).map((e) => e.type),
        ['payment.refunded', 'payment.succeeded', 'payment.pending'],
      );
      assert.deepEqual(
        (await get<PaymentEvent[]>(`${url}?intent_id=${first.id}&type=payment.succeeded`)).map((e) => e.id),
        [all.data[2].id],
      );
      assert.deepEqual(await get<PaymentEvent[]>(`${url}?type=payment.failed`), []);
      // Another wallet of the same owner has none of them.
      const empty = await createWallet(owner());
      const none = await getPage<PaymentEvent[]>(`/wallets/${empty.id}/webhooks/events`);
      assert.deepEqual([none.data, none.pagination.total], [[], 0]);
    });

    it('reads one event, as listed', async () => {
      const listed = await get<PaymentEvent[]>(`/wallets/${shared.wallet.id}/webhooks/events`);
      assert.deepEqual(await get<PaymentEvent>(`/webhooks/events/${shared.event.id}`), listed[0]);
      assert.deepEqual(Object.keys(shared.event).sort(), EVENT_KEYS);
      assert.equal(shared.event.type, 'payment.succeeded');
      assert.equal((shared.event.payload as Record<string, unknown>).event_id, shared.event.id);
    });
  });

  describe('deliveries', () => {
    it('lists an endpoint’s deliveries newest first, paginated, filtered by status', async () => {
      // Rejections fail every attempt; `processing` asks for a retry much later, so it stays pending.
      const { wallet, seller, endpoint } = await setUp('mixed', (request) => {
        const type = typeOf(request);
        if (type === 'payment.rejected') return { status: 500, body: 'boom' };
        if (type === 'payment.processing') return { status: 503, headers: { 'retry-after': '30' } };
        return {};
      });
      for (const status of ['succeeded', 'rejected', 'processing']) {
        await createIntent(owner(), wallet.id, seller.id, { status });
      }
      const all = await eventually(async () => {
        const rows = await deliveriesOf(endpoint.id);
        const [processing, rejected, succeeded] = rows;
        return rows.length === 3 &&
          processing.attempts === 1 &&
          rejected.status === 'failed' &&
          succeeded.status === 'delivered'
          ? rows
          : undefined;
      }, 'three deliveries in three states');

      // Newest first: the same order as the events they deliver.
      const events = await get<PaymentEvent[]>(`/wallets/${wallet.id}/webhooks/events`);
      assert.deepEqual(
        all.map((d) => d.event_id),
        events.map((e) => e.id),
      );
      assert.deepEqual(
        all.map((d) => [d.status, d.attempts, d.response_status]),
        [
          ['pending', 1, 503],
          ['failed', SCHEDULE.length, 500],
          ['delivered', 1, 200],
        ],
      );
      for (const delivery of all) {
        assert.deepEqual(Object.keys(delivery).sort(), DELIVERY_KEYS);
        assert.equal(delivery.endpoint_id, endpoint.id);
        assert.equal(delivery.wallet_id, wallet.id);
      }
      const [pending, failed, delivered] = all;
      for (const [status, expected] of [
        ['pending', pending],
        ['failed', failed],
        ['delivered', delivered],
      ] as const) {
        const filtered = await getPage<WebhookDelivery[]>(
          `/webhooks/endpoints/${endpoint.id}/deliveries?status=${status}`,
        );
        assert.deepEqual(
          filtered.data.map((d) => d.id),
          [expected.id],
          status,
        );
        assert.equal(filtered.pagination.total, 1);
      }

      const page1 = await getPage<WebhookDelivery[]>(`/webhooks/endpoints/${endpoint.id}/deliveries?limit=2`);
      assert.deepEqual(
        page1.data.map((d) => d.id),
        [pending.id, failed.id],
      );
      assert.deepEqual(page1.pagination, {
        page: 1,
        limit: 2,
        total: 3,
        has_next: true,
        has_prev: false,
        next_page: 2,
        prev_page: null,
      });
      const page2 = await getPage<WebhookDelivery[]>(
        `/webhooks/endpoints/${endpoint.id}/deliveries?page=2&limit=2`,
      );
      assert.deepEqual(
        page2.data.map((d) => d.id),
        [delivered.id],
      );
      assert.deepEqual([page2.pagination.has_next, page2.pagination.prev_page], [false, 1]);

      // The pending one waits for the subscriber's Retry-After (30 s) rather than the schedule.
      const wait = Date.parse(pending.next_attempt_at ?? '') - Date.parse(pending.last_attempted_at ?? '');
      assert.ok(wait >= 29_000 && wait <= 31_000, `next attempt in ${wait} ms`);
    });

    it('reads a delivery with exactly the documented fields', async () => {
      const delivery = await get<WebhookDelivery>(`/webhooks/deliveries/${shared.delivery.id}`);
      assert.deepEqual(Object.keys(delivery).sort(), DELIVERY_KEYS);
      assert.deepEqual(delivery, shared.delivery);
      assert.deepEqual(
        [delivery.endpoint_id, delivery.event_id, delivery.wallet_id],
        [shared.endpoint.id, shared.event.id, shared.wallet.id],
      );
      assert.deepEqual(
        [
          delivery.status,
          delivery.attempts,
          delivery.response_status,
          delivery.response_body,
          delivery.last_error,
          delivery.next_attempt_at,
        ],
        ['delivered', 1, 200, 'ok', null, null],
      );
      assert.match(delivery.id, UUID_V7);
      for (const field of ['last_attempted_at', 'created_at', 'updated_at']) {
        assert.match(String((delivery as Record<string, unknown>)[field]), ISO, field);
      }
      assert.ok((delivery.last_attempted_at ?? '') >= delivery.created_at);
    });

    it('lists the attempts of a failing delivery, numbered, oldest first', async () => {
      const { wallet, seller, endpoint } = await setUp('failing', () => ({ status: 500, body: 'boom' }));
      await createIntent(owner(), wallet.id, seller.id);
      const delivery = await settled(endpoint.id);
      assert.deepEqual([delivery.status, delivery.attempts], ['failed', SCHEDULE.length]);
      assert.equal(delivery.next_attempt_at, null);

      const { data: attempts, pagination } = await getPage<WebhookAttempt[]>(
        `/webhooks/deliveries/${delivery.id}/attempts`,
      );
      assert.deepEqual(
        attempts.map((a) => [a.attempt, a.response_status, a.response_body, a.error]),
        [
          [1, 500, 'boom', null],
          [2, 500, 'boom', null],
          [3, 500, 'boom', null],
        ],
      );
      assert.equal(pagination.total, 3);
      for (const attempt of attempts) {
        assert.deepEqual(Object.keys(attempt).sort(), ATTEMPT_KEYS);
        assert.match(attempt.started_at, ISO);
        assert.ok(Number.isInteger(attempt.duration_ms) && attempt.duration_ms >= 0);
      }
      assert.ok(attempts[0].started_at < attempts[1].started_at);
      assert.ok(attempts[1].started_at < attempts[2].started_at);
      assert.equal(delivery.last_attempted_at, attempts[2].started_at);

      const page2 = await getPage<WebhookAttempt[]>(
        `/webhooks/deliveries/${delivery.id}/attempts?page=2&limit=2`,
      );
      assert.deepEqual(
        page2.data.map((a) => a.attempt),
        [3],
      );
      assert.deepEqual([page2.pagination.total, page2.pagination.has_prev], [3, true]);
    });

    it('shows why attempts got no answer (refused connection)', async () => {
      const { wallet, seller } = await walletWithSeller(owner());
      // Nobody listens on the discard port.
      const endpoint = expectOk(
        await team().t.post<WebhookEndpointWithSecret>(`/wallets/${wallet.id}/webhooks/endpoints`, {
          token: owner().token,
          body: { name: 'closed', url: 'http://127.0.0.1:9/closed' },
        }),
        201,
      );
      await createIntent(owner(), wallet.id, seller.id);
      const delivery = await settled(endpoint.id);
      assert.equal(delivery.status, 'failed');
      assert.equal(delivery.response_status, null);
      assert.match(delivery.last_error ?? '', /connection failed \(ECONNREFUSED\)/);
      const attempts = await get<WebhookAttempt[]>(`/webhooks/deliveries/${delivery.id}/attempts`);
      assert.equal(attempts.length, SCHEDULE.length);
      for (const attempt of attempts) {
        assert.deepEqual([attempt.response_status, attempt.response_body], [null, null]);
        assert.match(attempt.error ?? '', /ECONNREFUSED/);
      }
    });
  });

  describe('retry', () => {
    it('retries a failed delivery: the subscriber gets it again and it ends delivered, attempt 4', async () => {
      let isDown = true;
      const { wallet, seller, endpoint } = await setUp('revived', () =>
        isDown ? { status: 500, body: 'down' } : { body: 'back' },
      );
      await createIntent(owner(), wallet.id, seller.id);
      const failed = await settled(endpoint.id);
      assert.deepEqual([failed.status, failed.attempts], ['failed', SCHEDULE.length]);

      isDown = false;
      const before = Date.now();
      const retried = expectOk(await retry(failed.id), 200, 'payments');
      assert.deepEqual(Object.keys(retried).sort(), DELIVERY_KEYS);
      assert.deepEqual(
        [retried.id, retried.status, retried.attempts, retried.last_error, retried.response_status],
        [failed.id, 'pending', SCHEDULE.length, null, 500],
      );
      const due = Date.parse(retried.next_attempt_at ?? '');
      assert.ok(Math.abs(due - before) < 5_000, 'due now');
      assert.ok(retried.updated_at >= failed.updated_at);

      const delivered = await deliveryWhen(endpoint.id, (d) => d.status === 'delivered', 'the retry');
      assert.deepEqual(
        [delivered.attempts, delivered.response_status, delivered.response_body, delivered.next_attempt_at],
        [SCHEDULE.length + 1, 200, 'back', null],
      );
      const got = receivedAt('revived');
      assert.equal(got.length, SCHEDULE.length + 1);
      // The same event again: a subscriber de-duplicates by webhook-id.
      assert.equal(new Set(got.map((r) => r.headers['webhook-id'])).size, 1);
      assert.deepEqual(
        (await get<WebhookAttempt[]>(`/webhooks/deliveries/${failed.id}/attempts`)).map((a) => [
          a.attempt,
          a.response_status,
        ]),
        [
          [1, 500],
          [2, 500],
          [3, 500],
          [4, 200],
        ],
      );
    });

    it('ends failed again after one attempt when the schedule is already used up', async () => {
      const made = await setUp('hopeless', () => ({ status: 502 }));
      const { wallet, seller, endpoint } = made;
      await createIntent(owner(), wallet.id, seller.id);
      const failed = await settled(endpoint.id);
      expectOk(await retry(failed.id));
      const again = await deliveryWhen(
        endpoint.id,
        (d) => d.status === 'failed' && d.attempts === SCHEDULE.length + 1,
        'the retry to fail',
      );
      assert.equal(again.next_attempt_at, null);
      // No further attempt follows: a marker's second attempt, 0.2 s after its first (which came
      // after the retry's last), finds none made meanwhile.
      await workerPassed(made, 'hopeless', 2);
      assert.equal(receivedFor('hopeless', failed.event_id).length, SCHEDULE.length + 1);
      assert.equal(
        (await get<WebhookDelivery>(`/webhooks/deliveries/${failed.id}`)).attempts,
        SCHEDULE.length + 1,
      );
    });

    it('retries a delivered delivery too (whatever the status)', async () => {
      const delivered = await settled((await retryable('again')).endpoint.id);
      expectOk(await retry(delivered.id));
      await eventually(async () => (receivedAt('again').length === 2 ? true : undefined), 'a second request');
      const after = await deliveryWhen(
        delivered.endpoint_id,
        (d) => d.status === 'delivered' && d.attempts === 2,
        'the second attempt',
      );
      assert.equal(after.response_status, 200);
    });

    it('refuses a retry while the endpoint is disabled (409), changing nothing', async () => {
      const { endpoint } = await retryable('disabled');
      const delivered = await settled(endpoint.id);
      expectOk(
        await team().t.patch<WebhookEndpoint>(`/webhooks/endpoints/${endpoint.id}`, {
          token: owner().token,
          body: { enabled: false },
        }),
      );
      const error = expectError(await retry(delivered.id), 409, 'CONFLICT');
      assert.match(error.message, /enable it first/);
      assert.equal(error.reason, 'endpoint_disabled');
      assert.deepEqual(error.meta, { endpoint_id: endpoint.id });
      // Authorization comes before the state: an outsider learns nothing of it, not even that
      // the delivery exists.
      await expectHiddenFrom(team().t, team().outsider, [
        {
          method: 'POST',
          url: `/webhooks/deliveries/${delivered.id}/retry`,
          unknown: { url: `/webhooks/deliveries/${UNKNOWN_ID}/retry` },
        },
      ]);
      assert.deepEqual(await get<WebhookDelivery>(`/webhooks/deliveries/${delivered.id}`), delivered);
      assert.equal(receivedAt('disabled').length, 1);

      // Enabled again, the retry goes through.
      expectOk(
        await team().t.patch<WebhookEndpoint>(`/webhooks/endpoints/${endpoint.id}`, {
          token: owner().token,
          body: { enabled: true },
        }),
      );
      expectOk(await retry(delivered.id));
      await deliveryWhen(endpoint.id, (d) => d.status === 'delivered' && d.attempts === 2, 'the retry');
      assert.equal(receivedAt('disabled').length, 2);
    });

    it('refuses a retry while an attempt is in flight (409) rather than racing it', async () => {
      // The first request is answered slowly (within the 1 s timeout), leaving time to retry.
      const { wallet, seller, endpoint } = await setUp('busy', () =>
        receivedAt('busy').length === 1 ? { delayMs: 600 } : {},
      );
      await createIntent(owner(), wallet.id, seller.id);
      // `claim_id` is not shown by the API: the lease is read from the table.
      const claimed = await eventually(async () => {
        const [row] = await team()
          .t.db.select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.endpoint_id, endpoint.id));
        return row?.claim_id !== null && row?.claim_id !== undefined ? row : undefined;
      }, 'an attempt in flight');
      const error = expectError(await retry(claimed.id), 409, 'CONFLICT');
      assert.match(error.message, /in progress/);
      assert.equal(error.reason, 'attempt_in_progress');
      assert.equal(error.meta, undefined);

      const delivered = await settled(endpoint.id);
      assert.deepEqual([delivered.status, delivered.attempts], ['delivered', 1]);
      assert.equal(receivedAt('busy').length, 1);
    });
  });

  describe('errors', () => {
    it('answers 404 for unknown events, endpoints and deliveries', async () => {
      const { t, outsider } = team();
      const urls: Array<['GET' | 'POST', string]> = [
        ['GET', `/wallets/${UNKNOWN_ID}/webhooks/events`],
        ['GET', `/webhooks/events/${UNKNOWN_ID}`],
        ['GET', `/webhooks/endpoints/${UNKNOWN_ID}/deliveries`],
        ['GET', `/webhooks/deliveries/${UNKNOWN_ID}`],
        ['GET', `/webhooks/deliveries/${UNKNOWN_ID}/attempts`],
        ['POST', `/webhooks/deliveries/${UNKNOWN_ID}/retry`],
      ];
      for (const [method, url] of urls) {
        for (const who of [owner(), outsider]) {
          const response = await t.request(method, url, { token: who.token });
          try {
            expectError(response, 404, 'NOT_FOUND');
            assert.equal(response.body.module, 'payments');
          } catch (error) {
            throw new Error(`${method} ${url}: ${(error as Error).message}`);
          }
        }
      }
    });

    it('answers a stranger exactly as for an unknown id (404), retrying nothing', async () => {
      const { t, outsider } = team();
      const made = await retryable('stranger');
      const { endpoint } = made;
      const delivered = await settled(endpoint.id);
      const event = await get<PaymentEvent>(`/webhooks/events/${delivered.event_id}`);
      const attempts = await get<WebhookAttempt[]>(`/webhooks/deliveries/${delivered.id}/attempts`);
      const delivery = `/webhooks/deliveries/${delivered.id}`;
      const gone = `/webhooks/deliveries/${UNKNOWN_ID}`;
      await expectHiddenFrom(t, outsider, [
        {
          method: 'GET',
          url: `/wallets/${event.wallet_id}/webhooks/events`,
          unknown: { url: `/wallets/${UNKNOWN_ID}/webhooks/events` },
        },
        {
          method: 'GET',
          url: `/webhooks/events/${event.id}`,
          unknown: { url: `/webhooks/events/${UNKNOWN_ID}` },
        },
        {
          method: 'GET',
          url: `/webhooks/endpoints/${endpoint.id}/deliveries`,
          unknown: { url: `/webhooks/endpoints/${UNKNOWN_ID}/deliveries` },
        },
        { method: 'GET', url: delivery, unknown: { url: gone } },
        { method: 'GET', url: `${delivery}/attempts`, unknown: { url: `${gone}/attempts` } },
        { method: 'POST', url: `${delivery}/retry`, unknown: { url: `${gone}/retry` } },
      ]);
      // No attempt was asked for: once the worker has passed a marker event, the delivery, its
      // attempts and what the subscriber received for it are as they were.
      await workerPassed(made, 'stranger');
      assert.deepEqual(await get<WebhookDelivery>(delivery), delivered);
      assert.deepEqual(await get<WebhookAttempt[]>(`${delivery}/attempts`), attempts);
      assert.equal(receivedFor('stranger', delivered.event_id).length, 1);
    });

    it('refuses malformed ids (400 naming params.x)', async () => {
      const { t } = team();
      const cases: Array<['GET' | 'POST', string, string]> = [
        ['GET', '/wallets/nope/webhooks/events', 'params.wallet_id'],
        ['GET', '/webhooks/events/nope', 'params.event_id'],
        ['GET', '/webhooks/endpoints/nope/deliveries', 'params.endpoint_id'],
        ['GET', '/webhooks/deliveries/nope', 'params.delivery_id'],
        ['GET', '/webhooks/deliveries/nope/attempts', 'params.delivery_id'],
        ['POST', '/webhooks/deliveries/nope/retry', 'params.delivery_id'],
      ];
      for (const [method, url, field] of cases) {
        expectInvalid(await t.request(method, url, { token: owner().token }), `${method} ${url}`, field);
      }
    });

    it('refuses bad and unknown query parameters (400 naming query.x)', async () => {
      const { t } = team();
      const events = `/wallets/${shared.wallet.id}/webhooks/events`;
      const deliveries = `/webhooks/endpoints/${shared.endpoint.id}/deliveries`;
      const attempts = `/webhooks/deliveries/${shared.delivery.id}/attempts`;
      const cases: Array<[string, string]> = [
        [`${events}?type=payment.paid`, 'query.type'],
        [`${events}?type=succeeded`, 'query.type'],
        [`${events}?intent_id=nope`, 'query.intent_id'],
        [`${events}?status=pending`, 'query.status'],
        [`${events}?limit=0`, 'query.limit'],
        [`${deliveries}?status=sent`, 'query.status'],
        [`${deliveries}?type=payment.succeeded`, 'query.type'],
        [`${deliveries}?page=0`, 'query.page'],
        [`${deliveries}?limit=101`, 'query.limit'],
        [`${attempts}?status=failed`, 'query.status'],
        [`${attempts}?page=x`, 'query.page'],
      ];
      for (const [url, field] of cases) {
        expectInvalid(await t.get<PaymentEvent[]>(url, { token: owner().token }), url, field);
      }
    });
  });

  /** An endpoint at `/<label>` that answers 200, with one test-mode intent delivered to it. */
  async function retryable(label: string) {
    const made = await setUp(label);
    await createIntent(owner(), made.wallet.id, made.seller.id);
    return made;
  }
});
