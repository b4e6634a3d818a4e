/**
 * The read-route suite of `npm run bench` (`BENCH_SUITES=reads`): load-tests public read routes
 * of the service on PostgreSQL and checks two floors, both at 50 connections with only 2xx
 * answers (targets in bench/reads-targets.ts, floors and tables in bench/reads-report.ts):
 * - issue 2, item 10: the service as it runs by default (its microcache on) against a bare
 *   Fastify route serving the same bytes: req/s ≥ 0.15 × bare req/s, p99 < 50 ms;
 * - issue 17: a second service without the microcache (every request reaches PostgreSQL) against
 *   a bare Fastify route running the same SQL statement through `pg` and sending its rows
 *   (bench/reads-bare-pg.ts): req/s ≥ 0.6 × bare + pg req/s. The statement straight through `pg`
 *   with no HTTP at all (bench/reads-pg.ts) is measured too and its ratio printed, not judged.
 * See bench/README.md for the method and how to read the output.
 *
 * Steps:
 *   1. create a fresh database on the local PostgreSQL server (dropped first if it exists);
 *   2. make an Ed25519 key pair, start the service (and the uncached one) as child processes
 *      trusting its public key;
 *   3. seed through the HTTP API with a token signed by that key;
 *   4. capture each target's real response body, start the bare server serving those bodies;
 *      capture each target's SQL statement from its repository function, on a pool of our own;
 *      start the bare + pg server (which captures the same statements in its own process);
 *   5. per target: warm up and measure the bare route, the service route, the bare + pg route,
 *      the uncached service route, then the statement straight through pg;
 *   6. print the tables and the verdict;
 *   7. stop the children, drop the database; 1 if a floor failed.
 *
 * Environment (all optional): BENCH_DURATION (seconds per measurement, 10), BENCH_WARMUP
 * (seconds, 2), BENCH_CONNECTIONS (50; also the callers straight through pg), BENCH_DATABASE_URL
 * (admin URL of the server, postgres://postgres@127.0.0.1:5432/postgres), BENCH_DATABASE_NAME
 * (convene_bench), BENCH_PORT (first port tried for the service; the uncached service, the bare
 * server and the bare + pg server take the next free ones, 18470), BENCH_TARGETS (comma-separated
 * target keys, e.g. `editions-list`; all when unset), PUBLIC_CACHE_TTL_MS (the first service's
 * microcache, 1000; 0 runs one service, uncached, for both floors), BENCH_PROFILE (a directory:
 * the services and the bare + pg server write a V8 CPU profile there when they exit).
 */
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
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
import {
  type CapturedQuery,
  captureQuery,
  openServiceDatabase,
  startBarePgServer,
  warmAndMeasureQuery,
} from './reads-pg.ts';
import {
  type DatabaseRow,
  judge,
  judgeAgainstDatabase,
  type Measurement,
  printBareTable,
  printDatabaseTable,
  type Row,
} from './reads-report.ts';
import { headersOf, PROGRAM_COUNT, type Seed, type Target, targetsOf } from './reads-targets.ts';
import { cpuSnapshot, cpuUsed } from './webhooks-observe.ts';

const EDITION_COUNT = 20;
/** Certification templates of the first edition (its programs: PROGRAM_COUNT). */
const TEMPLATE_COUNT = 10;

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
  try {
    return targetsOf(settings.only);
  } catch (error) {
    throw new Error(`BENCH_TARGETS: ${error instanceof Error ? error.message : String(error)}`);
  }
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
    const barePgPort = await freePort(barePort + 1);
    const barePg = await startBarePgServer(serviceDatabaseUrl, barePgPort, {
      keys: targets.map((target) => target.key),
      seed: seeded,
    });
    const barePgBase = `http://127.0.0.1:${barePgPort}/bare-pg`;
    for (const target of targets) {
      const bytes = (await (await fetch(`${barePgBase}/${target.key}`)).arrayBuffer()).byteLength;
      log(`bare + pg server on port ${barePgPort}: ${target.key} answers ${bytes} bytes`);
    }

    // 5. measure, one target at a time: bare then service (issue 2's ratio), bare + pg then the
    // uncached service (issue 17's), then straight through pg; each pair adjacent in time, so that
    // both sides of a ratio see the same machine. With the cache off, the one service measurement
    // comes right after bare + pg and serves both ratios.
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
      let serviceResult: Measurement | undefined;
      if (!isCacheOff) {
        log(`${target.label}: service route ${target.path(seeded)}`);
        serviceResult = await warmAndMeasure(`${serviceBase}${target.path(seeded)}`, headers, service);
      }
      log(`${target.label}: bare + pg route`);
      const barePgResult = await warmAndMeasure(`${barePgBase}/${target.key}`, headers, barePg);
      log(`${target.label}: uncached service route`);
      const uncachedResult = await warmAndMeasure(`${uncachedBase}${target.path(seeded)}`, headers, uncached);
      serviceResult ??= uncachedResult;
      const row = judge(target.label, bareResult, serviceResult);
      rows.push(row);
      log(
        `${target.label}: bare ${bareResult.rps.toFixed(0)} req/s, service ${serviceResult.rps.toFixed(0)} ` +
          `req/s (ratio ${row.ratio.toFixed(3)}), service p99 ${serviceResult.p99} ms`,
      );

      const query = queries.get(target)!;
      log(`${target.label}: ${query.config.name} straight through pg (pool of ${poolSize}; not judged)`);
      const pgResult = await warmAndMeasureQuery(
        database.pool,
        query,
        { callers: settings.connections, warmupS: settings.warmupS, durationS: settings.durationS },
        { service: uncached, databaseName: settings.databaseName },
      );
      const databaseRow = judgeAgainstDatabase(
        target.label,
        { service: uncachedResult, barePg: barePgResult, pg: pgResult },
        query.rowCount,
      );
      databaseRows.push(databaseRow);
      log(
        `${target.label}: uncached service ${uncachedResult.rps.toFixed(0)} req/s, bare + pg ` +
          `${barePgResult.rps.toFixed(0)} req/s (ratio ${databaseRow.ratio.toFixed(3)}); pg-only ` +
          `${pgResult.qps.toFixed(0)} queries/s (ratio ${databaseRow.pgRatio.toFixed(3)}, not judged)`,
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
