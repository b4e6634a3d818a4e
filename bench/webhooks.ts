/**
 * The webhook pipeline suite of `npm run bench` (`BENCH_SUITES=webhooks`): test-mode intents
 * created at a steady rate for a wallet with one endpoint, each one's `payment.succeeded` event
 * delivered by the service's worker to a subscriber in this process. Targets (issue text):
 * ≥ 1,000 deliveries/s sustained, and p99 latency from the create request to the receipt at the
 * subscriber under 250 ms at 200 intents/s. See bench/README.md for the method and the output.
 *
 * Steps:
 *   1. a fresh database (`<BENCH_DATABASE_NAME>_webhooks`), the service on it as a child process
 *      (production, but TEST_MODE and private targets on: the subscriber is on loopback);
 *   2. the subscriber (node:http in this process: 200 at once, receipt time per intent id);
 *   3. seed through the API: a wallet, a test seller, one endpoint at the subscriber; one intent
 *      captures the real create answer;
 *   4. the baseline: a bare Fastify POST route answering that body, measured with autocannon;
 *   5. phase `latency`: 200 intents/s, warm-up then BENCH_PIPELINE_DURATION s, drain;
 *   6. phase `throughput`: BENCH_PIPELINE_RATE intents/s, the same;
 *   7. the tables and the verdict; stop the children, drop the database; 1 if a target failed.
 *
 * Environment (all optional): BENCH_PIPELINE_DURATION (seconds of each measured window, 15),
 * BENCH_PIPELINE_WARMUP (seconds before it, 3), BENCH_PIPELINE_RATE (intents/s of the throughput
 * phase, 1200), BENCH_PIPELINE_WORKERS (0: the worker inside the service; N: that many
 * `npm run worker` processes), and BENCH_DATABASE_URL, BENCH_DATABASE_NAME, BENCH_PORT,
 * BENCH_PROFILE as for the read routes.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import pg from 'pg';
import { Pool } from 'undici';
import {
  beginSuite,
  builtEntry,
  cleanUp,
  common,
  cpuSeconds,
  freePort,
  log,
  logLoad,
  nonNegativeInteger,
  positiveInteger,
  serverSetting,
  serviceArgs,
  serviceEnv,
  sleep,
  startBareServer,
  startChild,
  startService,
  waitUntilAnswers,
} from './lib.ts';
import {
  type CpuSnapshot,
  cpuSnapshot,
  cpuUsed,
  type SessionSamples,
  sampleSessions,
  scrapeMetrics,
  serviceFigures,
} from './webhooks-observe.ts';
import { fixed, type PhaseResult, report, TARGET } from './webhooks-report.ts';

// ---------- settings ----------

const settings = {
  durationS: positiveInteger('BENCH_PIPELINE_DURATION', 15),
  warmupS: positiveInteger('BENCH_PIPELINE_WARMUP', 3),
  rate: positiveInteger('BENCH_PIPELINE_RATE', 1200),
  /**
   * 0 (default): the delivery worker runs inside the service, as it does by default. N: the
   * service runs with WEBHOOK_WORKER=false and N `npm run worker` processes deliver.
   */
  workers: nonNegativeInteger('BENCH_PIPELINE_WORKERS', 0),
  databaseName: `${common.databaseName}_webhooks`,
};

/** How long, after the last create, every created intent has to arrive at the subscriber. */
const DRAIN_TIMEOUT_MS = 15_000;
/** Connections of the load generator to the service, and requests it lets be in flight at once. */
const CREATE_CONNECTIONS = 64;
const MAX_IN_FLIGHT = 256;
/** A create sent this much after its slot in the schedule counts as late. */
const LATE_MS = 20;
/** The bare POST baseline: autocannon at 50 connections, 1 s warm-up, 5 s measured. */
const BARE = { connections: 50, warmupS: 1, durationS: 5, path: '/bare/intents-create' };

