/**
 * The instruments of the webhook pipeline suite (bench/webhooks.ts), read around each measured
 * window to say where the time went: CPU time of every process that takes part (from /proc), the
 * service's own counters (GET /metrics), and what this database's PostgreSQL sessions were doing
 * (pg_stat_activity, sampled). None of them is a verdict.
 */
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { cpuSeconds, machineBusySeconds, postgresCpuSeconds, sleep } from './lib.ts';

/** CPU seconds so far of everything that takes part, read at the edges of the measured window. */
export interface CpuSnapshot {
  service: number;
  workers: number;
  bench: number;
  /** This database's PostgreSQL backends, by pid (connections may come and go). */
  backends: Map<number, number>;
  /** PostgreSQL's shared processes: WAL writer, checkpointer, background writer, … */
  shared: Map<number, number>;
  machine: number;
  at: number;
}

export function cpuSnapshot(
  service: ChildProcess,
  workers: ChildProcess[],
  databaseName: string,
): CpuSnapshot {
  const database = ` ${databaseName} `;
  return {
    service: cpuSeconds(service.pid),
    workers: workers.reduce((sum, worker) => sum + cpuSeconds(worker.pid), 0),
    bench: cpuSeconds(process.pid),
    backends: postgresCpuSeconds((cmdline) => cmdline.includes(database)),
    // Backends show their client's address `(port)`; autovacuum workers of other databases name them.
    shared: postgresCpuSeconds((cmdline) => !cmdline.includes('(') && !cmdline.includes('autovacuum worker')),
    machine: machineBusySeconds(),
    at: performance.now(),
  };
}

/** Seconds each part used between two snapshots. */
export function cpuUsed(before: CpuSnapshot, after: CpuSnapshot) {
  const delta = (a: Map<number, number>, b: Map<number, number>) =>
    [...b].reduce((sum, [pid, seconds]) => sum + seconds - (a.get(pid) ?? 0), 0);
  const used = {
    service: after.service - before.service,
    workers: after.workers - before.workers,
    postgres: delta(before.backends, after.backends),
    postgresShared: delta(before.shared, after.shared),
    bench: after.bench - before.bench,
    others: 0,
    elapsed: (after.at - before.at) / 1000,
  };
  used.others = Math.max(
    0,
    after.machine -
      before.machine -
      used.service -
      used.workers -
      used.postgres -
      used.postgresShared -
      used.bench,
  );
  return used;
}

/** The service's own counters, from GET /metrics (Prometheus text): `name{labels}` → value. */
export async function scrapeMetrics(base: string): Promise<Map<string, number>> {
  const metrics = new Map<string, number>();
  try {
    const text = await (await fetch(`${base}/metrics`)).text();
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      const space = line.lastIndexOf(' ');
      metrics.set(line.slice(0, space), Number(line.slice(space + 1)));
    }
  } catch {
    // figures from the service are a help, not a requirement
  }
  return metrics;
}

/**
 * What this database's PostgreSQL sessions are doing, sampled every 50 ms over the window:
 * `state wait_event_type:wait_event` → number of samples. `idle in transaction ClientRead` is a
 * transaction waiting for the service's next statement; `active Lock:object` a commit waiting for
 * another's `NOTIFY` lock; `active IO:WALSync` the WAL flush; `idle` a pooled connection unused.
 */
export interface SessionSamples {
  samples: number;
  counts: Map<string, number>;
  /** Deliveries due and not claimed when the window closed: the queue's depth. */
  dueAtEnd: number;
}

export function sampleSessions(
  databaseUrl: string,
  databaseName: string,
): { stop(): Promise<SessionSamples> } {
  const result: SessionSamples = { samples: 0, counts: new Map(), dueAtEnd: Number.NaN };
  const { counts } = result;
  let isRunning = true;
  const client = new pg.Client({ connectionString: databaseUrl });
  // Ctrl-C drops the database under it (FATAL 57P01): that ends the sampling, not the process.
  client.on('error', () => {
    isRunning = false;
  });
  const done = (async () => {
    await client.connect();
    while (isRunning) {
      const { rows } = await client.query<{ what: string; n: number }>(
        `select concat_ws(' ', state, wait_event_type || ':' || wait_event) as what, count(*)::int as n
         from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() group by 1`,
        [databaseName],
      );
      for (const row of rows) counts.set(row.what, (counts.get(row.what) ?? 0) + row.n);
      result.samples++;
      await sleep(50);
    }
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from webhook_deliveries where status = 'pending' and next_attempt_at <= now()`,
    );
    result.dueAtEnd = rows[0]?.n ?? Number.NaN;
  })()
    .catch(() => {})
    .finally(() => client.end().catch(() => {}));
  return {
    stop: async () => {
      isRunning = false;
      await done;
      return result;
    },
  };
}

const CREATE_ROUTE = '{method="POST",route="/testmode/intents/create",status="201"}';

/** Means over the window, from the service's histograms (NaN when a count did not move). */
export function serviceFigures(before: Map<string, number>, after: Map<string, number>) {
  const mean = (name: string, labels = '') => {
    const count = (after.get(`${name}_count${labels}`) ?? 0) - (before.get(`${name}_count${labels}`) ?? 0);
    const sum = (after.get(`${name}_sum${labels}`) ?? 0) - (before.get(`${name}_sum${labels}`) ?? 0);
    return count > 0 ? (sum / count) * 1000 : Number.NaN;
  };
  return {
    createMs: mean('http_request_duration_seconds', CREATE_ROUTE),
    attemptMs: mean('webhook_attempt_duration_seconds'),
    /** prom-client resets it at each collection: the p99 since the scrape at the window's start. */
    eventLoopP99Ms: (after.get('nodejs_eventloop_lag_p99_seconds') ?? Number.NaN) * 1000,
  };
}

export type CpuUsed = ReturnType<typeof cpuUsed>;
export type ServiceFigures = ReturnType<typeof serviceFigures>;
