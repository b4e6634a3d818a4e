/**
 * Nothing is lost, nothing is attempted twice (docs/reference/running.md and docs/reference/webhooks.md),
 * shown with real processes on the PostgreSQL server (the embedded database belongs to one process, so these
 * need TEST_DATABASE_URL; CI runs them in its PostgreSQL pass):
 *
 * 1. 1,000 deliveries while the service is killed with SIGKILL mid-way and restarted: every
 *    delivery ends `delivered`, the subscriber saw every event, and it saw no event more often than
 *    the attempts recorded for it, plus one if the event was in flight at the kill (received, not
 *    yet recorded as delivered). An attempt recorded as failed whose request did arrive (a timeout
 *    on a loaded machine) is retried by design: at least once, never unrecorded.
 * 2. Two standalone worker processes draining one queue: every event is received exactly once and
 *    every delivery took exactly one attempt.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../../../../../test/database.ts';
import { signToken } from '../../../../../test/harness.ts';
import {
  childEnv,
  freePort,
  inParallel,
  killAllChildren,
  startService,
  startWorker,
} from '../../../../../test/processes.ts';
import { eventually, type Subscriber, startSubscriber } from '../../../../../test/subscriber.ts';
import { uuidv7 } from '../../../../kernel/db/ids.ts';
import { queryRows } from '../../../../kernel/db/raw.ts';

const TOTAL = 1000;
const skip = TEST_DATABASE_URL ? false : 'needs a PostgreSQL server: set TEST_DATABASE_URL';

/** A minimal API client of a child service, as an integrator would call it. */
function client(baseUrl: string, token: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const json = (await response.json()) as { data: Record<string, string> };
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json.data;
  };
}

/** A wallet, a test seller and one endpoint at `target`; returns a function creating intents. */
async function setUpWallet(baseUrl: string, target: string) {
  const token = await signToken({ id: uuidv7(), email: `reliability-${process.pid}@example.com` });
  const api = client(baseUrl, token);
  const wallet = await api('POST', '/wallets', { name: `Reliability ${uuidv7()}` });
  const seller = await api('POST', '/testmode/sellers', { wallet_id: wallet.id, provider: 'mercadopago' });
  await api('POST', `/wallets/${wallet.id}/webhooks/endpoints`, { name: 'Subscriber', url: target });
  return (index: number) =>
    api('POST', '/testmode/intents/create', {
      wallet_id: wallet.id,
      seller_id: seller.id,
      amount_cents: 100 + index,
      currency: 'BRL',
      sandbox: true,
      provider: 'mercadopago',
      status: 'succeeded',
    });
}