/**
 * Every delivery worker LISTENs on its own connection once started: wait until `count` of them do
 * (the service runs none with WEBHOOK_WORKER=false), so no phase starts before its workers.
 */
export async function waitForListeners(
  count: number,
  processes: ChildProcess[],
  databaseName = settings.databaseName,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  const client = new pg.Client({ connectionString: common.adminUrl });
  await client.connect();
  try {
    while (Date.now() < deadline) {
      const exited = processes.find((child) => child.exitCode !== null);
      if (exited !== undefined) throw new Error(`a child exited with code ${exited.exitCode} while starting`);
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where datname = $1 and query like 'LISTEN %'`,
        [databaseName],
      );
      if ((rows[0]?.n ?? 0) >= count) return;
      await sleep(200);
    }
    throw new Error(`${count} delivery worker(s) did not start listening within 60 s`);
  } finally {
    await client.end();
  }
}

// ---------- 2. the subscriber ----------

export interface Subscriber {
  /** `http://127.0.0.1:<port>`: endpoints add a path. */
  url: string;
  /** performance.now() at the end of each intent's first delivery, by intent id. */
  receipts: Map<string, number>;
  /** Deliveries of an intent already received (a retry after a lost answer, or a bug). */
  duplicates: number;
  close(): Promise<void>;
}

/** How the subscriber answers a request to `path`: 2xx answers count as receipts. */
export type Answering = (path: string) => { delayMs: number; status: number };

const INTENT_ID_KEY = '"intent_id":"';

/**
 * Answers as `answering` says (by default 200 at once) and records when each intent's delivery
 * arrived. It verifies nothing and does not parse the body: the intent id is read at the first
 * `"intent_id":"` of the JSON text (only `data.intent_id` has that key; `metadata` is sent empty),
 * so the subscriber's own cost stays small next to the service's. Also the scale suite's.
 */
export async function startSubscriber(
  answering: Answering = () => ({ delayMs: 0, status: 200 }),
): Promise<Subscriber> {
  const subscriber: Subscriber = {
    url: '',
    receipts: new Map(),
    duplicates: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  // Keep-alive longer than the sender's (4 s), so it is never the server that closes a reused socket.
  const server = createServer({ keepAliveTimeout: 10_000 }, (request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const receivedAt = performance.now();
      const answer = answering(request.url ?? '/');
      const at = body.indexOf(INTENT_ID_KEY);
      if (at >= 0 && answer.status < 300) {
        const id = body.slice(at + INTENT_ID_KEY.length, at + INTENT_ID_KEY.length + 36);
        if (subscriber.receipts.has(id)) subscriber.duplicates++;
        else subscriber.receipts.set(id, receivedAt);
      }
      const send = () => {
        response.writeHead(answer.status, { 'content-length': '0' });
        response.end();
      };
      if (answer.delayMs === 0) send();
      else setTimeout(send, answer.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The scale suite keeps hundreds of attempts in flight at once.
  server.maxConnections = 4096;
  subscriber.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return subscriber;
}

// ---------- 3. seed ----------

interface Seed {
  token: string;
  /** The JSON text of the create request every intent is made with. */
  createBody: string;
  /** The service's answer to one such request, for the bare route. */
  createAnswer: string;
}

async function call(base: string, token: string, path: string, body: unknown): Promise<string> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
  return text;
}

const idOf = (text: string) => (JSON.parse(text) as { data: { id: string } }).data.id;

async function seed(base: string, token: string, subscriberUrl: string): Promise<Seed> {
  const walletId = idOf(await call(base, token, '/wallets', { name: 'Bench wallet' }));
  const sellerId = idOf(
    await call(base, token, '/testmode/sellers', { wallet_id: walletId, provider: 'mercadopago' }),
  );
  await call(base, token, `/wallets/${walletId}/webhooks/endpoints`, { name: 'Bench', url: subscriberUrl });
  const create = {
    wallet_id: walletId,
    seller_id: sellerId,
    amount_cents: 4200,
    currency: 'BRL',
    sandbox: true,
    provider: 'mercadopago',
    status: 'succeeded',
  };
  const createAnswer = await call(base, token, '/testmode/intents/create', create);
  return { token, createBody: JSON.stringify(create), createAnswer };
}

// ---------- 5, 6. one phase ----------
/** What a phase runs against. */
interface Rig {
  databaseUrl: string;
  service: ChildProcess;
  serviceBase: string;
  workers: ChildProcess[];
  subscriber: Subscriber;
  seeded: Seed;
  /** The load generator's connections to the service. */
  pool: Pool;
}
function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/**
 * Creates intents at `rate` per second for `warmupS + durationS` seconds: request i goes out at
 * t0 + i / rate, unless MAX_IN_FLIGHT requests are already out, in which case it goes as soon as
 * one comes back (late, if by more than LATE_MS); requests still due when the schedule ends are
 * not sent (`unsent`). A request's send time is the clock read just before it is handed to the
 * pool, on the same clock as the subscriber's receipts. Then waits for every created intent to
 * arrive (DRAIN_TIMEOUT_MS at most).
 */
async function runPhase(name: string, rate: number, rig: Rig): Promise<PhaseResult> {
  const { pool, seeded, subscriber, service, workers, serviceBase } = rig;
  const total = Math.round(rate * (settings.warmupS + settings.durationS));
  const intervalMs = 1000 / rate;
  const sentAt = new Float64Array(total);
  const ids: Array<string | undefined> = new Array(total);
  const refused = new Map<number, number>();
  let errors = 0;
  let late = 0;
  let maxLagMs = 0;
  let next = 0;
  let inFlight = 0;
  const headers = { authorization: `Bearer ${seeded.token}`, 'content-type': 'application/json' };

  const t0 = performance.now() + 50;
  const windowStart = t0 + settings.warmupS * 1000;
  const windowEnd = windowStart + settings.durationS * 1000;

  // The window's edges: CPU and the service's counters, read while the load runs.
  const benchLoop = monitorEventLoopDelay({ resolution: 10 });
  let cpuBefore: CpuSnapshot | undefined;
  let cpuAfter: CpuSnapshot | undefined;
  let metricsBefore = new Map<string, number>();
  let metricsAfter = new Map<string, number>();
  let sessions: SessionSamples = { samples: 0, counts: new Map(), dueAtEnd: Number.NaN };
  const edges = (async () => {
    await sleep(windowStart - performance.now());
    cpuBefore = cpuSnapshot(service, workers, settings.databaseName);
    metricsBefore = await scrapeMetrics(serviceBase);
    benchLoop.enable();
    const sampler = sampleSessions(rig.databaseUrl, settings.databaseName);
    await sleep(windowEnd - performance.now());
    cpuAfter = cpuSnapshot(service, workers, settings.databaseName);
    benchLoop.disable();
    sessions = await sampler.stop();
    metricsAfter = await scrapeMetrics(serviceBase);
  })();

  await new Promise<void>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const send = (index: number, slot: number) => {
      const now = performance.now();
      const lag = now - slot;
      if (lag > LATE_MS) late++;
      if (lag > maxLagMs) maxLagMs = lag;
      sentAt[index] = now;
      inFlight++;
      pool
        .request({ method: 'POST', path: '/testmode/intents/create', headers, body: seeded.createBody })
        .then(async (response) => {
          const text = await response.body.text();
          if (response.statusCode === 201) ids[index] = idOf(text);
          else refused.set(response.statusCode, (refused.get(response.statusCode) ?? 0) + 1);
        })
        .catch(() => {
          errors++;
        })
        .finally(() => {
          inFlight--;
          pump();
        });
    };
    const pump = () => {
      const now = performance.now();
      // The schedule ends with the window: what could not be sent by then is not sent at all, so a
      // service that cannot keep up shows as `unsent` rather than as a phase that never ends.
      if (now < windowEnd) {
        while (next < total && inFlight < MAX_IN_FLIGHT) {
          const slot = t0 + next * intervalMs;
          if (slot > now) break;
          send(next++, slot);
        }
      }
      if (next >= total || now >= windowEnd) {
        if (inFlight === 0) resolve();
        return;
      }
      // The next slot, unless the cap holds it back (a returning request pumps again). Every slot
      // falls before the window's end, so while the cap does not hold, a timer is always set.
      if (inFlight < MAX_IN_FLIGHT && timer === undefined) {
        timer = setTimeout(
          () => {
            timer = undefined;
            pump();
          },
          Math.max(0, t0 + next * intervalMs - performance.now()),
        );
      }
    };
    pump();
  });
  const unsent = total - next;
  const lastSentAt = sentAt[next - 1] ?? performance.now();
  await edges;

  // Drain: every created intent of the phase should arrive.
  const created = ids.filter((id): id is string => id !== undefined);
  const drainDeadline = performance.now() + DRAIN_TIMEOUT_MS;
  let missing = created.filter((id) => !subscriber.receipts.has(id)).length;
  while (missing > 0 && performance.now() < drainDeadline) {
    await sleep(50);
    missing = created.filter((id) => !subscriber.receipts.has(id)).length;
  }

  // Figures.
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  const latencies: number[] = [];
  let createdInWindow = 0;
  for (let index = 0; index < total; index++) {
    const id = ids[index];
    if (id === undefined) continue;
    const receivedAt = subscriber.receipts.get(id);
    const isInWindow = sentAt[index]! >= windowStart && sentAt[index]! < windowEnd;
    if (isInWindow) createdInWindow++;
    if (receivedAt === undefined) continue;
    first = Math.min(first, receivedAt);
    last = Math.max(last, receivedAt);
    if (isInWindow) latencies.push(receivedAt - sentAt[index]!);
  }
  let receivedInWindow = 0;
  for (const receivedAt of subscriber.receipts.values()) {
    if (receivedAt >= windowStart && receivedAt < windowEnd) receivedInWindow++;
  }
  latencies.sort((a, b) => a - b);
  const received = created.length - missing;
  return {
    name,
    rate,
    created: created.length,
    refused,
    errors,
    createRate: createdInWindow / settings.durationS,
    deliveryRate: receivedInWindow / settings.durationS,
    overallRate: received > 1 ? ((received - 1) * 1000) / (last - first) : Number.NaN,
    received,
    missing,
    latency: {
      p50: percentile(latencies, 0.5),
      p90: percentile(latencies, 0.9),
      p99: percentile(latencies, 0.99),
      max: latencies.at(-1) ?? Number.NaN,
      count: latencies.length,
    },
    late,
    maxLagMs,
    unsent,
    drainS: ((missing > 0 ? performance.now() : last) - lastSentAt) / 1000,
    cpu: cpuUsed(cpuBefore!, cpuAfter!),
    service: serviceFigures(metricsBefore, metricsAfter),
    benchLoopP99Ms: benchLoop.percentile(99) / 1e6,
    sessions,
  };
}

// ---------- 4. the bare POST baseline ----------

async function measureBare(port: number, seeded: Seed, bare: ChildProcess) {
  const options = {
    url: `http://127.0.0.1:${port}${BARE.path}`,
    method: 'POST' as const,
    headers: { authorization: `Bearer ${seeded.token}`, 'content-type': 'application/json' },
    body: seeded.createBody,
    connections: BARE.connections,
  };
  await autocannon({ ...options, duration: BARE.warmupS });
  const cpuBefore = cpuSeconds(bare.pid);
  const result = await autocannon({ ...options, duration: BARE.durationS });
  const cpu = cpuSeconds(bare.pid) - cpuBefore;
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`the bare server failed requests: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  return { rps: result.requests.average, cpuPercent: (cpu / BARE.durationS) * 100 };
}

// ---------- the run ----------

export async function runWebhooks(): Promise<number> {
  const started = Date.now();
  let subscriber: Subscriber | undefined;
  let pool: Pool | undefined;
  try {
    // 1. database and service
    const { databaseUrl, signer, servicePort } = await beginSuite(
      settings.databaseName,
      `synchronous_commit ${await serverSetting('synchronous_commit')}; webhook pipeline: ` +
        `${TARGET.latencyRate} then ${settings.rate} intents/s, ${settings.warmupS} s warm-up + ` +
        `${settings.durationS} s each`,
    );
    const env = {
      TEST_MODE: 'true',
      // The subscriber listens on loopback, which production refuses by default.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // One key for the service and the workers: the endpoint's signing secret is sealed with it.
      SECRETS_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_WORKER: String(settings.workers === 0),
    };
    const service = await startService(databaseUrl, servicePort, signer.publicJwks, env);
    const serviceBase = `http://127.0.0.1:${servicePort}`;
    // An API route's own answer (401 without a token): routing and authentication are up, which
    // `/ready` alone does not show.
    await waitUntilAnswers(service, `${serviceBase}/wallets`, 'service', 401);
    const workers = Array.from({ length: settings.workers }, (_, index) =>
      startChild(
        `worker-${index + 1}`,
        [...serviceArgs(), builtEntry('worker')],
        serviceEnv(databaseUrl, servicePort, signer.publicJwks, env),
      ),
    );
    await waitForListeners(settings.workers === 0 ? 1 : settings.workers, [service, ...workers]);
    log(`service ready${settings.workers === 0 ? '' : ` with ${settings.workers} worker process(es)`}`);

    // 2, 3. subscriber and seed
    subscriber = await startSubscriber();
    const target = `${subscriber.url}/webhooks`;
    const seeded = await seed(serviceBase, await signer.token('bench-webhooks@example.com'), target);
    log(`seeded a wallet, a test seller and one endpoint at ${target}`);

    // 4. the bare POST baseline, before the pipeline loads the machine
    const barePort = await freePort(servicePort + 1);
    const bare = await startBareServer(
      [{ method: 'POST', path: BARE.path, status: 201, body: seeded.createAnswer }],
      barePort,
    );
    log(
      `bare POST route on port ${barePort} (answer ${Buffer.byteLength(seeded.createAnswer)} bytes): ` +
        `${BARE.warmupS} s warm-up + ${BARE.durationS} s`,
    );
    const bareResult = await measureBare(barePort, seeded, bare);
    log(`bare POST: ${fixed(bareResult.rps)} req/s`);

    // 5, 6. the phases
    pool = new Pool(serviceBase, { connections: CREATE_CONNECTIONS, pipelining: 1 });
    const rig: Rig = { databaseUrl, service, serviceBase, workers, subscriber, seeded, pool };
    const phases: PhaseResult[] = [];
    for (const [name, rate] of [
      ['latency', TARGET.latencyRate],
      ['throughput', settings.rate],
    ] as const) {
      log(`${name}: ${rate} intents/s, ${settings.warmupS} s warm-up + ${settings.durationS} s, then drain`);
      const phase = await runPhase(name, rate, rig);
      phases.push(phase);
      log(
        `${name}: ${fixed(phase.createRate)} created/s, ${fixed(phase.deliveryRate)} deliveries/s, ` +
          `p99 ${fixed(phase.latency.p99)} ms, ${phase.missing} missing, drained in ${fixed(phase.drainS, 1)} s`,
      );
      await sleep(1_000);
    }

    // 7. report
    logLoad('after the run');
    const plan = { ...settings, drainTimeoutMs: DRAIN_TIMEOUT_MS, bare: BARE };
    const hasFailed = report(plan, phases, bareResult, subscriber.duplicates);
    log(`webhooks: ${hasFailed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return hasFailed ? 1 : 0;
  } finally {
    await pool?.close().catch(() => {});
    await subscriber?.close().catch(() => {});
    await cleanUp();
  }
}
