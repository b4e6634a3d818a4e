/**
 * One endpoint's trouble stays its own (issue 17), over real HTTP with the in-process worker:
 * - a slow endpoint never has more than WEBHOOK_ENDPOINT_CONCURRENCY attempts in flight, and
 *   another wallet's endpoint is served meanwhile;
 * - an endpoint failing WEBHOOK_BREAKER_FAILURES times in a row is paused (nothing is sent to it
 *   until `paused_until`), probed one attempt at a time after the pause, paused twice as long when
 *   the probe fails, and closed by a success: every delivery ends delivered, none attempted sooner
 *   than the retry schedule says; `health` and `/metrics` show it all.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asc, eq, inArray } from 'drizzle-orm';
import { expectOk } from '../../../../../test/assertions.ts';
import { eventually, type Subscriber, startSubscriber } from '../../../../../test/subscriber.ts';
import { paymentsFixtures, usePaymentsTeam } from '../../payments.fixtures.ts';
import type { WebhookEndpointWithHealth, WebhookEndpointWithSecret } from '../endpoints/endpoints.schemas.ts';
import { webhookAttempts, webhookDeliveries } from './delivery.table.ts';

const SCHEDULE = [0, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2];
const CAP = 2;
const BREAKER_FAILURES = 3;
const PAUSE_MS = 1_500;

describe('webhook endpoints in trouble', () => {
  const team = usePaymentsTeam({
    WEBHOOK_RETRY_SCHEDULE: SCHEDULE.join(','),
    WEBHOOK_TIMEOUT_MS: '3000',
    WEBHOOK_ENDPOINT_CONCURRENCY: String(CAP),
    WEBHOOK_BREAKER_FAILURES: String(BREAKER_FAILURES),
    WEBHOOK_BREAKER_PAUSE_MS: String(PAUSE_MS),
  });
  const { walletWithSeller, createIntent } = paymentsFixtures(team);
  let subscriber: Subscriber;

  before(async () => {
    subscriber = await startSubscriber();
  });
  after(() => subscriber.close());

  /** A wallet with a seller and one endpoint at the subscriber (path `/<label>`), and `n` intents. */
  const endpointWithIntents = async (label: string, n: number) => {
    const { wallet, seller } = await walletWithSeller(team().owner);
    const endpoint = expectOk(
      await team().t.post<WebhookEndpointWithSecret>(`/wallets/${wallet.id}/webhooks/endpoints`, {
        token: team().owner.token,
        body: { name: label, url: `${subscriber.url}/${label}` },
      }),
      201,
    );
    return {
      endpoint,
      createIntents: (count = n) =>
        Promise.all(
          Array.from({ length: count }, () =>
            createIntent(team().owner, wallet.id, seller.id, { status: 'succeeded' }),
          ),
        ),
    };
  };
  const receivedAt = (label: string) => subscriber.received.filter((r) => r.path === `/${label}`);
  const deliveriesOf = (endpointId: string) =>
    team().t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, endpointId));
  const allDelivered = (endpointId: string, n: number, timeoutMs = 15_000) =>
    eventually(
      async () => {
        const rows = await deliveriesOf(endpointId);
        return rows.length === n && rows.every((row) => row.status === 'delivered') ? rows : undefined;
      },
      `${n} deliveries delivered`,
      timeoutMs,
    );
  const health = async (endpointId: string) =>
    expectOk(
      await team().t.get<WebhookEndpointWithHealth>(`/webhooks/endpoints/${endpointId}`, {
        token: team().owner.token,
      }),
    ).health;

  it('keeps a slow endpoint to its cap while another wallet’s endpoint is served', async () => {
    const slow = await endpointWithIntents('slow', 6);
    const fast = await endpointWithIntents('fast', 6);
    const SLOW_MS = 800;
    subscriber.respond = (r) => (r.path === '/slow' ? { delayMs: SLOW_MS } : {});
    await slow.createIntents();
    await fast.createIntents();

    await allDelivered(fast.endpoint.id, 6);
    // The fast endpoint was done while the slow one still had deliveries waiting for a slot.
    const slowDoneEarly = (await deliveriesOf(slow.endpoint.id)).filter((row) => row.status === 'delivered');
    assert.ok(slowDoneEarly.length < 6, `${slowDoneEarly.length} slow deliveries were already done`);

    await allDelivered(slow.endpoint.id, 6);
    // Never more than CAP requests at once at the slow endpoint: each is answered SLOW_MS after it
    // arrived, so count the arrivals within SLOW_MS before each arrival (a little less, for timers).
    const arrivals = receivedAt('slow').map((r) => r.receivedAt);
    assert.equal(arrivals.length, 6);
    const overlap = Math.max(
      ...arrivals.map((t) => arrivals.filter((other) => other <= t && other > t - (SLOW_MS - 50)).length),
    );
    assert.ok(overlap <= CAP, `${overlap} requests in flight at once at the slow endpoint`);
    assert.ok(overlap === CAP, 'the slow endpoint was used up to its cap');
    subscriber.respond = () => ({});
  });

  it('pauses a failing endpoint, probes it after the pause, and closes when it answers again', async () => {
    const broken = await endpointWithIntents('broken', 4);
    let failing = true;
    subscriber.respond = (r) => (r.path === '/broken' && failing ? { status: 500, body: 'down' } : {});
    await broken.createIntents();

    const paused = await eventually(async () => {
      const now = await health(broken.endpoint.id);
      return now.state === 'paused' ? now : undefined;
    }, 'the breaker to open');
    assert.ok(paused.consecutive_failures >= BREAKER_FAILURES, `${paused.consecutive_failures} failures`);
    const firstPauseEnds = new Date(paused.paused_until!).getTime();
    assert.ok(firstPauseEnds - Date.now() > PAUSE_MS / 2 && firstPauseEnds - Date.now() <= PAUSE_MS);
    assert.equal(paused.success_rate, 0);
    const sentBeforePause = receivedAt('broken').length;
    // A delivery queued during the pause is due when the pause ends, whichever worker claims it.
    const [late] = await broken.createIntents(1);
    const queued = (await deliveriesOf(broken.endpoint.id)).find(
      (row) => row.event_id !== null && row.attempts === 0,
    );
    assert.ok(queued !== undefined, `the delivery of intent ${late!.id} waits`);
    assert.equal(queued.next_attempt_at?.getTime(), firstPauseEnds);

    // After the pause: one probe, which fails, and a pause twice as long.
    const pausedAgain = await eventually(
      async () => {
        const now = await health(broken.endpoint.id);
        return now.state === 'paused' && new Date(now.paused_until!).getTime() > firstPauseEnds
          ? now
          : undefined;
      },
      'the breaker to open again',
      PAUSE_MS * 3,
    );
    const probes = receivedAt('broken').slice(sentBeforePause);
    assert.equal(probes.length, 1, 'one probe after the pause');
    assert.ok(probes[0]!.receivedAt >= firstPauseEnds - 20, 'nothing was sent during the pause');
    const secondPause = new Date(pausedAgain.paused_until!).getTime() - probes[0]!.receivedAt;
    assert.ok(secondPause > PAUSE_MS * 1.5 && secondPause <= PAUSE_MS * 2 + 100, `paused ${secondPause} ms`);

    // The endpoint recovers: the next probe succeeds and everything waiting goes out.
    failing = false;
    const rows = await allDelivered(broken.endpoint.id, 5, PAUSE_MS * 4);
    const healed = await health(broken.endpoint.id);
    assert.equal(healed.state, 'healthy');
    assert.equal(healed.consecutive_failures, 0);
    assert.equal(healed.paused_until, null);

    const attempts = await team()
      .t.db.select()
      .from(webhookAttempts)
      .where(
        inArray(
          webhookAttempts.delivery_id,
          rows.map((row) => row.id),
        ),
      )
      .orderBy(asc(webhookAttempts.started_at));
    assert.equal(healed.attempts, attempts.length);
    const succeeded = attempts.filter((a) => a.response_status === 200).length;
    assert.equal(succeeded, 5);
    assert.equal(healed.success_rate, Math.round((succeeded / attempts.length) * 10_000) / 10_000);
    assert.equal(receivedAt('broken').length, attempts.length, 'every request sent was recorded');
    // No delivery was attempted sooner than its schedule allows (pauses only push attempts later).
    for (const row of rows) {
      const own = attempts.filter((a) => a.delivery_id === row.id);
      assert.ok(own.length <= SCHEDULE.length);
      for (let i = 1; i < own.length; i++) {
        const gap = own[i]!.started_at.getTime() - own[i - 1]!.started_at.getTime();
        assert.ok(
          gap >= SCHEDULE[i]! * 1000 * 0.9,
          `attempt ${i + 1} of a delivery came ${gap} ms after the last`,
        );
      }
    }

    const metrics = (await team().t.get('/metrics')).text;
    const pauses = Number(/^webhook_endpoint_pauses_total (\d+)$/m.exec(metrics)?.[1]);
    assert.ok(pauses >= 2, `${pauses} pauses counted`);
    assert.match(metrics, /^webhook_attempts_total\{result="failure",outcome="http_5xx"\} \d+$/m);
    assert.match(metrics, /^webhook_attempts_total\{result="success",outcome="success"\} \d+$/m);
    subscriber.respond = () => ({});
  });
});
