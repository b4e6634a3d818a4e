/**
 * The `scale` suite (issues 17 and 33): webhook delivery when subscribers are fast, slow, fail or
 * are many, with every judged figure a ratio measured in the same run, so that it carries across
 * machines. The service runs with WEBHOOK_WORKER=false and the delivery worker as its own process
 * (`npm run worker`), as a deployment that scales workers would. Convene is judged beside the
 * minimal pipeline of bench/minimal-pipeline.ts (a bare Fastify route inserting through `pg`, a
 * bare worker claiming with SKIP LOCKED and POSTing with undici), run in the same database against
 * the same subscriber, each pipeline's worker running only in its own rounds. Phases, in order:
 *
 * 1. `fast`: subscribers answering at once, 64 concurrent creates as fast as they go, deliveries
 *    received per second, through Convene (8 wallets) and through the minimal pipeline (8 wallets).
 *    Target: Convene ≥ 0.7 × the minimal pipeline. Each of BENCH_SCALE_ROUNDS rounds (4) also runs
 *    the database's own ceiling for Convene's writes, printed and not judged: from this process,
 *    straight through `pg` with the service's own statements (the test-mode create; the worker's
 *    claim and record), 64 creators and two drainers paced as the worker paces its claims. Each
 *    window is a 1 s warm-up and BENCH_SCALE_ROUND s (5); the two pipelines alternate (Convene
 *    first in odd rounds): a shared machine's speed drifts by tens of percent within a minute, and
 *    alternating gives both sides the same drift. Each window logs where the CPU went per delivery
 *    (api or service, worker, PostgreSQL, this process) and the database's transactions per
 *    delivery. A window of each, not counted, comes first. BENCH_SCALE_ONLY=fast stops here.
 * 2. `slow`: every answer after 250 ms, 20 wallets (one endpoint each) per pipeline, intents at
 *    BENCH_SCALE_SLOW_RATE (900/s), BENCH_SCALE_SLOW_ROUNDS (2) of each alternated. Target:
 *    Convene's deliveries/s ≥ 0.9 × the minimal pipeline's, and its p99 intent→receipt < 1 s.
 * 3. `mixed`: 200 intents/s to 8 healthy wallets alone, then to the same 8 beside one endpoint
 *    answering after 5 s and one always 500. Targets: the healthy ones' p99 ≤ 2 × their p99 alone,
 *    received/created ≥ 0.99; the failing endpoint paused, none of its deliveries lost, none
 *    attempted sooner than the retry schedule says.
 * 4. `one worker` / `two workers`: a queue of BENCH_SCALE_DRAIN deliveries to 250 ms subscribers,
 *    made due at once after the workers listen, drained by one worker process, then another queue
 *    by two. Target: two ≥ 1.7 × one, no delivery attempted twice.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Pool } from 'undici';
import { uuidv7 } from '../src/kernel/db/ids.ts';
import { createIntent } from '../src/modules/payments/intents/intents.transitions.ts';
import { DEFAULT_CLAIM_INTERVAL_MS } from '../src/modules/payments/webhooks/delivery/delivery.pacing.ts';
import { openWorkerPool } from '../src/modules/payments/webhooks/delivery/delivery.session.ts';
import { DEFAULT_BATCH_SIZE } from '../src/modules/payments/webhooks/delivery/delivery.worker.ts';
import * as queue from '../src/modules/payments/webhooks/delivery/delivery-queue.repository.ts';
import { createOutbox } from '../src/modules/payments/webhooks/delivery/outbox.ts';
import {
  beginSuite,
  builtEntry,
  callApi,
  cleanUp,
  common,
  freePort,
  log,
  logLoad,
  nonNegativeInteger,
  positiveInteger,
  printTable,
  serviceArgs,
  serviceEnv,
  sleep,
  startChild,
  startService,
  waitUntilAnswers,
} from './lib.ts';
import {
  addMinimalEndpoints,
  createMinimalTables,
  type MinimalPipeline,
  minimalCreateBody,
  startMinimalPipeline,
} from './minimal-pipeline.ts';
import { percentile, runPaced } from './paced.ts';
import { openServiceDatabase } from './reads-pg.ts';
import { type Subscriber, startSubscriber, waitForListeners } from './webhooks.ts';
import { cpuSnapshot, cpuUsed } from './webhooks-observe.ts';
import { fixed } from './webhooks-report.ts';

const settings = {
  databaseName: `${common.databaseName}_scale`,
  warmupS: nonNegativeInteger('BENCH_SCALE_WARMUP', 2),
  durationS: positiveInteger('BENCH_SCALE_DURATION', 10),
  slowRate: positiveInteger('BENCH_SCALE_SLOW_RATE', 900),
  drain: positiveInteger('BENCH_SCALE_DRAIN', 6000),
  rounds: positiveInteger('BENCH_SCALE_ROUNDS', 4),
  /** Rounds of each pipeline in the `slow` phase (BENCH_SCALE_SLOW_ROUNDS), alternated. */
  slowRounds: positiveInteger('BENCH_SCALE_SLOW_ROUNDS', 2),
  roundS: positiveInteger('BENCH_SCALE_ROUND', 5),
  /** `fast`: only the ceiling and the fast pipeline (to study that ratio); anything else: all. */
  only: process.env.BENCH_SCALE_ONLY ?? '',
};
const TARGET = {
  /** Convene's deliveries/s flat out ÷ the minimal pipeline's. */
  fastRatio: 0.7,
  /** With 250 ms subscribers at the asked rate: Convene's deliveries/s ÷ the minimal pipeline's. */
  slowRatio: 0.9,
  slowP99Ms: 1000,
  mixedRate: 200,
  /** The healthy endpoints' p99 beside the bad ones ÷ their p99 alone. */
  mixedP99Factor: 2,
  mixedKept: 0.99,
  twoWorkers: 1.7,
};
/** The warm-up before each window of the ceiling and fast rounds. */
const ROUND_WARMUP_S = 1;
/** Concurrent creates of the closed-loop phases (the webhooks suite's pool size). */
const CREATORS = 64;
const DRAIN_TIMEOUT_MS = 30_000;
/** How each kind of subscriber answers. */
const ANSWERS = {
  ok: { delayMs: 0, status: 200 },
  slow: { delayMs: 250, status: 200 },
  stuck: { delayMs: 5_000, status: 200 },
  down: { delayMs: 0, status: 500 },
} as const;
type Kind = keyof typeof ANSWERS;

