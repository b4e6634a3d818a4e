/**
 * The verdict and the tables of the webhook pipeline suite (bench/webhooks.ts): the targets, what
 * a phase measured, and how it is printed. See bench/README.md, "Reading the output".
 */
import { printTable } from './lib.ts';
import type { CpuUsed, ServiceFigures, SessionSamples } from './webhooks-observe.ts';

/** The targets. */
export const TARGET = {
  /** The latency phase's rate, intents/s, and its p99 ceiling. */
  latencyRate: 200,
  maxP99Ms: 250,
  /** Deliveries/s received at the subscriber during the throughput phase's window. */
  minDeliveriesPerS: 1000,
};

/** How the run was set up, as the report states it. */
export interface Plan {
  durationS: number;
  warmupS: number;
  /** Intents/s of the throughput phase. */
  rate: number;
  /** 0: the worker inside the service; N: that many worker processes. */
  workers: number;
  drainTimeoutMs: number;
  bare: { connections: number; durationS: number };
}

export interface PhaseResult {
  name: string;
  rate: number;
  /** Creates answered 201, all of the phase (warm-up included). */
  created: number;
  /** Answers other than 201, by status, and requests that got none. */
  refused: Map<number, number>;
  errors: number;
  /** Creates answered 201 whose request went out in the window, per second of it. */
  createRate: number;
  /** Receipts (of any phase's intents) during the window, per second of it. */
  deliveryRate: number;
  /** The phase's receipts, first to last, per second. */
  overallRate: number;
  received: number;
  missing: number;
  /** Latency of the intents sent in the window, ms: p50, p90, p99, max. */
  latency: { p50: number; p90: number; p99: number; max: number; count: number };
  late: number;
  maxLagMs: number;
  /** Creates still due when the window closed (the generator was that far behind), never sent. */
  unsent: number;
  /** From the last create sent to the last receipt (or to giving up). */
  drainS: number;
  cpu: CpuUsed;
  service: ServiceFigures;
  benchLoopP99Ms: number;
  sessions: SessionSamples;
}

export const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

function judge(phase: PhaseResult, isThroughput: boolean, plan: Plan): string[] {
  const failures: string[] = [];
  if (isThroughput && !(phase.deliveryRate >= TARGET.minDeliveriesPerS)) {
    failures.push(`${fixed(phase.deliveryRate)} deliveries/s < ${TARGET.minDeliveriesPerS}`);
  }
  if (!isThroughput && !(phase.latency.p99 < TARGET.maxP99Ms)) {
    failures.push(`p99 ${fixed(phase.latency.p99)} ms >= ${TARGET.maxP99Ms} ms`);
  }
  if (phase.missing > 0) {
    failures.push(`${phase.missing} created intents not received within ${plan.drainTimeoutMs / 1000} s`);
  }
  const refused = [...phase.refused].map(([status, count]) => `${count}×${status}`).join(', ');
  if (refused !== '') failures.push(`creates answered ${refused}`);
  if (phase.errors > 0) failures.push(`${phase.errors} creates got no answer`);
  return failures;
}

