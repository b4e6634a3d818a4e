/**
 * A replay survives a crash (docs/reference/webhooks.md, "Replaying deliveries"), with real processes on
 * the PostgreSQL server (the embedded database belongs to one process, so this needs TEST_DATABASE_URL;
 * CI runs it in its PostgreSQL pass). 6,000 failed deliveries of one endpoint are replayed with
 * `status: all`, so a delivery queued twice would be attempted twice (once delivered, it matches again).
 * The service running the replay's job is SIGKILLed mid-way; a worker process of its own keeps
 * delivering. A new service takes the job over when its lease (3 s here, JOBS_LEASE_MS) runs out and
 * finishes it: every delivery was queued once and attempted once, and the subscriber received each
 * event once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../../../../../test/database.ts';
import { signToken } from '../../../../../test/harness.ts';
import {
  childEnv,
  freePort,
  killAllChildren,
  startService,
  startWorker,
} from '../../../../../test/processes.ts';
import { eventually, type Subscriber, startSubscriber } from '../../../../../test/subscriber.ts';
import { uuidv7 } from '../../../../kernel/db/ids.ts';
import { queryRows } from '../../../../kernel/db/raw.ts';

const TOTAL = 6000;
const skip = TEST_DATABASE_URL ? false : 'needs a PostgreSQL server: set TEST_DATABASE_URL';

interface ReplayView {
  status: string;
  total: number;
  done: number;
  queued: number;
  skipped: number;
}

describe('a replay across a SIGKILL (PostgreSQL, real processes)', { skip }, () => {
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

  it('resumes the killed replay and queues every delivery exactly once', async (t) => {
    const port = await freePort();
    // One environment for the service and the worker: the same SECRETS_KEY opens the endpoint's secret.
    const env = await childEnv(database.url!, {
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      JOBS_POLL_MS: '100',
      JOBS_LEASE_MS: '3000',
      WEBHOOK_WORKER: 'false',
      WEBHOOK_ENDPOINT_CONCURRENCY: '64',
    });
    let service = await startService(env);
    const worker = await startWorker(env);
    t.after(() => worker.kill('SIGKILL'));
    const owner = await signToken({ id: uuidv7(), email: 'replay-owner@example.com' });
    const api = async <T = Record<string, string>>(method: string, path: string, body?: unknown) => {
      const response = await fetch(`${service.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
      });
      const json = (await response.json()) as { data: T };
      assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
      return json.data;
    };

    const wallet = await api('POST', '/wallets', { name: 'Replayed' });
    const endpoint = await api('POST', `/wallets/${wallet.id}/webhooks/endpoints`, {
      name: 'Subscriber',
      url: `${subscriber.url}/replayed`,
    });
    // 6,000 events, each with a delivery that failed its one attempt over the last hour, written
    // straight to the database: the delivery paths are the other tests' business.
    const db = database.handle.db;
    await db.execute(sql`
      with events as (
        insert into payment_events (id, wallet_id, intent_id, type, source, payload, created_at)
        select gen_random_uuid(), ${wallet.id}::uuid, null, 'webhook.test', 'test',
               jsonb_build_object('message', 'replayed'), now() - (g || ' ms')::interval
        from generate_series(1, ${TOTAL}) g
        returning id, created_at
      )
      insert into webhook_deliveries (id, event_id, endpoint_id, wallet_id, status, attempts,
                                      last_attempted_at, response_status, created_at, updated_at)
      select gen_random_uuid(), id, ${endpoint.id}::uuid, ${wallet.id}::uuid, 'failed', 1, created_at, 500,
             created_at, created_at
      from events`);

    const { job_id: jobId } = await api<{ job_id: string }>(
      'POST',
      `/webhooks/endpoints/${endpoint.id}/replay`,
      {
        since: new Date(Date.now() - 2 * 3_600_000).toISOString(),
        status: 'all',
      },
    );
    // Kill the service as soon as the replay has queued some, but not all, deliveries.
    for (;;) {
      const job = await api<ReplayView>('GET', `/jobs/${jobId}`);
      assert.notEqual(job.status, 'completed', 'the replay finished before it could be interrupted');
      if (job.status === 'running' && job.done > 0) break;
      await sleep(5);
    }
    await service.kill('SIGKILL');
    const [cut] = await queryRows<{ done: number; queued: number }>(
      db,
      sql`select done, queued from webhook_replays where id = ${jobId}`,
    );
    assert.ok(cut!.done > 0 && cut!.done < TOTAL, `killed with ${cut!.done} looked at`);

    service = await startService(env);
    let job: ReplayView;
    const deadline = Date.now() + 90_000;
    do {
      await sleep(200);
      job = await api('GET', `/jobs/${jobId}`);
      assert.ok(Date.now() < deadline, `still ${job.status} ${job.done}/${job.total} after 90 s`);
    } while (job.status !== 'completed');
    assert.deepEqual(
      { total: job.total, done: job.done, queued: job.queued, skipped: job.skipped },
      { total: TOTAL, done: TOTAL, queued: TOTAL, skipped: 0 },
    );

    await eventually(
      async () => {
        const [row] = await queryRows<{ delivered: number }>(
          db,
          sql`select count(*)::int as delivered from webhook_deliveries where status = 'delivered'`,
        );
        return row!.delivered === TOTAL ? true : undefined;
      },
      'every replayed delivery delivered',
      90_000,
    );
    // Queued once each: one new attempt per delivery (numbered 2), none more.
    const [counts] = await queryRows<{
      attempts: number;
      deliveries: number;
      max_attempts: number;
      numbered: number;
    }>(
      db,
      sql`select count(a.id)::int as attempts, count(distinct d.id)::int as deliveries,
                 max(d.attempts)::int as max_attempts,
                 count(*) filter (where a.attempt = 2)::int as numbered
          from webhook_deliveries d join webhook_attempts a on a.delivery_id = d.id`,
    );
    assert.deepEqual(counts, { attempts: TOTAL, deliveries: TOTAL, max_attempts: 2, numbered: TOTAL });
    const ids = subscriber.received.filter((r) => r.path === '/replayed').map((r) => r.headers['webhook-id']);
    assert.equal(ids.length, TOTAL);
    assert.equal(new Set(ids).size, TOTAL);
    await service.kill('SIGTERM');
  });
});
