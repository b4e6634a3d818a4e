/**
 * The database baseline of the `reads` suite (issue 17): each target's own SQL statement sent
 * straight through `pg`, with no HTTP, Fastify, service code or Drizzle on top. The service's
 * uncached req/s is judged as a ratio to these queries/s, measured in the same run.
 *
 * The statement is not written again here: `captureQuery` runs the route's own repository
 * function once on a database opened by the service's own `openDatabase` (a pool of the same
 * class, size and settings as the service's, but ours) and records what reaches `pg.Pool.query`:
 * the query config Drizzle built (statement name, SQL text, `rowMode: 'array'`, its type parsers)
 * and the parameters. `loadQuery` then sends exactly that through that pool from `callers`
 * concurrent callers, each starting its next query once the last one's rows have all arrived and
 * been parsed, as a handler awaits them. `startBarePgServer` starts the same statements behind bare
 * Fastify routes (bench/reads-bare-pg.ts), the judged baseline: the same query with HTTP on top.
 */
import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import type pg from 'pg';
import { type Database, type DatabaseHandle, openDatabase } from '../src/kernel/db/client.ts';
import { baseEnv, serviceArgs, startChild, waitUntilAnswers } from './lib.ts';
import type { Seed } from './reads-targets.ts';
import { type CpuUsed, cpuSnapshot, cpuUsed } from './webhooks-observe.ts';

/** What the service's driver is handed for one request of a target. */
export interface CapturedQuery {
  config: pg.QueryArrayConfig;
  values: unknown[];
  /** Rows it answers on the seeded data; every query of the measurement must answer as many. */
  rowCount: number;
}

export interface QueryMeasurement {
  qps: number;
  total: number;
  /** Failed queries, and queries that answered another number of rows than the captured one. */
  errors: number;
  /** CPU used during the measurement: `bench` is the pg client (this process), `postgres` the server. */
  cpu: CpuUsed;
}

/** A database on `url` exactly as the service opens it (src/kernel/db/client.ts). */
export async function openServiceDatabase(url: string): Promise<DatabaseHandle & { pool: pg.Pool }> {
  const handle = await openDatabase({ url, dataDir: tmpdir() });
  if (handle.pool === undefined) throw new Error(`${url} did not open a PostgreSQL pool`);
  return { ...handle, pool: handle.pool };
}

/**
 * The one query `run` (a repository function of the service) sends through `pool`, captured at
 * `pool.query`, then run once more as captured to count its rows.
 */
export async function captureQuery(
  pool: pg.Pool,
  db: Database,
  run: (db: Database) => Promise<unknown>,
): Promise<CapturedQuery> {
  const sent: Array<{ config: pg.QueryArrayConfig; values: unknown[] }> = [];
  const query = pool.query;
  // An own property shadowing the prototype's method for the one call; deleted after.
  pool.query = ((config: pg.QueryArrayConfig, values: unknown[]) => {
    sent.push({ config, values });
    return Reflect.apply(query, pool, [config, values]);
  }) as typeof pool.query;
  try {
    await run(db);
  } finally {
    delete (pool as { query?: unknown }).query;
  }
  const [first] = sent;
  if (sent.length !== 1 || first === undefined || first.config.name === undefined) {
    throw new Error(`expected one named prepared statement, saw ${sent.length} queries`);
  }
  const { rows } = await pool.query(first.config, first.values);
  return { ...first, rowCount: rows.length };
}

/** `callers` concurrent callers send `query` through `pool` for `durationS` seconds. */
export async function loadQuery(
  pool: pg.Pool,
  query: CapturedQuery,
  callers: number,
  durationS: number,
  cpuOf: { service: ChildProcess; databaseName: string },
): Promise<QueryMeasurement> {
  let total = 0;
  let errors = 0;
  const before = cpuSnapshot(cpuOf.service, [], cpuOf.databaseName);
  const deadline = performance.now() + durationS * 1000;
  const caller = async () => {
    while (performance.now() < deadline) {
      try {
        const { rows } = await pool.query(query.config, query.values);
        if (rows.length === query.rowCount) total++;
        else errors++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: callers }, caller));
  const cpu = cpuUsed(before, cpuSnapshot(cpuOf.service, [], cpuOf.databaseName));
  return { qps: total / cpu.elapsed, total, errors, cpu };
}

/** A warm-up of `warmupS` (not counted), then the measurement. */
export async function warmAndMeasureQuery(
  pool: pg.Pool,
  query: CapturedQuery,
  timing: { callers: number; warmupS: number; durationS: number },
  cpuOf: { service: ChildProcess; databaseName: string },
): Promise<QueryMeasurement> {
  await loadQuery(pool, query, timing.callers, timing.warmupS, cpuOf);
  return loadQuery(pool, query, timing.callers, timing.durationS, cpuOf);
}

/**
 * Starts bench/reads-bare-pg.ts on `port`: `GET /bare-pg/<key>` runs the statement of each target
 * of `keys` (captured there from the same repository call, with `seed`) on `databaseUrl` and sends
 * its rows. Resolves once it answers. It gets the service's node flags (heap cap, BENCH_PROFILE's),
 * so the two sides of the ratio run on the same runtime settings and can be profiled alike.
 */
export async function startBarePgServer(
  databaseUrl: string,
  port: number,
  setup: { keys: string[]; seed: Seed },
): Promise<ChildProcess> {
  const child = startChild(
    'bare-pg',
    [...serviceArgs(), 'bench/reads-bare-pg.ts', String(port), databaseUrl, JSON.stringify(setup)],
    { ...baseEnv(), NODE_ENV: 'production' },
  );
  await waitUntilAnswers(child, `http://127.0.0.1:${port}/__ready`, 'bare + pg server');
  return child;
}
