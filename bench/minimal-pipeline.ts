/**
 * The minimal webhook pipeline the `scale` suite judges Convene against (issue 33): the least a
 * durable delivery pipeline on this design does, written small and honest, so that a ratio to it
 * measures Convene and not the machine. Two processes, as Convene's service and worker:
 *
 * - **api** (`node minimal-pipeline.mjs api`, this file compiled: `builtBenchScript`): a bare Fastify route,
 *   `POST /intents` (`wallet_id`, `amount_cents`), running one insert statement through `pg` (an
 *   event and one delivery per endpoint of the wallet, in one transaction) and answering 201
 *   `{data: {id}}` once it committed: every delivery is durable before the create answers.
 * - **worker** (`… bench/minimal-pipeline.ts worker`): claims due deliveries in batches of 32 with
 *   `FOR UPDATE SKIP LOCKED` under a 30 s lease (one statement), keeps up to 256 attempts in flight,
 *   POSTs each event's JSON to its endpoint with undici, and records each batch once all its
 *   attempts answered, in one statement (delivered, or due again after a back-off). A claim comes
 *   back short: the next is started 20 ms after the last (Convene's claim interval); a full one:
 *   at once while there is room.
 *
 * What it leaves out, and Convene does: authentication, validation beyond the JSON schema, the
 * envelope, idempotency keys, intents and their transitions, signatures, per-endpoint fairness and
 * caps, the circuit breaker, endpoint health, attempts' history, response bodies, retry schedules
 * with jitter and `Retry-After`, notifications between processes, metrics, logs.
 *
 * The bench (bench/webhooks-scale.ts) makes its tables with `createMinimalTables` and its endpoints
 * with `addMinimalEndpoints`, in the suite's database, and starts the two processes with
 * `startMinimalPipeline`.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import pg from 'pg';
import { Agent } from 'undici';
import { DEFAULT_CLAIM_INTERVAL_MS } from '../src/modules/payments/webhooks/delivery/delivery.pacing.ts';
import { DEFAULT_BATCH_SIZE } from '../src/modules/payments/webhooks/delivery/delivery.worker.ts';
import { builtBenchScript, startChild, waitUntilAnswers } from './lib.ts';

/** Attempts in flight at once in the worker: Convene's default (`WEBHOOK_CONCURRENCY`). */
const CONCURRENCY = 256;
const LEASE = '30 seconds';
const TIMEOUT_MS = 15_000;
/** Connections of each process's pool: Convene's default. */
const POOL_SIZE = 10;

export async function createMinimalTables(client: pg.Client): Promise<void> {
  await client.query(`
    create table if not exists minimal_endpoints (
      id uuid primary key,
      wallet_id uuid not null,
      url text not null);
    create index if not exists minimal_endpoints_wallet_idx on minimal_endpoints (wallet_id);
    create table if not exists minimal_events (
      id uuid primary key,
      wallet_id uuid not null,
      body text not null,
      created_at timestamptz not null default now());
    create table if not exists minimal_deliveries (
      id uuid primary key default gen_random_uuid(),
      event_id uuid not null references minimal_events (id),
      endpoint_id uuid not null references minimal_endpoints (id),
      status text not null default 'pending',
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      locked_until timestamptz,
      last_status integer);
    create index if not exists minimal_deliveries_due_idx on minimal_deliveries (next_attempt_at)
      where status = 'pending';`);
}

/** One endpoint at `url` for each of `n` new wallets; answers the wallets' ids. */
export async function addMinimalEndpoints(client: pg.Client, urls: string[]): Promise<string[]> {
  const wallets = urls.map(() => randomUUID());
  await client.query(
    `insert into minimal_endpoints (id, wallet_id, url)
     select gen_random_uuid(), w, u from unnest($1::uuid[], $2::text[]) as t(w, u)`,
    [wallets, urls],
  );
  return wallets;
}

/** The create request's JSON text for a wallet of the minimal pipeline. */
export const minimalCreateBody = (walletId: string) =>
  JSON.stringify({ wallet_id: walletId, amount_cents: 4200 });

export interface MinimalPipeline {
  api: ChildProcess;
  worker: ChildProcess;
  base: string;
  stopWorker(): Promise<void>;
  startWorker(): Promise<void>;
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** Starts the api on `port` and one worker, both on `databaseUrl`. */
export async function startMinimalPipeline(databaseUrl: string, port: number): Promise<MinimalPipeline> {
  const env = { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), NODE_ENV: 'production' };
  // Plain JavaScript, as the service it is compared with runs (lib.ts, `builtBenchScript`).
  const file = await builtBenchScript('bench/minimal-pipeline.ts');
  const api = startChild('minimal-api', [file, 'api'], env as Record<string, string>);
  const base = `http://127.0.0.1:${port}`;
  await waitUntilAnswers(api, `${base}/health`, 'minimal api');
  const startWorker = async () => {
    const worker = startChild('minimal-worker', [file, 'worker'], env as Record<string, string>);
    await new Promise<void>((resolve, reject) => {
      worker.once('exit', (code) => reject(new Error(`the minimal worker exited (${code}) while starting`)));
      worker.stdout?.on('data', (chunk: string) => {
        if (String(chunk).includes('minimal worker ready')) resolve();
      });
    });
    pipeline.worker = worker;
  };
  const pipeline: MinimalPipeline = {
    api,
    worker: api,
    base,
    stopWorker: () => stop(pipeline.worker),
    startWorker,
  };
  await startWorker();
  return pipeline;
}