// ---------- the subscriber ----------

/** By the first path segment (`/slow/3`: after 250 ms). */
const answering = (path: string) => ANSWERS[path.split('/')[1] as Kind] ?? ANSWERS.ok;

let minimalCount = 0;
/** `n` subscriber addresses answering as `kind`, for endpoints of the minimal pipeline. */
const urls = (subscriber: Subscriber, kind: Kind, n: number) =>
  Array.from({ length: n }, () => `${subscriber.url}/${kind}/minimal-${minimalCount++}`);

// ---------- seeding ----------

interface Target {
  kind: Kind;
  walletId: string;
  sellerId: string;
  endpointId: string;
  /** The create request's JSON text for this wallet. */
  body: string;
}

interface Rig {
  service: ChildProcess;
  base: string;
  token: string;
  ownerId: string;
  subscriber: Subscriber;
  databaseUrl: string;
  /** The environment of the service and of each worker process. */
  env: Record<string, string>;
  workers: ChildProcess[];
}

let walletCount = 0;
/** `n` wallets, each with a test seller and one endpoint at the subscriber's `/kind/…`. */
async function targets(rig: Rig, kind: Kind, n: number): Promise<Target[]> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const index = walletCount++;
      const post = async (path: string, body: unknown) =>
        (await callApi<{ id: string }>(rig.base, 'POST', path, rig.token, body)).data.id;
      const walletId = await post('/wallets', { name: `Scale ${kind} ${index}` });
      const sellerId = await post('/testmode/sellers', { wallet_id: walletId, provider: 'mercadopago' });
      const endpointId = await post(`/wallets/${walletId}/webhooks/endpoints`, {
        name: `${kind} ${index}`,
        url: `${rig.subscriber.url}/${kind}/${index}`,
      });
      const body = JSON.stringify(createBody(walletId, sellerId));
      return { kind, walletId, sellerId, endpointId, body };
    }),
  );
}

const createBody = (walletId: string, sellerId: string) => ({
  wallet_id: walletId,
  seller_id: sellerId,
  amount_cents: 4200,
  currency: 'BRL',
  sandbox: true,
  provider: 'mercadopago' as const,
  status: 'succeeded' as const,
});

const idOf = (text: string) => (JSON.parse(text) as { data: { id: string } }).data.id;

/** Starts `n` worker processes and waits until each LISTENs. */
async function startWorkers(rig: Rig, n: number): Promise<void> {
  for (let index = 0; index < n; index++) {
    rig.workers.push(
      startChild(`worker-${rig.workers.length + 1}`, [...serviceArgs(), builtEntry('worker')], rig.env),
    );
  }
  await waitForListeners(rig.workers.length, rig.workers, settings.databaseName);
}

