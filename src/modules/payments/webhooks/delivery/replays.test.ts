/**
 * Replaying an endpoint's deliveries (docs/reference/webhooks.md, "Replaying deliveries"), over real
 * HTTP to a local subscriber: a replay queues exactly the deliveries of its window and status, each
 * once, and the subscriber receives them; its job's progress shows at `GET /jobs/{job_id}`; a replay
 * racing the worker and manual retries never makes two attempts of one delivery at once; and its
 * refusals (validation, a disabled endpoint, someone else's endpoint).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { asc, eq, inArray } from 'drizzle-orm';
import { expectError, expectFields, expectOk } from '../../../../../test/assertions.ts';
import { checkAuth } from '../../../../../test/auth-check.ts';
import {
  type Answer,
  eventually,
  type Received,
  type Subscriber,
  startSubscriber,
} from '../../../../../test/subscriber.ts';
import { expectHiddenFrom, paymentsFixtures, UNKNOWN_ID, usePaymentsTeam } from '../../payments.fixtures.ts';
import type { WebhookEndpoint, WebhookEndpointWithSecret } from '../endpoints/endpoints.schemas.ts';
import type { WebhookDelivery } from './deliveries.schemas.ts';
import { webhookAttempts, webhookDeliveries } from './delivery.table.ts';
import type { ReplayJob } from './replays.schemas.ts';
import { webhookReplays } from './replays.table.ts';

/** One attempt and the delivery is `failed`: the deliveries to replay are made in moments. */
const SCHEDULE = [0];

interface Accepted {
  job_id: string;
  job: ReplayJob;
}

