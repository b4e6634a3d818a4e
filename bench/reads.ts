/**
 * The read-route suite of `npm run bench` (`BENCH_SUITES=reads`): load-tests public read routes
 * of the service on PostgreSQL against a bare Fastify route serving the same bytes, and checks the floor of issue 2 (item 10): for every
 * target, service req/s ≥ 0.15 × bare req/s and service p99 < 50 ms at 50 connections, with only
 * 2xx answers. See bench/README.md for the method and how to read the output.
 *
 * Steps:
 *   1. create a fresh database on the local PostgreSQL server (dropped first if it exists);
 *   2. make an Ed25519 key pair, start the service as a child process trusting its public key;
 *   3. seed through the HTTP API with a token signed by that key;
 *   4. capture each target's real response body, start the bare server serving those bodies;
 *   5. per target: warm up and measure the bare route, then the service route;
 *   6. print the table and the verdict;
 *   7. stop both children, drop the database; 1 if a floor failed.
 *
 * Environment (all optional): BENCH_DURATION (seconds per measurement, 10), BENCH_WARMUP
 * (seconds, 2), BENCH_CONNECTIONS (50), BENCH_DATABASE_URL (admin URL of the server,
 * postgres://postgres@127.0.0.1:5432/postgres), BENCH_DATABASE_NAME (convene_bench),
 * BENCH_PORT (first port tried for the service; the bare server takes the next free one, 18470),
 * BENCH_TARGETS (comma-separated target keys, e.g. `editions-list`; all when unset).
 * BENCH_PROFILE (a directory: the service writes a V8 CPU profile there when it exits).
 */
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import {
  type BareRoute,
  beginSuite,
  callApi,
  cleanUp,
  common,
  cpuSeconds,
  freePort,
  log,
  logLoad,
  positiveInteger,
  printTable as printRows,
  startBareServer,
  startService,
} from './lib.ts';

// ---------- what is measured ----------

/** What the seed step created; targets build their paths (and later, headers) from it. */
interface Seed {
  token: string;
  eventId: string;
  eventSlug: string;
  editions: Array<{ id: string; slug: string }>;
}

interface Target {
  /** Short id: the bare route is `/bare/<key>`. */
  key: string;
  label: string;
  /** Path (and query) on the service. */
  path(seed: Seed): string;
  /** Send the seed token as a bearer token (for routes that need a caller). Default: anonymous. */
  isAuthenticated?: boolean;
}

const EDITION_COUNT = 20;
/** Programs and certification templates of the first edition. */
const PROGRAM_COUNT = 50;
const TEMPLATE_COUNT = 10;

/** Adding a target is one entry here (plus, if it needs data, a few lines in `seed`). */
const TARGETS: Target[] = [
  {
    key: 'edition-by-slugs',
    label: 'edition by slugs (op 3)',
    path: (s) => `/events/${s.eventSlug}:by-slug/editions/${s.editions[0]!.slug}:by-slug`,
  },
  {
    key: 'editions-list',
    label: 'public editions list',
    path: (s) => `/events/${s.eventId}/editions`,
  },
  {
    key: 'programs-list',
    label: `programs, ${PROGRAM_COUNT} (op 9)`,
    path: (s) => `/editions/${s.editions[0]!.id}/programs?limit=${PROGRAM_COUNT}`,
  },
  {
    key: 'certification-templates',
    label: 'certification templates (op 4)',
    path: (s) => `/editions/${s.editions[0]!.id}/certifications/templates`,
  },
];

/** Issue 2, item 10. */
const FLOOR = { minRatio: 0.15, maxP99Ms: 50 };

// ---------- settings ----------

const settings = {
  durationS: positiveInteger('BENCH_DURATION', 10),
  warmupS: positiveInteger('BENCH_WARMUP', 2),
  connections: positiveInteger('BENCH_CONNECTIONS', 50),
  databaseName: common.databaseName,
  /** Comma-separated target keys to run; all when unset. */
  only: process.env.BENCH_TARGETS?.split(',').map((key) => key.trim()),
};

function selectedTargets(): Target[] {
  if (settings.only === undefined) return TARGETS;
  const unknown = settings.only.filter((key) => !TARGETS.some((target) => target.key === key));
  if (unknown.length > 0) {
    throw new Error(
      `BENCH_TARGETS: unknown ${unknown.join(', ')}; known: ${TARGETS.map((t) => t.key).join(', ')}`,
    );
  }
  return TARGETS.filter((target) => settings.only?.includes(target.key));
}

// ---------- 3. seed ----------

const call = (base: string, method: string, path: string, token: string, body?: unknown) =>
  callApi<{ id: string; slug: string }>(base, method, path, token, body);

