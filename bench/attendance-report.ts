/**
 * The targets, verdicts and tables of the attendance suite (bench/attendance.ts): the check-in
 * windows against a bare route at the same rate, then the certificate issuance.
 */
import { printTable } from './lib.ts';
import { type PacedResult, percentile } from './paced.ts';
import type { CpuUsed } from './webhooks-observe.ts';

export const TARGET = { rate: 200, maxP99Ms: 30, certificates: 5_000, maxIssueS: 60 };

/** One window of scans (or of the bare route) and what the machine did meanwhile. */
export interface Measurement extends PacedResult {
  label: string;
  /** The `result` every answer should carry (`ok`, `already_checked_in`); none for the bare route. */
  expected: string | undefined;
  /** CPU seconds used during the window: the server measured, PostgreSQL, the bench, the rest. */
  cpu: CpuUsed;
}

export interface Issuance {
  people: number;
  wallS: number;
  /** From the job's `started_at` to its `finished_at`, as the service recorded them. */
  jobS: number;
  status: string;
  issued: number;
  errors: number;
  /** Distinct `done` values seen strictly between 0 and `total`: the progress a caller saw. */
  progressSteps: number;
  polls: number;
  cpu: CpuUsed;
  /** What the database holds afterwards. */
  counted: { rows: number; people: number; pairs: number; attended: number };
}

const non2xx = (m: PacedResult) =>
  [...m.statuses].reduce((sum, [status, count]) => sum + (status >= 200 && status < 300 ? 0 : count), 0);

const outcomesText = (m: PacedResult) =>
  [...m.outcomes].map(([outcome, count]) => `${count} ${outcome}`).join(', ') || '-';

const p99 = (m: PacedResult) => percentile(m.latencies, 99);

/** Failures of one window of scans: the latency target, the answers, the rate actually sent. */
export function judgeScans(m: Measurement, rate: number): string[] {
  const failures: string[] = [];
  if (!(p99(m) < TARGET.maxP99Ms)) failures.push(`p99 ${p99(m).toFixed(1)} ms >= ${TARGET.maxP99Ms} ms`);
  if (non2xx(m) > 0 || m.errors > 0) failures.push(`${non2xx(m)} non-2xx answers, ${m.errors} errors`);
  if (m.expected !== undefined && (m.outcomes.get(m.expected) ?? 0) !== m.sent) {
    failures.push(`answers ${outcomesText(m)}, expected ${m.sent} × ${m.expected}`);
  }
  if (m.sent / m.elapsedS < rate * 0.95) {
    failures.push(`${(m.sent / m.elapsedS).toFixed(0)} scans/s sent, below ${rate}/s`);
  }
  if (rate < TARGET.rate) failures.push(`rate ${rate}/s is below the target's ${TARGET.rate}/s`);
  return failures;
}

export function judgeIssuance(issuance: Issuance): string[] {
  const failures: string[] = [];
  const { counted, people } = issuance;
  if (issuance.status !== 'completed') failures.push(`the job ended ${issuance.status}`);
  if (!(issuance.wallS < TARGET.maxIssueS)) {
    failures.push(`${issuance.wallS.toFixed(1)} s from the POST to completed >= ${TARGET.maxIssueS} s`);
  }
  // One poll seeing a `done` between 0 and the total, then the total: the caller saw it advance.
  if (issuance.progressSteps < 1) failures.push('no poll saw the job part-way through');
  if (counted.rows !== people || counted.people !== people || counted.pairs !== people) {
    failures.push(
      `the database holds ${counted.rows} certificates for ${counted.people} people ` +
        `(${counted.pairs} template-person pairs), expected ${people}`,
    );
  }
  if (counted.attended !== counted.rows) failures.push('certificates of people never checked in');
  if (issuance.errors > 0) failures.push(`the job counted ${issuance.errors} errors`);
  if (people < TARGET.certificates) {
    failures.push(`${people} certificates is below the target's ${TARGET.certificates}`);
  }
  return failures;
}

/** `part` CPU seconds per request, in ms. */
const msPer = (seconds: number, m: PacedResult) => ((seconds * 1000) / Math.max(1, m.sent)).toFixed(2);

/** The two tables, the ratio line and one line per failure; answers whether anything failed. */
export function report(
  bare: Measurement,
  scans: Array<{ m: Measurement; failures: string[] }>,
  issuance: Issuance,
  issueFailures: string[],
  cores: number,
): boolean {
  const row = (m: Measurement, failures: string[] | undefined) => [
    m.label,
    (m.sent / m.elapsedS).toFixed(0),
    String(m.sent),
    `${[50, 95, 99].map((p) => percentile(m.latencies, p).toFixed(1)).join(' / ')} / ${(m.latencies.at(-1) ?? Number.NaN).toFixed(1)}`,
    `${non2xx(m)} / ${m.errors}`,
    outcomesText(m),
    `${msPer(m.cpu.service, m)} / ${failures === undefined ? '-' : msPer(m.cpu.postgres, m)}`,
    ((m.cpu.others / m.cpu.elapsed / cores) * 100).toFixed(0),
    m.sendLagP99Ms.toFixed(1),
    failures === undefined ? '-' : failures.length === 0 ? 'PASS' : 'FAIL',
  ];
  printTable(
    [
      'route',
      'sent/s',
      'requests',
      'p50 / p95 / p99 / max ms',
      'non-2xx / errors',
      'answers',
      'CPU ms/req server / PG',
      'others %',
      'send lag p99 ms',
      'result',
    ],
    [row(bare, undefined), ...scans.map(({ m, failures }) => row(m, failures))],
  );
  const ratios = scans.map(({ m }) => `${m.label} ${(p99(m) / Math.max(0.1, p99(bare))).toFixed(1)}`);
  process.stdout.write(
    `\ntarget: check-in p99 < ${TARGET.maxP99Ms} ms at ${TARGET.rate} scans/s, only 2xx; ` +
      `p99 ratio to the bare route: ${ratios.join(', ')}\n` +
      "others %: what the rest of the machine (other people's processes) used of its cores meanwhile\n",
  );
  printTable(
    [
      'issuance',
      'certificates',
      'POST → completed s',
      'job s',
      'issued/s',
      'progress seen',
      'in the database',
      'CPU s service / PG',
      'result',
    ],
    [
      [
        `edition_attendance, ${issuance.people} people`,
        String(issuance.issued),
        issuance.wallS.toFixed(2),
        issuance.jobS.toFixed(2),
        (issuance.issued / issuance.wallS).toFixed(0),
        `${issuance.progressSteps} part-way / ${issuance.polls} polls`,
        `${issuance.counted.rows} rows, ${issuance.counted.people} people`,
        `${issuance.cpu.service.toFixed(2)} / ${issuance.cpu.postgres.toFixed(2)}`,
        issueFailures.length === 0 ? 'PASS' : 'FAIL',
      ],
    ],
  );
  process.stdout.write(
    `\ntarget: ${TARGET.certificates} certificates in < ${TARGET.maxIssueS} s from the POST, progress seen ` +
      'part-way, exactly one certificate per person checked in\n',
  );
  const failures = [
    ...scans.flatMap(({ m, failures }) => failures.map((failure) => `${m.label}: ${failure}`)),
    ...issueFailures.map((failure) => `issuance: ${failure}`),
  ];
  for (const failure of failures) process.stdout.write(`FAIL attendance: ${failure}\n`);
  return failures.length > 0;
}