/** Prints the tables and the verdict; true when a target failed. */
export function report(
  plan: Plan,
  phases: PhaseResult[],
  bare: { rps: number; cpuPercent: number },
  duplicates: number,
): boolean {
  const verdicts = phases.map((phase, index) => judge(phase, index === 1, plan));
  printTable(
    [
      'phase',
      'intents/s asked',
      'created/s',
      'deliveries/s window',
      'overall',
      'p50/p90/p99/max ms',
      'received/missing',
      'late (max ms) / unsent',
      'non-201/errors',
      'drain s',
      'result',
    ],
    phases.map((phase, index) => [
      phase.name,
      String(phase.rate),
      fixed(phase.createRate),
      fixed(phase.deliveryRate),
      fixed(phase.overallRate),
      [phase.latency.p50, phase.latency.p90, phase.latency.p99, phase.latency.max]
        .map((v) => fixed(v))
        .join(' / '),
      `${phase.received} / ${phase.missing}`,
      `${phase.late} (${fixed(phase.maxLagMs)}) / ${phase.unsent}`,
      `${[...phase.refused.values()].reduce((a, b) => a + b, 0)} / ${phase.errors}`,
      fixed(phase.drainS, 1),
      verdicts[index]!.length === 0 ? 'PASS' : 'FAIL',
    ]),
  );

  // Where the CPU went during each window: % of one core, and ms per intent created in it.
  const percent = (seconds: number, phase: PhaseResult) => fixed((seconds / phase.cpu.elapsed) * 100);
  const perIntent = (seconds: number, phase: PhaseResult) =>
    fixed((seconds * 1000) / Math.max(1, phase.createRate * plan.durationS), 3);
  const parts: Array<[string, (phase: PhaseResult) => number]> = [
    [plan.workers === 0 ? 'service (API + worker)' : 'service (API)', (p) => p.cpu.service],
    [`worker processes (${plan.workers})`, (p) => p.cpu.workers],
    ['PostgreSQL, this database', (p) => p.cpu.postgres],
    ['PostgreSQL, shared (WAL, …)', (p) => p.cpu.postgresShared],
    ['bench (load + subscriber)', (p) => p.cpu.bench],
  ];
  if (plan.workers === 0) parts.splice(1, 1);
  const measured = [...parts];
  parts.push(
    ['sum of the above', (p) => measured.reduce((sum, [, of]) => sum + of(p), 0)],
    ['everything else on the machine', (p) => p.cpu.others],
  );
  printTable(
    ['CPU during the window', ...phases.flatMap((phase) => [`${phase.name} %`, 'ms/intent'])],
    parts.map(([label, of]) => [
      label,
      ...phases.flatMap((phase) => [percent(of(phase), phase), perIntent(of(phase), phase)]),
    ]),
  );
  const inside: Array<[string, (phase: PhaseResult) => string]> = [
    ['service: create request, mean ms', (p) => fixed(p.service.createMs, 1)],
    ['service: delivery attempt, mean ms', (p) => fixed(p.service.attemptMs, 1)],
    ['service: event loop delay p99 ms', (p) => fixed(p.service.eventLoopP99Ms, 1)],
    ['deliveries due, not claimed, at the end', (p) => fixed(p.sessions.dueAtEnd)],
    ['bench: event loop delay p99 ms', (p) => fixed(p.benchLoopP99Ms, 1)],
  ];
  printTable(
    ['during the window', ...phases.map((phase) => phase.name)],
    inside.map(([label, of]) => [label, ...phases.map(of)]),
  );

  // PostgreSQL sessions: the average number in each state over the window.
  const states = [...new Set(phases.flatMap((phase) => [...phase.sessions.counts.keys()]))];
  const last = phases.at(-1)?.sessions.counts;
  states.sort((a, b) => (last?.get(b) ?? 0) - (last?.get(a) ?? 0));
  printTable(
    ['PostgreSQL sessions (mean count)', ...phases.map((phase) => phase.name)],
    states.map((state) => [
      state,
      ...phases.map((phase) =>
        fixed((phase.sessions.counts.get(state) ?? 0) / Math.max(1, phase.sessions.samples), 2),
      ),
    ]),
  );

  const throughput = phases[1];
  const ratio = throughput === undefined || bare.rps === 0 ? Number.NaN : throughput.deliveryRate / bare.rps;
  process.stdout.write(
    `\nbare Fastify POST (${plan.bare.connections} connections, ${plan.bare.durationS} s): ${fixed(bare.rps)} req/s ` +
      `at ${fixed(bare.cpuPercent)} % CPU; deliveries/s ÷ bare POST req/s = ${fixed(ratio, 3)}\n`,
  );
  process.stdout.write(`intents delivered more than once: ${duplicates}\n`);
  process.stdout.write(
    `targets: p99 < ${TARGET.maxP99Ms} ms at ${TARGET.latencyRate} intents/s; >= ${TARGET.minDeliveriesPerS} ` +
      `deliveries/s at ${plan.rate} intents/s; nothing lost, only 201s. ${plan.durationS} s windows ` +
      `after ${plan.warmupS} s warm-up\n`,
  );
  phases.forEach((phase, index) => {
    for (const failure of verdicts[index]!) process.stdout.write(`FAIL ${phase.name}: ${failure}\n`);
  });
  return verdicts.some((failures) => failures.length > 0);
}