async function seed(base: string, token: string): Promise<Seed> {
  const eventSlug = 'bench-conf';
  const event = await call(base, 'POST', '/events', token, {
    name: 'Bench Conf',
    slug: eventSlug,
    description: 'A conference that exists to be read many times per second.',
    contact_email: 'hello@bench-conf.example',
    logo_url: 'https://bench-conf.example/logo.png',
  });
  const eventId = event.data.id;
  await call(base, 'POST', `/events/${eventId}/publish`, token);

  const editions: Seed['editions'] = [];
  const firstStart = Date.parse('2027-01-04T09:00:00.000Z');
  const day = 86_400_000;
  for (let index = 0; index < EDITION_COUNT; index++) {
    // Two weeks apart, three days long: never overlapping.
    const startsAt = firstStart + index * 14 * day;
    const number = String(index + 1).padStart(2, '0');
    const created = await call(base, 'POST', `/events/${eventId}/editions`, token, {
      name: `Bench Conf edition ${number}`,
      slug: `edition-${number}`,
      tagline: 'Three days of talks, workshops and hallway track',
      description:
        'Talks on performance, databases and HTTP services, followed by hands-on workshops. ' +
        'Coffee, lunch and the evening social are included in every ticket.',
      registration_opens_at: new Date(startsAt - 60 * day).toISOString(),
      starts_at: new Date(startsAt).toISOString(),
      ends_at: new Date(startsAt + 3 * day).toISOString(),
      location_name: 'Centro de Congressos de Lisboa',
      location_description: 'Praça das Indústrias, 1300-307 Lisboa; metro Alcântara',
      logo_url: 'https://bench-conf.example/logo.png',
      banner_url: 'https://bench-conf.example/banner.png',
      contact_email: 'hello@bench-conf.example',
    });
    await call(base, 'POST', `/events/${eventId}/editions/${created.data.id}/publish`, token);
    editions.push({ id: created.data.id, slug: created.data.slug });
  }

  // The first edition's schedule: one item an hour from its start, activities and checkpoints.
  const first = editions[0]!;
  for (let index = 0; index < PROGRAM_COUNT; index++) {
    const startsAt = firstStart + index * 3_600_000;
    await call(base, 'POST', `/editions/${first.id}/programs`, token, {
      kind: index % 5 === 4 ? 'checkpoint' : 'activity',
      name: `Session ${index + 1}: performance in practice`,
      description: 'A talk followed by questions from the room.',
      starts_at: new Date(startsAt).toISOString(),
      ends_at: new Date(startsAt + 45 * 60_000).toISOString(),
      location: `Room ${(index % 4) + 1}`,
      min_access_level: index % 3,
      price: 0,
      banner_url: 'https://bench-conf.example/session.png',
    });
  }
  for (let index = 0; index < TEMPLATE_COUNT; index++) {
    await call(base, 'POST', `/editions/${first.id}/certifications/templates`, token, {
      kind: index % 2 === 0 ? 'edition_attendance' : 'program_attendance',
      name: `Certificate ${index + 1}`,
      description: 'Awarded to every attendee who checked in.',
      design_data: {
        width: 842,
        height: 595,
        background: '#ffffff',
        title: { text: 'Certificate', size: 32 },
      },
    });
  }
  return { token, eventId, eventSlug, editions };
}

// ---------- 5. measure ----------

