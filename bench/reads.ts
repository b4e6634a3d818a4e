/**
 * The read-route suite of `npm run bench` (`BENCH_SUITES=reads`): load-tests public read routes
 * of the service on PostgreSQL and checks two floors, both at 50 connections with only 2xx
 * answers (targets and tables in bench/reads-report.ts):
 * - issue 2, item 10: the service as it runs by default (its microcache on) against a bare
 *   Fastify route serving the same bytes: req/s ≥ 0.15 × bare req/s, p99 < 50 ms;
 * - issue 17: a second service without the microcache (every request reaches PostgreSQL) against
 *   the same SQL statement sent straight through `pg` (bench/reads-pg.ts): req/s ≥ 0.6 × queries/s.
 * See bench/README.md for the method and how to read the output.
 *
 * Steps:
 *   1. create a fresh database on the local PostgreSQL server (dropped first if it exists);
 *   2. make an Ed25519 key pair, start the service (and the uncached one) as child processes
 *      trusting its public key;
 *   3. seed through the HTTP API with a token signed by that key;
 *   4. capture each target's real response body, start the bare server serving those bodies;
 *      capture each target's SQL statement from its repository function, on a pool of our own;
 *   5. per target: warm up and measure the bare route, the service route, the uncached service
 *      route, then the statement straight through pg;
 *   6. print the tables and the verdict;
 *   7. stop the children, drop the database; 1 if a floor failed.
 *
 * Environment (all optional): BENCH_DURATION (seconds per measurement, 10), BENCH_WARMUP
 * (seconds, 2), BENCH_CONNECTIONS (50; also the callers straight through pg), BENCH_DATABASE_URL
 * (admin URL of the server, postgres://postgres@127.0.0.1:5432/postgres), BENCH_DATABASE_NAME
 * (convene_bench), BENCH_PORT (first port tried for the service; the uncached service and the
 * bare server take the next free ones, 18470), BENCH_TARGETS (comma-separated target keys, e.g.
 * `editions-list`; all when unset), PUBLIC_CACHE_TTL_MS (the first service's microcache, 1000; 0
 * runs one service, uncached, for both floors), BENCH_PROFILE (a directory: the services write a
 * V8 CPU profile there when they exit).
 */
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import type { Database } from '../src/kernel/db/client.ts';
import { pageWindow } from '../src/kernel/http/respond.ts';
import { listTemplatesOfPublishedEdition } from '../src/modules/events/certifications/certifications.repository.ts';
import {
  findPublishedEditionBySlugs,
  listPublishedEditionsOfPublishedEvent,
} from '../src/modules/events/editions/editions.repository.ts';
import { listPublicProgramsOfPublishedEdition } from '../src/modules/events/programs/programs.repository.ts';
import {
  type BareRoute,
  beginSuite,
  callApi,
  cleanUp,
  common,
  freePort,
  log,
  logLoad,
  positiveInteger,
  sleep,
  startBareServer,
  startService,
} from './lib.ts';
import { type CapturedQuery, captureQuery, openServiceDatabase, warmAndMeasureQuery } from './reads-pg.ts';
import {
  type DatabaseRow,
  judge,
  judgeAgainstDatabase,
  type Measurement,
  printBareTable,
  printDatabaseTable,
  type Row,
} from './reads-report.ts';
import { cpuSnapshot, cpuUsed } from './webhooks-observe.ts';

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
  /**
   * The repository call the route's handler makes for that request, with the same arguments: its
   * SQL statement is captured and sent straight through pg as the uncached route's baseline.
   */
  query(db: Database, seed: Seed): Promise<unknown>;
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
    query: (db, s) => findPublishedEditionBySlugs(db, s.eventSlug, s.editions[0]!.slug),
  },
  {
    key: 'editions-list',
    label: 'public editions list',
    path: (s) => `/events/${s.eventId}/editions`,
    query: (db, s) => listPublishedEditionsOfPublishedEvent(db, s.eventId, pageWindow({})),
  },
  {
    key: 'programs-list',
    label: `programs, ${PROGRAM_COUNT} (op 9)`,
    path: (s) => `/editions/${s.editions[0]!.id}/programs?limit=${PROGRAM_COUNT}`,
    query: (db, s) =>
      listPublicProgramsOfPublishedEdition(
        db,
        s.editions[0]!.id,
        undefined,
        pageWindow({ limit: PROGRAM_COUNT }),
      ),
  },
  {
    key: 'certification-templates',
    label: 'certification templates (op 4)',
    path: (s) => `/editions/${s.editions[0]!.id}/certifications/templates`,
    query: (db, s) => listTemplatesOfPublishedEdition(db, s.editions[0]!.id, pageWindow({})),
  },
];

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

/** Settles between runs, so one run's queued requests do not spill into the next one. */
const SETTLE_MS = 1_000;