// ---------- the api ----------

async function runApi(): Promise<void> {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE });
  const app = Fastify({ logger: false });
  app.get('/health', async () => ({ ok: true }));
  app.post<{ Body: { wallet_id: string; amount_cents: number } }>(
    '/intents',
    {
      schema: {
        body: {
          type: 'object',
          required: ['wallet_id', 'amount_cents'],
          additionalProperties: false,
          properties: {
            wallet_id: { type: 'string', format: 'uuid' },
            amount_cents: { type: 'integer', minimum: 1 },
          },
        },
      },
    },
    async (request, reply) => {
      const id = randomUUID();
      const body = JSON.stringify({
        type: 'payment.succeeded',
        timestamp: new Date().toISOString(),
        data: { intent_id: id, wallet_id: request.body.wallet_id, amount_cents: request.body.amount_cents },
      });
      // One statement, so one transaction: the event and its deliveries, committed before the answer.
      await pool.query(
        `with event as (insert into minimal_events (id, wallet_id, body) values ($1, $2, $3) returning id, wallet_id)
         insert into minimal_deliveries (event_id, endpoint_id)
         select event.id, endpoint.id from event join minimal_endpoints endpoint using (wallet_id)`,
        [id, request.body.wallet_id, body],
      );
      return reply.code(201).send({ data: { id } });
    },
  );
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.on('SIGTERM', () => void app.close().then(() => pool.end().then(() => process.exit(0))));
}

// ---------- the worker ----------

interface Claimed {
  id: string;
  attempts: number;
  body: string;
  url: string;
  event_id: string;
}

async function runWorker(): Promise<void> {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE });
  const agent = new Agent({ keepAliveTimeout: 4_000, connections: CONCURRENCY });
  let inFlight = 0;
  let running = true;
  let claiming = false;
  let lastClaimAt = 0;
  let timer: NodeJS.Timeout | undefined;

  const attempt = async (delivery: Claimed) => {
    try {
      const response = await agent.request({
        origin: new URL(delivery.url).origin,
        path: new URL(delivery.url).pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'webhook-id': delivery.event_id },
        body: delivery.body,
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
      await response.body.dump();
      return response.statusCode;
    } catch {
      return 0;
    }
  };

  /** One statement per batch: each delivered, or due again after a back-off, and its lease let go. */
  const record = (batch: Claimed[], statuses: number[]) =>
    pool.query(
      `update minimal_deliveries d
          set status = case when r.status between 200 and 299 then 'delivered' else 'pending' end,
              last_status = r.status,
              locked_until = null,
              next_attempt_at = case when r.status between 200 and 299 then d.next_attempt_at
                                     else now() + interval '5 seconds' * d.attempts end
         from unnest($1::uuid[], $2::int[]) as r(id, status)
        where d.id = r.id`,
      [batch.map((delivery) => delivery.id), statuses],
    );

  const claim = async (limit: number) =>
    (
      await pool.query<Claimed>(
        `update minimal_deliveries d
            set locked_until = now() + interval '${LEASE}', attempts = d.attempts + 1
           from (select id from minimal_deliveries
                  where status = 'pending' and next_attempt_at <= now()
                    and (locked_until is null or locked_until < now())
                  order by next_attempt_at
                  limit $1
                  for update skip locked) due,
                minimal_events e, minimal_endpoints p
          where d.id = due.id and e.id = d.event_id and p.id = d.endpoint_id
        returning d.id, d.attempts, e.body, p.url, e.id as event_id`,
        [limit],
      )
    ).rows;

  const pump = async (): Promise<void> => {
    if (claiming || !running) return;
    claiming = true;
    let full = false;
    try {
      while (running && inFlight < CONCURRENCY) {
        const limit = Math.min(DEFAULT_BATCH_SIZE, CONCURRENCY - inFlight);
        lastClaimAt = performance.now();
        const batch = await claim(limit);
        full = batch.length === limit;
        if (batch.length === 0) break;
        inFlight += batch.length;
        void Promise.all(batch.map(attempt))
          .then((statuses) => record(batch, statuses))
          .catch((error: unknown) => console.error('minimal worker: record failed', error))
          .finally(() => {
            inFlight -= batch.length;
            schedule(0);
          });
        if (!full) break;
      }
    } catch (error) {
      console.error('minimal worker: claim failed', error);
    } finally {
      claiming = false;
    }
    // A short claim: the next one DEFAULT_CLAIM_INTERVAL_MS after it started.
    if (!full) schedule(Math.max(0, lastClaimAt + DEFAULT_CLAIM_INTERVAL_MS - performance.now()));
  };
  const schedule = (ms: number) => {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      void pump();
    }, ms);
  };

  process.on('SIGTERM', () => {
    running = false;
    clearTimeout(timer);
    const exit = () => (inFlight === 0 ? pool.end().then(() => process.exit(0)) : setTimeout(exit, 20));
    void exit();
  });
  await pool.query('select 1');
  console.log('minimal worker ready');
  void pump();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const role = process.argv[2];
  if (role === 'api') await runApi();
  else if (role === 'worker') await runWorker();
  else throw new Error('usage: bench/minimal-pipeline.ts api|worker');
}
