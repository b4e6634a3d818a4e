/**
 * The targets, verdicts and tables of the read-route suite (bench/reads.ts): the service against
 * a bare Fastify route serving the same bytes (issue 2, item 10), and the service without its
 * microcache against the same SQL statement straight through `pg` (issue 17).
 */
import { printTable } from './lib.ts';
import type { QueryMeasurement } from './reads-pg.ts';
import type { CpuUsed } from './webhooks-observe.ts';

/** Issue 2, item 10: the service (as it runs by default, microcache on) against a bare route. */
export const FLOOR = { minRatio: 0.15, maxP99Ms: 50 };

/** Issue 17: every request reaching PostgreSQL, against the same statement straight through pg. */
export const DATABASE_FLOOR = { minRatio: 0.6 };

/** One autocannon measurement of a server. */
export interface Measurement {
  rps: number;
  /** CPU time the measured process spent per request, in ms (Linux only; NaN elsewhere). */
  cpuMsPerRequest: number;
  /** That process's CPU use during the measurement, in % of one core. */
  cpuPercent: number;
  /** Everything's CPU during the measurement (`postgres`: this database's backends). */
  cpu: CpuUsed;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** How a table's measurements were taken, for the line under it. */
export interface Timing {
  connections: number;
  durationS: number;
  warmupS: number;
}

const timingText = (timing: Timing) =>
  `${timing.durationS} s per measurement after ${timing.warmupS} s warm-up`;

const failedRequests = (m: Measurement) => `${m.non2xx} / ${m.errors}`;

/** Answers outside 2xx and connection errors fail a target, whatever the speed. */
function requestFailures(service: Measurement): string[] {
  const failures: string[] = [];
  if (service.non2xx > 0) failures.push(`${service.non2xx} non-2xx answers`);
  if (service.errors > 0) failures.push(`${service.errors} errors (${service.timeouts} timeouts)`);
  return failures;
}

function printFailures(rows: Array<{ label: string; failures: string[] }>): void {
  for (const row of rows) {
    for (const failure of row.failures) process.stdout.write(`FAIL ${row.label}: ${failure}\n`);
  }
}

const verdict = (failures: string[]) => (failures.length === 0 ? 'PASS' : 'FAIL');

// ---------- against a bare route ----------

export interface Row {
  label: string;
  bare: Measurement;
  service: Measurement;
  ratio: number;
  failures: string[];
}

export function judge(label: string, bare: Measurement, service: Measurement): Row {
  const ratio = bare.rps === 0 ? 0 : service.rps / bare.rps;
  const failures: string[] = [];
  if (ratio < FLOOR.minRatio) failures.push(`ratio ${ratio.toFixed(3)} < ${FLOOR.minRatio}`);
  if (service.p99 >= FLOOR.maxP99Ms) failures.push(`p99 ${service.p99} ms >= ${FLOOR.maxP99Ms} ms`);
  failures.push(...requestFailures(service));
  if (bare.non2xx > 0 || bare.errors > 0) failures.push('the bare server itself failed requests');
  return { label, bare, service, ratio, failures };
}

export function printBareTable(rows: Row[], timing: Timing): void {
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
    row.label,
    row.bare.rps.toFixed(0),
    row.service.rps.toFixed(0),
    row.ratio.toFixed(3),
    `${row.service.p50} / ${row.service.p99}`,
    `${row.bare.p50} / ${row.bare.p99}`,
    `${row.service.cpuMsPerRequest.toFixed(3)} / ${row.bare.cpuMsPerRequest.toFixed(3)}`,
    row.service.cpuPercent.toFixed(0),
    failedRequests(row.service),
    verdict(row.failures),
  ]);
  printTable(header, cells);
  process.stdout.write(
    `\nfloor: ratio >= ${FLOOR.minRatio} and service p99 < ${FLOOR.maxP99Ms} ms at ${timing.connections} ` +
      `connections, only 2xx; ${timingText(timing)}\n`,
  );
  printFailures(rows);
}

// ---------- uncached, against the same query straight through pg ----------

export interface DatabaseRow {
  label: string;
  /** The service with PUBLIC_CACHE_TTL_MS=0: every request reaches PostgreSQL. */
  service: Measurement;
  pg: QueryMeasurement;
  rowCount: number;
  ratio: number;
  failures: string[];
}

export function judgeAgainstDatabase(
  label: string,
  service: Measurement,
  pg: QueryMeasurement,
  rowCount: number,
): DatabaseRow {
  const ratio = pg.qps === 0 ? 0 : service.rps / pg.qps;
  const failures: string[] = [];
  if (ratio < DATABASE_FLOOR.minRatio)
    failures.push(`ratio ${ratio.toFixed(3)} < ${DATABASE_FLOOR.minRatio}`);
  failures.push(...requestFailures(service));
  if (pg.errors > 0) failures.push(`${pg.errors} queries straight through pg failed`);
  return { label, service, pg, rowCount, ratio, failures };
}

const percentOfCore = (seconds: number, elapsedS: number) => ((seconds / elapsedS) * 100).toFixed(0);

const perRequestMs = (seconds: number, count: number) => ((seconds * 1000) / Math.max(1, count)).toFixed(3);

export function printDatabaseTable(rows: DatabaseRow[], timing: Timing, poolSize: number): void {
  const header = [
    'target (uncached)',
    'service req/s',
    'pg queries/s',
    'ratio',
    'service p50/p99 ms',
    'svc CPU ms/req',
    'PG CPU ms/req svc/pg',
    'client CPU ms/req svc/pg',
    'others CPU % svc/pg',
    'rows',
    'non-2xx/errors/pg errors',
    'result',
  ];
  const cells = rows.map((row) => [
    row.label,
    row.service.rps.toFixed(0),
    row.pg.qps.toFixed(0),
    row.ratio.toFixed(3),
    `${row.service.p50} / ${row.service.p99}`,
    row.service.cpuMsPerRequest.toFixed(3),
    `${perRequestMs(row.service.cpu.postgres, row.service.total)} / ${perRequestMs(row.pg.cpu.postgres, row.pg.total)}`,
    `${perRequestMs(row.service.cpu.bench, row.service.total)} / ${perRequestMs(row.pg.cpu.bench, row.pg.total)}`,
    `${percentOfCore(row.service.cpu.others, row.service.cpu.elapsed)} / ${percentOfCore(row.pg.cpu.others, row.pg.cpu.elapsed)}`,
    String(row.rowCount),
    `${failedRequests(row.service)} / ${row.pg.errors}`,
    verdict(row.failures),
  ]);
  printTable(header, cells);
  process.stdout.write(
    `\nfloor: uncached service req/s >= ${DATABASE_FLOOR.minRatio} x the same statement's queries/s ` +
      `straight through pg (${timing.connections} callers on a pool of ${poolSize}, the service's), ` +
      `service at ${timing.connections} connections, only 2xx; ${timingText(timing)}\n`,
  );
  printFailures(rows);
}