interface Measurement {
  rps: number;
  /** CPU time the measured process spent per request, in ms (Linux only; NaN elsewhere). */
  cpuMsPerRequest: number;
  /** That process's CPU use during the measurement, in % of one core. */
  cpuPercent: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** Settles between runs, so one run's queued requests do not spill into the next one. */
const SETTLE_MS = 1_000;

async function load(
  url: string,
  headers: Record<string, string>,
  durationS: number,
  server: ChildProcess,
): Promise<Measurement> {
  const cpuBefore = cpuSeconds(server.pid);
  const startedAt = performance.now();
  const result = await autocannon({ url, headers, connections: settings.connections, duration: durationS });
  const elapsedS = (performance.now() - startedAt) / 1000;
  const cpuUsed = cpuSeconds(server.pid) - cpuBefore;
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  return {
    rps: result.requests.average,
    cpuMsPerRequest: (cpuUsed * 1000) / Math.max(1, result.requests.total),
    cpuPercent: (cpuUsed / elapsedS) * 100,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

async function warmAndMeasure(
  url: string,
  headers: Record<string, string>,
  server: ChildProcess,
): Promise<Measurement> {
  await load(url, headers, settings.warmupS, server);
  return load(url, headers, settings.durationS, server);
}

// ---------- 6. report ----------

interface Row {
  target: Target;
  bare: Measurement;
  service: Measurement;
  ratio: number;
  failures: string[];
}

function judge(target: Target, bare: Measurement, service: Measurement): Row {
  const ratio = bare.rps === 0 ? 0 : service.rps / bare.rps;
  const failures: string[] = [];
  if (ratio < FLOOR.minRatio) failures.push(`ratio ${ratio.toFixed(3)} < ${FLOOR.minRatio}`);
  if (service.p99 >= FLOOR.maxP99Ms) failures.push(`p99 ${service.p99} ms >= ${FLOOR.maxP99Ms} ms`);
  if (service.non2xx > 0) failures.push(`${service.non2xx} non-2xx answers`);
  if (service.errors > 0) failures.push(`${service.errors} errors (${service.timeouts} timeouts)`);
  if (bare.non2xx > 0 || bare.errors > 0) failures.push('the bare server itself failed requests');
  return { target, bare, service, ratio, failures };
}

function printTable(rows: Row[]): void {
  const header = [
    'target',
    'bare req/s',
    'service req/s',
    'ratio',
    'service p50/p99 ms',
    'bare p50/p99 ms',
    'CPU ms/req svc/bare',
    'svc CPU %',
    'non-2xx/errors',
    'result',
  ];
  const cells = rows.map((row) => [
    row.target.label,
    row.bare.rps.toFixed(0),
    row.service.rps.toFixed(0),
    row.ratio.toFixed(3),
    `${row.service.p50} / ${row.service.p99}`,
    `${row.bare.p50} / ${row.bare.p99}`,
    `${row.service.cpuMsPerRequest.toFixed(3)} / ${row.bare.cpuMsPerRequest.toFixed(3)}`,
    row.service.cpuPercent.toFixed(0),
    `${row.service.non2xx} / ${row.service.errors}`,
    row.failures.length === 0 ? 'PASS' : 'FAIL',
  ]);
  printRows(header, cells);
  process.stdout.write(
    `\nfloor: ratio >= ${FLOOR.minRatio} and service p99 < ${FLOOR.maxP99Ms} ms at ${settings.connections} ` +
      `connections, only 2xx; ${settings.durationS} s per measurement after ${settings.warmupS} s warm-up\n`,
  );
  for (const row of rows) {
    for (const failure of row.failures) process.stdout.write(`FAIL ${row.target.label}: ${failure}\n`);
  }
}

// ---------- the run ----------

export async function runReads(): Promise<number> {
  const started = Date.now();
  const targets = selectedTargets();
  try {
    // 1, 2. database, keys and service
    const {
      databaseUrl: serviceDatabaseUrl,
      signer,
      servicePort,
    } = await beginSuite(
      settings.databaseName,
      `${settings.connections} connections, ${settings.durationS} s per measurement`,
    );
    const service = await startService(serviceDatabaseUrl, servicePort, signer.publicJwks, {
      // The service's default microcache (1 s); PUBLIC_CACHE_TTL_MS=0 npm run bench measures without it.
      PUBLIC_CACHE_TTL_MS: process.env.PUBLIC_CACHE_TTL_MS ?? '1000',
    });
    const serviceBase = `http://127.0.0.1:${servicePort}`;
    log('service ready');

    // 3. seed
    const token = await signer.token('bench@example.com');
    const seeded = await seed(serviceBase, token);
    log(`seeded 1 published event with ${seeded.editions.length} published editions`);

    // 4. real bodies and the bare server
    const bareRoutes: BareRoute[] = [];
    for (const target of targets) {
      const response = await fetch(`${serviceBase}${target.path(seeded)}`, {
        headers: headersOf(target, seeded),
      });
      const body = await response.text();
      if (response.status !== 200) {
        throw new Error(`${target.label}: ${target.path(seeded)} answered ${response.status}: ${body}`);
      }
      bareRoutes.push({ path: `/bare/${target.key}`, body });
      log(`captured ${target.label}: ${Buffer.byteLength(body)} bytes`);
    }
    const barePort = await freePort(servicePort + 1);
    const bare = await startBareServer(bareRoutes, barePort);
    log(`bare server ready on port ${barePort}`);

    // 5. measure, one target at a time, bare first
    const rows: Row[] = [];
    for (const target of targets) {
      const headers = headersOf(target, seeded);
      log(`${target.label}: bare route (${settings.warmupS} s warm-up + ${settings.durationS} s)`);
      const bareResult = await warmAndMeasure(
        `http://127.0.0.1:${barePort}/bare/${target.key}`,
        headers,
        bare,
      );
      log(`${target.label}: service route ${target.path(seeded)}`);
      const serviceResult = await warmAndMeasure(`${serviceBase}${target.path(seeded)}`, headers, service);
      const row = judge(target, bareResult, serviceResult);
      rows.push(row);
      log(
        `${target.label}: bare ${bareResult.rps.toFixed(0)} req/s, service ${serviceResult.rps.toFixed(0)} ` +
          `req/s (ratio ${row.ratio.toFixed(3)}), service p99 ${serviceResult.p99} ms`,
      );
    }

    // 6. report
    logLoad('after the run');
    printTable(rows);
    const hasFailed = rows.some((row) => row.failures.length > 0);
    log(`${hasFailed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return hasFailed ? 1 : 0;
  } finally {
    // 7. clean up, whatever happened above
    await cleanUp();
  }
}

function headersOf(target: Target, seeded: Seed): Record<string, string> {
  return target.isAuthenticated ? { authorization: `Bearer ${seeded.token}` } : {};
}
