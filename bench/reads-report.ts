/**
 * The targets, verdicts and tables of the read-route suite (bench/reads.ts): the service against
 * a bare Fastify route serving the same bytes (issue 2, item 10), and the service without its
 * microcache against a bare Fastify route running the same SQL statement through `pg` (issue 17;
 * the statement straight through `pg` with no HTTP is printed beside it, not judged).
 */
import { printTable } from './lib.ts';
import type { QueryMeasurement } from './reads-pg.ts';
import type { CpuUsed } from './webhooks-observe.ts';

/** Issue 2, item 10: the service (as it runs by default, microcache on) against a bare route. */
export const FLOOR = { minRatio: 0.15, maxP99Ms: 50 };

/** Issue 17: every request reaching PostgreSQL, against the same statement behind a bare route. */
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

// ---------- uncached, against the same query behind a bare route ----------

export interface DatabaseRow {
  label: string;
  /** The service with PUBLIC_CACHE_TTL_MS=0: every request reaches PostgreSQL. */
  service: Measurement;
  /** The bare + pg route (bench/reads-bare-pg.ts): the same statement, its rows sent as JSON. */
  barePg: Measurement;
  /** The same statement straight through pg, no HTTP at all: informational. */
  pg: QueryMeasurement;
  rowCount: number;
  /** service ÷ bare + pg: the judged ratio. */
  ratio: number;
  /** service ÷ pg-only: printed, not judged. */
  pgRatio: number;
  failures: string[];
}

export function judgeAgainstDatabase(
  label: string,
  measured: { service: Measurement; barePg: Measurement; pg: QueryMeasurement },
  rowCount: number,
): DatabaseRow {
  const { service, barePg, pg } = measured;
  const ratio = barePg.rps === 0 ? 0 : service.rps / barePg.rps;
  const failures: string[] = [];
  if (ratio < DATABASE_FLOOR.minRatio)
    failures.push(`ratio ${ratio.toFixed(3)} < ${DATABASE_FLOOR.minRatio}`);
  failures.push(...requestFailures(service));
  if (barePg.non2xx > 0 || barePg.errors > 0) failures.push('the bare + pg server itself failed requests');
  if (pg.errors > 0) failures.push(`${pg.errors} queries straight through pg failed`);
  return {
    label,
    service,
    barePg,
    pg,
    rowCount,
    ratio,
    pgRatio: pg.qps === 0 ? 0 : service.rps / pg.qps,
    failures,
  };
}

/** What every other process on the machine used during a measurement, in % of one core. */
const othersPercent = (cpu: CpuUsed) => (cpu.others / cpu.elapsed) * 100;

const perRequestMs = (seconds: number, count: number) => ((seconds * 1000) / Math.max(1, count)).toFixed(3);

/** One CPU figure of the three sides (service, bare + pg, pg-only), `a / b / c`. */
function threeSides(row: DatabaseRow, figure: (cpu: CpuUsed, count: number) => string): string {
  return [
    figure(row.service.cpu, row.service.total),
    figure(row.barePg.cpu, row.barePg.total),
    figure(row.pg.cpu, row.pg.total),
  ].join(' / ');
}

export function printDatabaseTable(rows: DatabaseRow[], timing: Timing, poolSize: number): void {
  const header = [
    'target (uncached)',
    'service req/s',
    'bare+pg req/s',
    'ratio',
    'pg-only q/s',
    'pg-only ratio',
    'p50/p99 ms svc | bare+pg',
    'server CPU ms/req svc/bare+pg',
    'PG CPU ms/req svc/bare+pg/pg',
    'client CPU ms/req svc/bare+pg/pg',
    'others CPU % svc/bare+pg/pg',
    'rows',
    'non-2xx/errors svc | bare+pg | pg',
    'result',
  ];
  const cells = rows.map((row) => [
    row.label,
    row.service.rps.toFixed(0),
    row.barePg.rps.toFixed(0),
    row.ratio.toFixed(3),
    row.pg.qps.toFixed(0),
    row.pgRatio.toFixed(3),
    `${row.service.p50} / ${row.service.p99} | ${row.barePg.p50} / ${row.barePg.p99}`,
    `${row.service.cpuMsPerRequest.toFixed(3)} / ${row.barePg.cpuMsPerRequest.toFixed(3)}`,
    threeSides(row, (cpu, count) => perRequestMs(cpu.postgres, count)),
    threeSides(row, (cpu, count) => perRequestMs(cpu.bench, count)),
    threeSides(row, (cpu) => othersPercent(cpu).toFixed(0)),
    String(row.rowCount),
    `${failedRequests(row.service)} | ${failedRequests(row.barePg)} | ${row.pg.errors}`,
    verdict(row.failures),
  ]);
  printTable(header, cells);
  process.stdout.write(
    `\nfloor: uncached service req/s >= ${DATABASE_FLOOR.minRatio} x the bare + pg route's req/s (bare ` +
      `Fastify running the same statement on a pool of ${poolSize}, the service's, and sending its rows), ` +
      `both at ${timing.connections} connections, only 2xx; ${timingText(timing)}\n` +
      `not judged: pg-only ratio = service req/s / the statement's queries/s straight through pg with no ` +
      `HTTP at all (${timing.connections} callers on a pool of ${poolSize})\n`,
  );
  printFailures(rows);
  printSkews(rows);
}

/** Other processes' CPU, in % of a core, that differs this much between the two sides skews a ratio. */
const SKEW_PERCENT = 25;

/** Says which judged ratios other processes skewed (not a verdict: the run is to be repeated). */
function printSkews(rows: DatabaseRow[]): void {
  for (const row of rows) {
    const service = othersPercent(row.service.cpu);
    const barePg = othersPercent(row.barePg.cpu);
    if (Math.abs(service - barePg) < SKEW_PERCENT) continue;
    process.stdout.write(
      `note ${row.label}: other processes used ${service.toFixed(0)} % of a core during the service's ` +
        `measurement and ${barePg.toFixed(0)} % during bare + pg's; the ratio leans ` +
        `${service > barePg ? 'low' : 'high'}, re-run on a quieter machine\n`,
    );
  }
}