describe('webhook delivery reliability (PostgreSQL, real processes)', { skip }, () => {
  let database: TestDatabase;
  let subscriber: Subscriber;

  before(async () => {
    database = await createTestDatabase();
    subscriber = await startSubscriber();
  });
  after(async () => {
    await killAllChildren();
    await subscriber?.close();
    await database?.close();
  });

  const deliveryCounts = async () => {
    const rows = await queryRows<{ status: string; n: number }>(
      database.handle.db,
      sql`select status, count(*)::int as n from webhook_deliveries group by status`,
    );
    return Object.fromEntries(rows.map((row) => [row.status, row.n])) as Record<string, number>;
  };
  /** Waits for every delivery to be delivered; a timeout says where the deliveries stand. */
  const allDelivered = async (timeoutMs: number) => {
    let last: Record<string, number> = {};
    try {
      await eventually(
        async () => {
          last = await deliveryCounts();
          return last.delivered === TOTAL ? true : undefined;
        },
        'every delivery delivered',
        timeoutMs,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; deliveries by status: ${JSON.stringify(last)}`);
    }
  };
  const receivedIds = () => subscriber.received.map((r) => String(r.headers['webhook-id']));

  it('loses no delivery when the service is killed with SIGKILL mid-way', async (t) => {
    const env = await childEnv(database.url!, {
      PORT: String(await freePort()),
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_SCHEDULE: '0,0.5,1,1,1,1,1,1,1,1',
    });
    // Slow answers keep deliveries in flight, so the kill lands in the middle of the work.
    subscriber.respond = () => ({ delayMs: 300 });
    let service = await startService(env);
    // A failed assertion must not leave this service's worker draining the next test's queue.
    t.after(() => service.kill('SIGKILL'));
    const createIntent = await setUpWallet(service.url, `${subscriber.url}/kill`);
    await inParallel(TOTAL, 16, createIntent);

    await eventually(async () => (subscriber.received.length >= 200 ? true : undefined), '200 receipts');
    await service.kill('SIGKILL');
    // What the killed process had already written still reaches the subscriber after its exit (on
    // a loaded machine, a beat later): those requests were in flight too. Wait for the receipts to
    // settle (no new one for a second) before noting what arrived before the kill.
    let settled = -1;
    await eventually(async () => {
      const now = subscriber.received.length;
      if (now === settled) return true;
      settled = now;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return undefined;
    }, 'the receipts of the killed service to settle');
    const seenBeforeKill = new Set(receivedIds());
    const deliveredAtKill = new Set(
      (
        await queryRows<{ event_id: string }>(
          database.handle.db,
          sql`select event_id from webhook_deliveries where status = 'delivered'`,
        )
      ).map((row) => row.event_id),
    );
    assert.ok(deliveredAtKill.size < TOTAL, 'the kill came before the end of the work');

    service = await startService(env);
    await allDelivered(90_000);
    assert.deepEqual(await deliveryCounts(), { delivered: TOTAL });

    const events = await queryRows<{ id: string }>(database.handle.db, sql`select id from payment_events`);
    assert.equal(events.length, TOTAL);
    const ids = receivedIds();
    const seen = new Set(ids);
    for (const event of events) assert.ok(seen.has(event.id), `event ${event.id} never arrived`);
    const counts = new Map<string, number>();
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    const attempts = await queryRows<{ event_id: string; attempts: number; errors: string[] }>(
      database.handle.db,
      sql`select d.event_id, count(a.id)::int as attempts,
                 coalesce(array_agg(a.error) filter (where a.error is not null), '{}') as errors
          from webhook_deliveries d left join webhook_attempts a on a.delivery_id = d.id
          group by d.event_id`,
    );
    for (const row of attempts) {
      const received = counts.get(row.event_id) ?? 0;
      const inFlightAtKill = seenBeforeKill.has(row.event_id) && !deliveredAtKill.has(row.event_id);
      assert.ok(
        received <= row.attempts + (inFlightAtKill ? 1 : 0),
        `event ${row.event_id} arrived ${received} times for ${row.attempts} recorded attempts ` +
          `(${inFlightAtKill ? '' : 'not '}in flight at the kill; errors: ${JSON.stringify(row.errors)})`,
      );
    }
    await service.kill('SIGTERM');
  });

  it('never attempts a delivery twice with two worker processes on one database', async (t) => {
    await database.handle.db.execute(sql`truncate webhook_attempts, webhook_deliveries cascade`);
    subscriber.received.length = 0;
    subscriber.respond = () => ({ delayMs: 5 });
    const env = await childEnv(database.url!, { PORT: String(await freePort()), WEBHOOK_WORKER: 'false' });
    const service = await startService(env);
    const workers = await Promise.all([startWorker(env), startWorker(env)]);
    t.after(() => Promise.all([service, ...workers].map((child) => child.kill('SIGKILL'))));
    const createIntent = await setUpWallet(service.url, `${subscriber.url}/two`);
    await inParallel(TOTAL, 16, createIntent);

    // A bound, not a measure: ~10 s on an idle machine, several times that on a loaded one.
    await allDelivered(120_000);
    const [totals] = await queryRows<{ attempts: number; max_attempts: number; rows: number }>(
      database.handle.db,
      sql`select count(*)::int as rows, sum(attempts)::int as attempts, max(attempts)::int as max_attempts
          from webhook_deliveries d
          where d.endpoint_id in (select id from webhook_endpoints where url like '%/two')`,
    );
    assert.deepEqual(totals, { rows: TOTAL, attempts: TOTAL, max_attempts: 1 });
    const ids = subscriber.received.filter((r) => r.path === '/two').map((r) => r.headers['webhook-id']);
    assert.equal(ids.length, TOTAL);
    assert.equal(new Set(ids).size, TOTAL);

    // Both processes took part (each reports its attempts when it stops).
    const made = await Promise.all(
      workers.map(async (worker) => {
        await worker.kill('SIGTERM');
        const stopped = worker.logs.find((line) => line.msg === 'webhook worker stopped');
        return Number(stopped?.attempts_made ?? 0);
      }),
    );
    assert.equal(
      made.reduce((a, b) => a + b, 0),
      TOTAL,
    );
    assert.ok(
      made.every((n) => n > 0),
      `attempts per worker: ${made.join(', ')}`,
    );
    await service.kill('SIGTERM');
  });
});