describe('replaying webhook deliveries', () => {
  const team = usePaymentsTeam({
    WEBHOOK_RETRY_SCHEDULE: SCHEDULE.join(','),
    WEBHOOK_TIMEOUT_MS: '2000',
    // Failing endpoints must not pause: these tests are about the replay, not the breaker.
    WEBHOOK_BREAKER_FAILURES: '100000',
    JOBS_POLL_MS: '50',
  });
  const { walletWithSeller, createIntent, createEndpoint } = paymentsFixtures(team);
  let subscriber: Subscriber;
  const answers = new Map<string, (request: Received) => Answer>();
  const owner = () => team().owner;

  const replay = (endpointId: string, body: unknown, headers: Record<string, string> = {}) =>
    team().t.post<Accepted>(`/webhooks/endpoints/${endpointId}/replay`, {
      token: owner().token,
      body,
      headers,
    });
  const job = async (jobId: string) =>
    expectOk(await team().t.get<ReplayJob>(`/jobs/${jobId}`, { token: owner().token }), 200, 'payments');
  const completed = (jobId: string) =>
    eventually(async () => {
      const view = await job(jobId);
      return view.status === 'completed' ? view : undefined;
    }, `replay ${jobId} completed`);
  const receivedAt = (label: string) => subscriber.received.filter((r) => r.path === `/${label}`);
  const deliveriesOf = (endpointId: string) =>
    team()
      .t.db.select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpoint_id, endpointId))
      .orderBy(asc(webhookDeliveries.created_at), asc(webhookDeliveries.id));
  /** The attempts of these deliveries, by delivery and in order. */
  const attemptsOf = (deliveryIds: string[]) =>
    team()
      .t.db.select()
      .from(webhookAttempts)
      .where(inArray(webhookAttempts.delivery_id, deliveryIds))
      .orderBy(asc(webhookAttempts.delivery_id), asc(webhookAttempts.attempt));
  const settledDeliveries = (endpointId: string, count: number) =>
    eventually(async () => {
      const rows = await deliveriesOf(endpointId);
      return rows.length === count && rows.every((d) => d.status !== 'pending') ? rows : undefined;
    }, `${count} settled deliveries`);

  /** A wallet, a seller and an endpoint at `/<label>` of the subscriber, answering as `answer` says. */
  const setUp = async (label: string, answer: (request: Received) => Answer) => {
    answers.set(`/${label}`, answer);
    const { wallet, seller } = await walletWithSeller(owner());
    const endpoint = await createEndpoint(owner(), wallet.id, {
      name: label,
      url: `${subscriber.url}/${label}`,
    });
    const events = (n: number, fields: Record<string, unknown> = {}) =>
      Promise.all(Array.from({ length: n }, () => createIntent(owner(), wallet.id, seller.id, fields)));
    return { wallet, seller, endpoint, events };
  };

  before(async () => {
    subscriber = await startSubscriber();
    subscriber.respond = (request) => answers.get(request.path)?.(request) ?? {};
  });
  after(() => subscriber.close());

  it('queues exactly the failed deliveries of its window, once each, and the subscriber receives them', async () => {
    let isDown = true;
    const { endpoint, events } = await setUp('window', () => (isDown ? { status: 500 } : {}));
    await events(3);
    const [early] = await settledDeliveries(endpoint.id, 3);
    // The window starts after the first three (one of them is outside it)…
    await sleep(20);
    const since = new Date().toISOString();
    await events(4);
    const all = await settledDeliveries(endpoint.id, 7);
    assert.ok(all.every((d) => d.status === 'failed' && d.attempts === 1));
    // …and a delivered one inside it is not replayed by the default selection.
    isDown = false;
    await events(1);
    const withDelivered = await settledDeliveries(endpoint.id, 8);
    const inWindow = withDelivered.filter((d) => d.created_at.toISOString() >= since);
    assert.deepEqual(inWindow.map((d) => d.status).sort(), [
      'delivered',
      'failed',
      'failed',
      'failed',
      'failed',
    ]);
    const before = receivedAt('window').length;

    const response = await replay(endpoint.id, { since });
    const accepted = expectOk(response, 202, 'payments');
    assert.equal(accepted.job_id, accepted.job.id);
    assert.deepEqual(
      [accepted.job.kind, accepted.job.status, accepted.job.delivery_status, accepted.job.endpoint_id],
      ['webhooks.replay', 'queued', 'failed', endpoint.id],
    );
    assert.equal(accepted.job.since, since);

    const done = await completed(accepted.job_id);
    assert.deepEqual(
      {
        total: done.total,
        done: done.done,
        queued: done.queued,
        skipped: done.skipped,
        last_error: done.last_error,
      },
      { total: 4, done: 4, queued: 4, skipped: 0, last_error: null },
    );
    assert.ok(done.started_at !== null && done.finished_at !== null);

    const replayed = inWindow.filter((d) => d.status === 'failed');
    await eventually(async () => {
      const rows = await deliveriesOf(endpoint.id);
      const now = rows.filter((d) => replayed.some((r) => r.id === d.id));
      return now.every((d) => d.status === 'delivered' && d.attempts === 2) ? true : undefined;
    }, 'the replayed deliveries delivered');
    const got = receivedAt('window').slice(before);
    assert.deepEqual(
      got.map((r) => r.headers['webhook-id']).sort(),
      replayed.map((d) => d.event_id).sort(),
      'each replayed delivery once, nothing else',
    );
    // The one before the window, and the delivered one, were left alone.
    const untouched = (await deliveriesOf(endpoint.id)).filter(
      (d) => d.id === early!.id || inWindow.some((w) => w.id === d.id && w.status === 'delivered'),
    );
    assert.deepEqual(
      untouched.map((d) => [d.status, d.attempts]),
      [
        ['failed', 1],
        ['delivered', 1],
      ],
    );
  });

  it('shows its progress at GET /jobs/{job_id} until it is completed, batch by batch', async () => {
    const { endpoint, events } = await setUp('progress', () => ({ status: 503 }));
    const since = new Date(Date.now() - 1000).toISOString();
    // More than one batch (200), written straight away: the API paths are the other tests' business.
    await events(5);
    const made = await settledDeliveries(endpoint.id, 5);
    const template = made[0]!;
    const extra = Array.from({ length: 445 }, (_, i) => ({
      ...template,
      id: `${template.id.slice(0, 24)}${(i + 1).toString(16).padStart(12, '0')}`,
      created_at: new Date(template.created_at.getTime() + 1 + (i % 7)),
    }));
    await team().t.db.insert(webhookDeliveries).values(extra);
    answers.set('/progress', () => ({}));

    const accepted = expectOk(await replay(endpoint.id, { since, status: 'all' }), 202, 'payments');
    const seen: ReplayJob[] = [];
    for (;;) {
      const view = await job(accepted.job_id);
      seen.push(view);
      if (view.status === 'completed') break;
      assert.ok(seen.length < 500, 'the replay never completed');
      await sleep(5);
    }
    const last = seen.at(-1)!;
    assert.deepEqual([last.total, last.done, last.queued + last.skipped], [450, 450, 450]);
    for (const [i, view] of seen.entries()) {
      assert.ok(view.done <= view.total || view.status === 'queued', 'done never passes total');
      if (i > 0) assert.ok(view.done >= seen[i - 1]!.done, 'done never goes back');
    }
    // Every one of them sent again, once.
    await eventually(async () => {
      const ids = new Set(receivedAt('progress').map((r) => r.headers['webhook-id']));
      return ids.size === 5 ? true : undefined;
    }, 'the five real events received again');
    const rows = await deliveriesOf(endpoint.id);
    // 450 sends to one endpoint, a few at a time (its concurrency cap): about 10 s on the embedded
    // database of a busy CI machine, where the default 10 s wait ran out once. A minute for them.
    await eventually(
      async () => {
        const now = await deliveriesOf(endpoint.id);
        return now.every((d) => d.status === 'delivered') ? true : undefined;
      },
      'every delivery delivered',
      60_000,
    );
    const attempts = await attemptsOf(rows.map((d) => d.id));
    // One failed attempt each for the five real ones, then one replayed attempt for all 450.
    assert.equal(attempts.length, 5 + 450);
  });

  it('never lets a delivery be attempted twice at once, racing the worker, retries and a second replay', async () => {
    let isDown = true;
    const { endpoint, events } = await setUp('race', () => (isDown ? { status: 500 } : { delayMs: 150 }));
    const since = new Date(Date.now() - 1000).toISOString();
    await events(12);
    const failed = await settledDeliveries(endpoint.id, 12);
    isDown = false;

    // Two replays of the same deliveries and a manual retry of each, all at once, while the
    // worker is sending what the first of them queued.
    const retries = failed.map((d) =>
      team().t.post<WebhookDelivery>(`/webhooks/deliveries/${d.id}/retry`, { token: owner().token }),
    );
    const [first, second] = await Promise.all([
      replay(endpoint.id, { since, status: 'all' }),
      replay(endpoint.id, { since, status: 'all' }),
      ...retries,
    ]);
    const jobs = [expectOk(first!, 202), expectOk(second!, 202)].map((a) => (a as Accepted).job_id);
    for (const jobId of jobs) await completed(jobId);
    await eventually(async () => {
      const rows = await deliveriesOf(endpoint.id);
      return rows.every((d) => d.status === 'delivered') ? rows : undefined;
    }, 'every delivery delivered');

    // From the attempts' records: no two attempts of one delivery overlap in time…
    const attempts = await attemptsOf(failed.map((d) => d.id));
    for (const delivery of failed) {
      const own = attempts.filter((a) => a.delivery_id === delivery.id);
      for (let i = 1; i < own.length; i++) {
        const previous = own[i - 1]!;
        const end = previous.started_at.getTime() + previous.duration_ms;
        assert.ok(
          own[i]!.started_at.getTime() >= end,
          `attempts ${i} and ${i + 1} of ${delivery.id} overlap`,
        );
      }
      assert.deepEqual(
        own.map((a) => a.attempt),
        own.map((_, i) => i + 1),
      );
    }
    // …and neither do the requests the subscriber saw for one event (each answered after 150 ms).
    const byEvent = new Map<string, number[]>();
    for (const request of receivedAt('race')) {
      const id = String(request.headers['webhook-id']);
      byEvent.set(id, [...(byEvent.get(id) ?? []), request.receivedAt]);
    }
    for (const [id, times] of byEvent) {
      const recovered = times.slice(1); // the first is the failed attempt, answered at once
      for (let i = 1; i < recovered.length; i++) {
        assert.ok(recovered[i]! - recovered[i - 1]! >= 140, `event ${id} was received twice at once`);
      }
    }
    // Each replay queued a delivery at most once: what it counted adds up to what it looked at.
    for (const jobId of jobs) {
      const view = await job(jobId);
      assert.equal(view.queued + view.skipped, view.done);
      assert.ok(view.queued <= failed.length);
    }
  });

  it('takes an Idempotency-Key: the same request again answers the same replay and starts none', async () => {
    const { endpoint, events } = await setUp('idempotent', () => ({ status: 500 }));
    await events(1);
    await settledDeliveries(endpoint.id, 1);
    const body = { since: new Date(Date.now() - 60_000).toISOString() };
    const headers = { 'idempotency-key': `replay-${endpoint.id}` };
    const first = await replay(endpoint.id, body, headers);
    const again = await replay(endpoint.id, body, headers);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(expectOk(again, 202).job_id, expectOk(first, 202).job_id);
    const rows = await team()
      .t.db.select()
      .from(webhookReplays)
      .where(eq(webhookReplays.endpoint_id, endpoint.id));
    assert.equal(rows.length, 1);
    // Another body under the same key is refused.
    expectError(await replay(endpoint.id, { ...body, status: 'all' }, headers), 422, 'UNPROCESSABLE_ENTITY');
  });

  describe('refusals', () => {
    let endpoint: WebhookEndpointWithSecret;
    before(async () => {
      ({ endpoint } = await setUp('refusals', () => ({})));
    });
    const since = '2026-11-01T00:00:00.000Z';

    it('names each bad field (400)', async () => {
      expectFields(await replay(endpoint.id, { since, until: '2026-10-01T00:00:00.000Z' }), 'until');
      expectFields(
        await replay(endpoint.id, { since: new Date(Date.now() + 3_600_000).toISOString() }),
        'since',
      );
      expectFields(await replay(endpoint.id, { since: 'yesterday' }), 'since');
      expectFields(await replay(endpoint.id, { since, until: '2026-13-01T00:00:00Z' }), 'until');
      expectFields(await replay(endpoint.id, {}), 'since');
      expectFields(await replay(endpoint.id, { since, status: 'pending' }), 'status');
      expectFields(await replay(endpoint.id, { since, force: true }), 'force');
      expectFields(
        await team().t.post(`/webhooks/endpoints/not-a-uuid/replay`, {
          token: owner().token,
          body: { since },
        }),
        'params.endpoint_id',
      );
      const rows = await team()
        .t.db.select()
        .from(webhookReplays)
        .where(eq(webhookReplays.endpoint_id, endpoint.id));
      assert.equal(rows.length, 0);
    });

    it('refuses a disabled endpoint (409 endpoint_disabled) and hides the endpoint from anyone else (404)', async () => {
      const { endpoint: off } = await setUp('refusals-off', () => ({}));
      expectOk(
        await team().t.patch<WebhookEndpoint>(`/webhooks/endpoints/${off.id}`, {
          token: owner().token,
          body: { enabled: false },
        }),
      );
      const error = expectError(await replay(off.id, { since }), 409, 'CONFLICT');
      assert.equal(error.reason, 'endpoint_disabled');
      assert.deepEqual(error.meta, { endpoint_id: off.id });
      await expectHiddenFrom(team().t, team().outsider, [
        {
          method: 'POST',
          url: `/webhooks/endpoints/${off.id}/replay`,
          body: { since },
          unknown: { url: `/webhooks/endpoints/${UNKNOWN_ID}/replay` },
        },
      ]);
    });

    it('shows a replay at GET /jobs/{job_id} to its owner only', async () => {
      const accepted = expectOk(await replay(endpoint.id, { since }), 202, 'payments');
      expectError(
        await team().t.get(`/jobs/${accepted.job_id}`, { token: team().outsider.token }),
        404,
        'NOT_FOUND',
      );
      assert.equal((await job(accepted.job_id)).id, accepted.job_id);
    });

    checkAuth(
      'replay',
      () => team().t,
      () => [{ method: 'POST', url: `/webhooks/endpoints/${endpoint.id}/replay`, body: { since } }],
    );
  });
});