async function load(
  url: string,
  headers: Record<string, string>,
  durationS: number,
  server: ChildProcess,
): Promise<Measurement> {
  const before = cpuSnapshot(server, [], settings.databaseName);
  const result = await autocannon({ url, headers, connections: settings.connections, duration: durationS });
  const cpu = cpuUsed(before, cpuSnapshot(server, [], settings.databaseName));
  await sleep(SETTLE_MS);
  return {
    rps: result.requests.average,
    cpuMsPerRequest: (cpu.service * 1000) / Math.max(1, result.requests.total),
    cpuPercent: (cpu.service / cpu.elapsed) * 100,
    cpu,
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

// ---------- the run ----------

export async function runReads(): Promise<number> {
  const started = Date.now();
  const targets = selectedTargets();
  let database: Awaited<ReturnType<typeof openServiceDatabase>> | undefined;
  try {
    // 1, 2. database, keys and services
    const {
      databaseUrl: serviceDatabaseUrl,
      signer,
      servicePort,
    } = await beginSuite(
      settings.databaseName,
      `${settings.connections} connections, ${settings.durationS} s per measurement`,
    );
    // The service's default microcache (1 s); PUBLIC_CACHE_TTL_MS=0 npm run bench measures without it.
    const cacheTtlMs = process.env.PUBLIC_CACHE_TTL_MS ?? '1000';
    const service = await startService(serviceDatabaseUrl, servicePort, signer.publicJwks, {
      PUBLIC_CACHE_TTL_MS: cacheTtlMs,
    });
    const serviceBase = `http://127.0.0.1:${servicePort}`;
    log('service ready');
    // Issue 17's floor is about requests that reach PostgreSQL: a second service on the same
    // database without the microcache, unless the first one already runs without it.
    const isCacheOff = Number(cacheTtlMs) <= 0;
    const uncachedPort = isCacheOff ? servicePort : await freePort(servicePort + 1);
    const uncached = isCacheOff
      ? service
      : await startService(serviceDatabaseUrl, uncachedPort, signer.publicJwks, { PUBLIC_CACHE_TTL_MS: '0' });
    const uncachedBase = `http://127.0.0.1:${uncachedPort}`;
    if (!isCacheOff) log(`uncached service (PUBLIC_CACHE_TTL_MS=0) ready on port ${uncachedPort}`);

    // 3. seed
    const token = await signer.token('bench@example.com');
    const seeded = await seed(serviceBase, token);
    log(`seeded 1 published event with ${seeded.editions.length} published editions`);

    // 4. real bodies and the bare server; each target's statement, for pg
    database = await openServiceDatabase(serviceDatabaseUrl);
    const poolSize = database.pool.options.max ?? 10;
    const bareRoutes: BareRoute[] = [];
    const queries = new Map<Target, CapturedQuery>();
    for (const target of targets) {
      const response = await fetch(`${serviceBase}${target.path(seeded)}`, {
        headers: headersOf(target, seeded),
      });
      const body = await response.text();
      if (response.status !== 200) {
        throw new Error(`${target.label}: ${target.path(seeded)} answered ${response.status}: ${body}`);
      }
      bareRoutes.push({ path: `/bare/${target.key}`, body });
      const { db, pool } = database;
      const query = await captureQuery(pool, db, (captureDb) => target.query(captureDb, seeded));
      // The statement must answer what the route answered: one row an item (or the one resource).
      const { data } = JSON.parse(body) as { data: unknown };
      const items = Array.isArray(data) ? data.length : 1;
      if (query.rowCount !== items) {
        throw new Error(
          `${target.label}: ${query.config.name} answers ${query.rowCount} rows, the route ${items}`,
        );
      }
      queries.set(target, query);
      log(
        `captured ${target.label}: ${Buffer.byteLength(body)} bytes; statement ${query.config.name}, ` +
          `${query.rowCount} row(s)`,
      );
    }
    const barePort = await freePort(Math.max(servicePort, uncachedPort) + 1);
    const bare = await startBareServer(bareRoutes, barePort);
    log(`bare server ready on port ${barePort}`);

    // 5. measure, one target at a time: bare, service, uncached service, then straight through pg
    // right after it, so that the two sides of issue 17's ratio see the same machine.
    const rows: Row[] = [];
    const databaseRows: DatabaseRow[] = [];
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
      const row = judge(target.label, bareResult, serviceResult);
      rows.push(row);
      log(
        `${target.label}: bare ${bareResult.rps.toFixed(0)} req/s, service ${serviceResult.rps.toFixed(0)} ` +
          `req/s (ratio ${row.ratio.toFixed(3)}), service p99 ${serviceResult.p99} ms`,
      );

      let uncachedResult = serviceResult;
      if (!isCacheOff) {
        log(`${target.label}: uncached service route`);
        uncachedResult = await warmAndMeasure(`${uncachedBase}${target.path(seeded)}`, headers, uncached);
      }
      const query = queries.get(target)!;
      log(`${target.label}: ${query.config.name} straight through pg (pool of ${poolSize})`);
      const pgResult = await warmAndMeasureQuery(
        database.pool,
        query,
        { callers: settings.connections, warmupS: settings.warmupS, durationS: settings.durationS },
        { service: uncached, databaseName: settings.databaseName },
      );
      const databaseRow = judgeAgainstDatabase(target.label, uncachedResult, pgResult, query.rowCount);
      databaseRows.push(databaseRow);
      log(
        `${target.label}: uncached service ${uncachedResult.rps.toFixed(0)} req/s, pg ` +
          `${pgResult.qps.toFixed(0)} queries/s (ratio ${databaseRow.ratio.toFixed(3)})`,
      );
    }

    // 6. report
    logLoad('after the run');
    printBareTable(rows, settings);
    printDatabaseTable(databaseRows, settings, poolSize);
    const hasFailed = [...rows, ...databaseRows].some((row) => row.failures.length > 0);
    log(`${hasFailed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return hasFailed ? 1 : 0;
  } finally {
    // 7. clean up, whatever happened above (our pool first: the drop would cut it off)
    await database?.close();
    await cleanUp();
  }
}

function headersOf(target: Target, seeded: Seed): Record<string, string> {
  return target.isAuthenticated ? { authorization: `Bearer ${seeded.token}` } : {};
}