async function stopWorkers(rig: Rig): Promise<void> {
  await Promise.all(
    rig.workers.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}

/** Waits until every id in `ids` was received (or the drain timeout); returns how many are missing. */
async function drained(subscriber: Subscriber, ids: Iterable<string>): Promise<number> {
  const wanted = [...ids];
  const deadline = performance.now() + DRAIN_TIMEOUT_MS;
  let missing = wanted.filter((id) => !subscriber.receipts.has(id)).length;
  while (missing > 0 && performance.now() < deadline) {
    await sleep(100);
    missing = wanted.filter((id) => !subscriber.receipts.has(id)).length;
  }
  return missing;
}

const receivedBetween = (receipts: Iterable<number>, from: number, to: number) => {
  let n = 0;
  for (const at of receipts) if (at >= from && at < to) n++;
  return n;
};

/**
 * Where a window's CPU went, per delivery: each process's CPU time (from /proc) and this database's
 * committed transactions (each statement of the pipeline commits on its own), read at the window's
 * edges. It explains a ratio; it is no verdict.
 */
function observeWindow(rig: Rig, processes: Processes, startAt: number, endAt: number) {
  const client = new pg.Client({ connectionString: rig.databaseUrl });
  // An instrument, not a requirement: a phase that fails drops the database under this client,
  // and that must not end the process before the phase's own error is reported.
  client.on('error', () => {});
  const commits = async () =>
    (
      await client.query<{ n: string }>(
        'select xact_commit as n from pg_stat_database where datname = current_database()',
      )
    ).rows[0]!.n;
  const edge = (at: number) =>
    sleep(Math.max(0, at - performance.now())).then(async () => ({
      cpu: cpuSnapshot(processes.service, processes.workers(), settings.databaseName),
      commits: Number(await commits()),
    }));
  const read = client
    .connect()
    .then(async () => {
      const first = await edge(startAt);
      const last = await edge(endAt);
      return { first, last };
    })
    .catch(() => undefined)
    .finally(() => client.end().catch(() => {}));
  return {
    /** `name: …` on one line, for `deliveries` over the window. */
    report: async (name: string, deliveries: number) => {
      const edges = await read;
      if (edges === undefined) return log(`${name}: CPU per delivery not measured`);
      const { first, last } = edges;
      const used = cpuUsed(first.cpu, last.cpu);
      const perDelivery = (seconds: number) => fixed((seconds * 1000) / Math.max(1, deliveries), 3);
      log(
        `${name}: CPU ms per delivery: ${processes.serviceName} ${perDelivery(used.service)}, worker ` +
          `${perDelivery(used.workers)}, PostgreSQL ${perDelivery(used.postgres + used.postgresShared)}, ` +
          `bench ${perDelivery(used.bench)}, other ${perDelivery(used.others)}; transactions per delivery ` +
          `${fixed((last.commits - first.commits) / Math.max(1, deliveries), 2)}`,
      );
    },
  };
}

// ---------- 1. the database's ceiling ----------

/**
 * The pipeline's statements straight through pg for a round's warm-up and window: creates as fast
 * as they go, claim+record paced as the worker paces its claims; deliveries recorded per second in
 * the window. The drainers go on until the queue is empty, so the pipeline's round after it starts
 * on an empty queue.
 */
async function ceiling(rig: Rig, ok: Target[], round: string): Promise<number> {
  const handle = await openServiceDatabase(rig.databaseUrl);
  const workerPool = openWorkerPool(handle);
  // No listener: the bench writes intents of no registration. Nothing is woken: the drainers poll.
  const policy = createOutbox([0], undefined, []);
  const windowStart = performance.now() + ROUND_WARMUP_S * 1000;
  const windowEnd = windowStart + settings.roundS * 1000;
  let recorded = 0;
  let created = 0;
  let creating = CREATORS;
  const observed = observeWindow(rig, convene(rig), windowStart, windowEnd);
  try {
    const creator = async (n: number) => {
      try {
        await createUntil(n);
      } finally {
        // Counted down even when a create fails, so the drainers stop once the queue is empty.
        creating--;
      }
    };
    const createUntil = async (n: number) => {
      for (let i = n; performance.now() < windowEnd; i += CREATORS) {
        const target = ok[i % ok.length]!;
        await createIntent(
          handle.db,
          rig.ownerId,
          {
            id: uuidv7(),
            ...createBody(target.walletId, target.sellerId),
            status_detail: null,
            provider_data: {},
            metadata: {},
          },
          'testmode',
          policy,
        );
        created++;
      }
    };
    const drainer = async () => {
      for (;;) {
        const claimStarted = performance.now();
        // Read before the claim: a creator that commits after the claim's snapshot and then
        // counts itself out must not make an empty claim look like the end of the queue.
        const creatorsDone = creating === 0;
        const claimId = uuidv7();
        const claimed = await queue.claimDue(workerPool.db, claimId, 20_000, {
          limit: DEFAULT_BATCH_SIZE,
          endpointCap: 16,
          busy: new Map(),
          held: [],
        });
        if (claimed.length === 0 && creatorsDone) return;
        if (claimed.length > 0) {
          const result = await queue.recordAttempts(
            workerPool.db,
            claimed.map((delivery) => ({
              deliveryId: delivery.id,
              endpointId: delivery.endpoint_id,
              claimId,
              succeeded: true,
              startedAt: new Date(),
              durationMs: 1,
              responseStatus: 200,
              responseBody: '',
              error: null,
              status: 'delivered' as const,
              retryInSeconds: null,
            })),
            { failures: 10, pauseMs: 30_000 },
          );
          const now = performance.now();
          if (now >= windowStart && now < windowEnd) recorded += result.deliveryIds.length;
        }
        // Each drainer paces its claims as a worker process does (a full batch claims on at once):
        // claiming on every turn would claim one or two rows at a time. Two drainers claim up to
        // twice as often as one worker, so under load their batches are the smaller ones.
        const wait = claimStarted + DEFAULT_CLAIM_INTERVAL_MS - performance.now();
        if (claimed.length < DEFAULT_BATCH_SIZE && wait > 0) await sleep(wait);
      }
    };
    await Promise.all([...Array.from({ length: CREATORS }, (_, n) => creator(n)), drainer(), drainer()]);
  } finally {
    await workerPool.close();
    await handle.close();
  }
  const rate = recorded / settings.roundS;
  log(`ceiling ${round}: ${created} intents created, ${fixed(rate)} deliveries recorded/s in the window`);
  await observed.report(`ceiling ${round}`, recorded);
  return rate;
}

// ---------- 2. the fast pipeline ----------

/** The processes whose CPU a window reports: the one answering creates, and the workers. */
interface Processes {
  serviceName: string;
  service: ChildProcess;
  workers: () => ChildProcess[];
}

/** Where a pipeline takes its creates: Convene's test-mode route, or the minimal pipeline's. */
interface Pipeline extends Processes {
  name: string;
  origin: string;
  path: string;
  headers: Record<string, string>;
}

const convene = (rig: Rig): Pipeline => ({
  name: 'Convene',
  serviceName: 'service',
  service: rig.service,
  workers: () => rig.workers,
  origin: rig.base,
  path: '/testmode/intents/create',
  headers: { authorization: `Bearer ${rig.token}` },
});

const minimal = (pipeline: MinimalPipeline): Pipeline => ({
  name: 'minimal',
  serviceName: 'api',
  service: pipeline.api,
  workers: () => [pipeline.worker],
  origin: pipeline.base,
  path: '/intents',
  headers: {},
});

/**
 * 64 concurrent creates through `pipeline` for a round's warm-up and window, round robin over
 * `bodies`; deliveries received per second in the window.
 */
async function fast(rig: Rig, pipeline: Pipeline, bodies: string[], round: string): Promise<number> {
  const pool = new Pool(pipeline.origin, { connections: CREATORS, pipelining: 1 });
  const headers = { ...pipeline.headers, 'content-type': 'application/json' };
  const windowStart = performance.now() + ROUND_WARMUP_S * 1000;
  const windowEnd = windowStart + settings.roundS * 1000;
  const ids: string[] = [];
  const observed = observeWindow(rig, pipeline, windowStart, windowEnd);
  const creator = async (n: number) => {
    for (let i = n; performance.now() < windowEnd; i += CREATORS) {
      const response = await pool.request({
        method: 'POST',
        path: pipeline.path,
        headers,
        body: bodies[i % bodies.length]!,
      });
      const text = await response.body.text();
      if (response.statusCode === 201) ids.push(idOf(text));
    }
  };
  await Promise.all(Array.from({ length: CREATORS }, (_, n) => creator(n)));
  await pool.close();
  const missing = await drained(rig.subscriber, ids);
  if (missing > 0) throw new Error(`fast (${pipeline.name}): ${missing} intents never arrived`);
  const received = receivedBetween(
    ids.map((id) => rig.subscriber.receipts.get(id)!),
    windowStart,
    windowEnd,
  );
  const rate = received / settings.roundS;
  log(`fast ${pipeline.name} ${round}: ${ids.length} intents, ${fixed(rate)} deliveries/s in the window`);
  await observed.report(`fast ${pipeline.name} ${round}`, received);
  return rate;
}

// ---------- 3, 4. paced phases ----------

interface PacedPhase {
  /** Deliveries received in the window, per second, of the `judged` wallets' intents. */
  deliveryRate: number;
  /** Of the judged intents created in the window, the share received in it or the drain. */
  kept: number;
  p99: number;
  p50: number;
  created: number;
  missing: number;
  errors: number;
}

/**
 * Intents at `rate` per second, round robin over `all`, for warm-up + window; latency of the
 * intents of `judged` wallets from when their create was due to their receipt.
 */
async function paced(
  rig: Rig,
  pipeline: Pipeline,
  all: Array<Pick<Target, 'kind' | 'body'>>,
  judged: Set<Kind>,
  rate: number,
): Promise<PacedPhase> {
  const count = Math.round(rate * (settings.warmupS + settings.durationS));
  const bodies = Array.from({ length: count }, (_, i) => all[i % all.length]!.body);
  const due: Array<{ id: string; dueAt: number; judged: boolean }> = [];
  let firstDue = Number.NaN;
  const result = await runPaced({
    origin: pipeline.origin,
    path: pipeline.path,
    headers: pipeline.headers,
    bodies,
    rate,
    onAnswer: (index, dueAt, status, text) => {
      if (index === 0) firstDue = dueAt;
      if (status === 201)
        due.push({ id: idOf(text), dueAt, judged: judged.has(all[index % all.length]!.kind) });
    },
  });
  const windowStart = firstDue + settings.warmupS * 1000;
  const windowEnd = windowStart + settings.durationS * 1000;
  const mine = due.filter((d) => d.judged);
  const missing = await drained(
    rig.subscriber,
    mine.map((d) => d.id),
  );
  const inWindow = mine.filter((d) => d.dueAt >= windowStart && d.dueAt < windowEnd);
  const latencies = inWindow
    .map((d) => (rig.subscriber.receipts.get(d.id) ?? Number.POSITIVE_INFINITY) - d.dueAt)
    .sort((a, b) => a - b);
  const received = receivedBetween(
    mine.map((d) => rig.subscriber.receipts.get(d.id) ?? -1),
    windowStart,
    windowEnd,
  );
  return {
    deliveryRate: received / settings.durationS,
    kept: inWindow.filter((d) => rig.subscriber.receipts.has(d.id)).length / Math.max(1, inWindow.length),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    created: due.length,
    missing,
    errors: result.errors + (result.sent - due.length),
  };
}

/** Rounds of a paced phase as one: the rates' and percentiles' means, the misses and errors summed. */
function summarise(phases: PacedPhase[]): PacedPhase {
  const mean = (pick: (phase: PacedPhase) => number) =>
    phases.reduce((sum, phase) => sum + pick(phase), 0) / phases.length;
  const sum = (pick: (phase: PacedPhase) => number) =>
    phases.reduce((total, phase) => total + pick(phase), 0);
  return {
    deliveryRate: mean((phase) => phase.deliveryRate),
    kept: mean((phase) => phase.kept),
    p50: mean((phase) => phase.p50),
    p99: mean((phase) => phase.p99),
    created: sum((phase) => phase.created),
    missing: sum((phase) => phase.missing),
    errors: sum((phase) => phase.errors),
  };
}

/**
 * The failing endpoint after the mixed phase: paused by its breaker, every intent sent to it has its
 * delivery, none delivered, and no delivery attempted sooner than the retry schedule allows.
 */
async function failingEndpoint(rig: Rig, down: Target, schedule: number[]) {
  const health = (
    await callApi<{ health: { state: string; consecutive_failures: number } }>(
      rig.base,
      'GET',
      `/webhooks/endpoints/${down.endpointId}`,
      rig.token,
    )
  ).data.health;
  const client = new pg.Client({ connectionString: rig.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{
      intents: number;
      deliveries: number;
      delivered: number;
      early: number;
    }>(
      `with gaps as (
         select a.delivery_id, a.attempt,
                extract(epoch from a.started_at - lag(a.started_at) over (partition by a.delivery_id
                                                                         order by a.attempt)) as gap
         from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
         where d.endpoint_id = $1)
       select (select count(*)::int from intents where wallet_id = $2) as intents,
              (select count(*)::int from webhook_deliveries where endpoint_id = $1) as deliveries,
              (select count(*)::int from webhook_deliveries where endpoint_id = $1 and status = 'delivered')
                as delivered,
              (select count(*)::int from gaps where gap is not null and gap < 0.9 * ($3::float8[])[attempt - 1])
                as early`,
      [down.endpointId, down.walletId, schedule],
    );
    return { health, ...rows[0]! };
  } finally {
    await client.end();
  }
}

// ---------- 5. one worker, then two ----------

/** Queues `settings.drain` deliveries with no worker running, then drains them with `n` workers. */
async function drainWith(rig: Rig, n: number, slow: Target[]): Promise<{ rate: number; attempts: number }> {
  const bodies = Array.from({ length: settings.drain }, (_, i) => slow[i % slow.length]!.body);
  const ids: string[] = [];
  await runPaced({
    origin: rig.base,
    path: '/testmode/intents/create',
    headers: { authorization: `Bearer ${rig.token}` },
    bodies,
    rate: 1_500,
    onAnswer: (_index, _dueAt, status, text) => {
      if (status === 201) ids.push(idOf(text));
    },
  });
  const client = new pg.Client({ connectionString: rig.databaseUrl });
  await client.connect();
  try {
    const endpoints = slow.map((target) => target.endpointId);
    // Not due until every worker listens, so all start on the same queue.
    await client.query(
      `update webhook_deliveries set next_attempt_at = now() + interval '1 hour'
       where endpoint_id = any($1::uuid[]) and status = 'pending'`,
      [endpoints],
    );
    await startWorkers(rig, n);
    await client.query(
      `update webhook_deliveries set next_attempt_at = now()
       where endpoint_id = any($1::uuid[]) and status = 'pending'`,
      [endpoints],
    );
    await client.query(`select pg_notify('convene_webhook_deliveries', '')`);
    const start = performance.now();
    const missing = await drained(rig.subscriber, ids);
    if (missing > 0) throw new Error(`${n} worker(s): ${missing} deliveries never arrived`);
    const last = Math.max(...ids.map((id) => rig.subscriber.receipts.get(id)!));
    // Received is not yet recorded: wait for the answers (250 ms) to be recorded before counting.
    let rows: Array<{ delivered: number; attempts: number }> = [];
    const deadline = performance.now() + DRAIN_TIMEOUT_MS;
    do {
      await sleep(200);
      ({ rows } = await client.query<{ delivered: number; attempts: number }>(
        `select count(*) filter (where status = 'delivered')::int as delivered,
                coalesce(sum(attempts), 0)::int as attempts
         from webhook_deliveries where endpoint_id = any($1::uuid[])`,
        [endpoints],
      ));
    } while (rows[0]!.delivered < ids.length && performance.now() < deadline);
    await stopWorkers(rig);
    return { rate: ids.length / ((last - start) / 1000), attempts: rows[0]!.attempts - ids.length };
  } finally {
    await client.end();
  }
}

// ---------- the run ----------

const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const TABLE_HEADER = ['check', 'measured', 'figure', 'target', 'result'];

export async function runScale(): Promise<number> {
  const started = Date.now();
  let subscriber: Subscriber | undefined;
  try {
    const { databaseUrl, signer, servicePort } = await beginSuite(
      settings.databaseName,
      `webhook delivery at scale: ${settings.warmupS} s warm-up + ${settings.durationS} s windows`,
    );
    const env = {
      TEST_MODE: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      SECRETS_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_WORKER: 'false',
    };
    const service = await startService(databaseUrl, servicePort, signer.publicJwks, env);
    const base = `http://127.0.0.1:${servicePort}`;
    await waitUntilAnswers(service, `${base}/wallets`, 'service', 401);
    subscriber = await startSubscriber(answering);
    const token = await signer.token('bench-scale@example.com');
    const rig: Rig = {
      service,
      base,
      token,
      ownerId: '',
      subscriber,
      databaseUrl,
      env: serviceEnv(databaseUrl, servicePort, signer.publicJwks, env),
      workers: [],
    };
    const ok = await targets(rig, 'ok', 8);
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    rig.ownerId = (
      await admin.query<{ owner_id: string }>('select owner_id from wallets where id = $1', [ok[0]!.walletId])
    ).rows[0]!.owner_id;
    await admin.end();

    // The minimal pipeline (bench/minimal-pipeline.ts): its tables in this database, its endpoints at
    // the same subscriber, its api and worker as processes of their own.
    const tables = new pg.Client({ connectionString: databaseUrl });
    await tables.connect();
    await createMinimalTables(tables);
    const minimalOk = (await addMinimalEndpoints(tables, urls(subscriber, 'ok', 8))).map(minimalCreateBody);
    const minimalSlow = (await addMinimalEndpoints(tables, urls(subscriber, 'slow', 20))).map((wallet) => ({
      kind: 'slow' as const,
      body: minimalCreateBody(wallet),
    }));
    await tables.end();
    const bare = await startMinimalPipeline(databaseUrl, await freePort(servicePort + 1));
    await bare.stopWorker();
    const pipelines = { convene: convene(rig), minimal: minimal(bare) };
    const okBodies = ok.map((target) => target.body);
    /** Runs `measure` with that pipeline's worker(s) running, and only those. */
    const withWorker = async <T>(which: 'convene' | 'minimal', measure: () => Promise<T>): Promise<T> => {
      if (which === 'convene') await startWorkers(rig, 1);
      else await bare.startWorker();
      try {
        return await measure();
      } finally {
        if (which === 'convene') await stopWorkers(rig);
        else await bare.stopWorker();
      }
    };
    const fastOf = (which: 'convene' | 'minimal', round: string) =>
      withWorker(which, () => fast(rig, pipelines[which], which === 'convene' ? okBodies : minimalOk, round));

    log(
      `fast, in ${settings.rounds} rounds of ${settings.roundS} s each: the pipeline’s statements straight ` +
        'through pg (the ceiling, printed), then 64 concurrent creates through Convene (the service and one ' +
        'worker process) and through the minimal pipeline, alternated',
    );
    // One round of each first, not counted: the code of each process is compiled under load (a
    // first pipeline round measured about a quarter lower than the next ones).
    await ceiling(rig, ok, 'warm-up');
    await fastOf('convene', 'warm-up');
    await fastOf('minimal', 'warm-up');
    let ceilingRate = 0;
    let fastRate = 0;
    let minimalFastRate = 0;
    for (let n = 1; n <= settings.rounds; n++) {
      const round = `${n}/${settings.rounds}`;
      ceilingRate += (await ceiling(rig, ok, round)) / settings.rounds;
      // Alternated: Convene first in odd rounds, the minimal pipeline first in even ones.
      for (const which of n % 2 === 1
        ? (['convene', 'minimal'] as const)
        : (['minimal', 'convene'] as const)) {
        const rate = (await fastOf(which, round)) / settings.rounds;
        if (which === 'convene') fastRate += rate;
        else minimalFastRate += rate;
      }
    }
    log(
      `fast: database ceiling ${fixed(ceilingRate)} deliveries/s (printed, not judged): Convene ` +
        `${fixed(fastRate / ceilingRate, 2)} of it, the minimal pipeline ${fixed(minimalFastRate / ceilingRate, 2)}`,
    );
    const fastRow = [
      'fast: Convene ÷ minimal',
      `${fixed(fastRate)} ÷ ${fixed(minimalFastRate)} deliveries/s`,
      fixed(fastRate / minimalFastRate, 2),
      `≥ ${TARGET.fastRatio}`,
      verdict(fastRate / minimalFastRate >= TARGET.fastRatio),
    ];
    if (settings.only === 'fast') {
      printTable(TABLE_HEADER, [fastRow]);
      return fastRow.at(-1) === 'FAIL' ? 1 : 0;
    }

    log(
      `slow: ${settings.slowRate} intents/s to 20 endpoints answering after 250 ms, Convene and the minimal ` +
        `pipeline alternated in ${settings.slowRounds} rounds each`,
    );
    const slowTargets = await targets(rig, 'slow', 20);
    const slowRounds: Record<'convene' | 'minimal', PacedPhase[]> = { convene: [], minimal: [] };
    for (let n = 1; n <= settings.slowRounds; n++) {
      for (const which of n % 2 === 1
        ? (['convene', 'minimal'] as const)
        : (['minimal', 'convene'] as const)) {
        const phase = await withWorker(which, () =>
          paced(
            rig,
            pipelines[which],
            which === 'convene' ? slowTargets : minimalSlow,
            new Set(['slow']),
            settings.slowRate,
          ),
        );
        log(
          `slow ${which} ${n}/${settings.slowRounds}: ${fixed(phase.deliveryRate)} deliveries/s, ` +
            `p50 ${fixed(phase.p50)} ms, p99 ${fixed(phase.p99)} ms, ${phase.missing} missing, ${phase.errors} errors`,
        );
        slowRounds[which].push(phase);
      }
    }
    const slow = summarise(slowRounds.convene);
    const minimalSlowPhase = summarise(slowRounds.minimal);

    await startWorkers(rig, 1);
    log(
      `mixed: ${TARGET.mixedRate} intents/s to 8 healthy wallets alone, then beside one slow (5 s) and one failing (500)`,
    );
    const healthy = await targets(rig, 'ok', 8);
    const [stuck] = await targets(rig, 'stuck', 1);
    const [down] = await targets(rig, 'down', 1);
    // Healthy alone first: once the failing endpoint has deliveries, their retries would follow.
    const alone = await paced(rig, pipelines.convene, healthy, new Set(['ok']), TARGET.mixedRate);
    log(`mixed: the healthy endpoints alone: p50 ${fixed(alone.p50)} ms, p99 ${fixed(alone.p99)} ms`);
    const mixed = await paced(
      rig,
      pipelines.convene,
      [...healthy, stuck!, down!],
      new Set(['ok']),
      TARGET.mixedRate,
    );
    const failing = await failingEndpoint(
      rig,
      down!,
      [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400],
    );
    const stuckHealth = (
      await callApi<{ health: Record<string, unknown> }>(
        rig.base,
        'GET',
        `/webhooks/endpoints/${stuck!.endpointId}`,
        token,
      )
    ).data.health;
    log(`mixed: the 5 s endpoint's health: ${JSON.stringify(stuckHealth)}`);
    await stopWorkers(rig);

    log(`one worker, then two: ${settings.drain} queued deliveries to 250 ms subscribers each`);
    const one = await drainWith(rig, 1, await targets(rig, 'slow', 20));
    const two = await drainWith(rig, 2, await targets(rig, 'slow', 20));
    logLoad('after the run');

    const rows: string[][] = [
      fastRow,
      [
        'slow (250 ms): Convene ÷ minimal',
        `${fixed(slow.deliveryRate)} ÷ ${fixed(minimalSlowPhase.deliveryRate)} deliveries/s`,
        `${fixed(slow.deliveryRate / minimalSlowPhase.deliveryRate, 2)}; p99 ${fixed(slow.p99)} ms`,
        `≥ ${TARGET.slowRatio}, p99 < ${TARGET.slowP99Ms} ms`,
        verdict(
          slow.deliveryRate >= TARGET.slowRatio * minimalSlowPhase.deliveryRate &&
            slow.p99 < TARGET.slowP99Ms &&
            slow.missing === 0 &&
            slow.errors === 0,
        ),
      ],
      [
        'mixed: healthy endpoints',
        `${fixed(mixed.deliveryRate)} deliveries/s, kept ${fixed(mixed.kept, 3)}`,
        `p99 ${fixed(mixed.p99)} ms (alone ${fixed(alone.p99)} ms)`,
        `p99 ≤ ${TARGET.mixedP99Factor} × alone, kept ≥ ${TARGET.mixedKept}`,
        verdict(
          mixed.p99 <= TARGET.mixedP99Factor * alone.p99 &&
            mixed.kept >= TARGET.mixedKept &&
            mixed.missing === 0 &&
            mixed.errors === 0,
        ),
      ],
      [
        'mixed: failing endpoint',
        `${failing.health.state}, ${failing.deliveries}/${failing.intents} deliveries kept`,
        `${failing.early} early attempts`,
        'paused, none lost, none early',
        verdict(
          ['paused', 'probing'].includes(failing.health.state) &&
            failing.deliveries === failing.intents &&
            failing.delivered === 0 &&
            failing.early === 0,
        ),
      ],
      [
        'two workers ÷ one',
        `${fixed(two.rate)} ÷ ${fixed(one.rate)} deliveries/s`,
        fixed(two.rate / one.rate, 2),
        `≥ ${TARGET.twoWorkers}, 0 double attempts`,
        verdict(two.rate / one.rate >= TARGET.twoWorkers && one.attempts + two.attempts === 0),
      ],
    ];
    printTable(TABLE_HEADER, rows);
    log(
      `duplicates received: ${subscriber.duplicates}; extra attempts: one worker ${one.attempts}, two ${two.attempts}`,
    );
    const hasFailed = rows.some((row) => row.at(-1) === 'FAIL') || subscriber.duplicates > 0;
    log(`scale: ${hasFailed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return hasFailed ? 1 : 0;
  } finally {
    await subscriber?.close().catch(() => {});
    await cleanUp();
  }
}
