/**
 * A constant-rate, open-loop load generator (undici): request `i` is due at `start + i / rate`
 * and is sent then whether or not earlier ones have been answered, each with its own body. Used
 * where the rate itself is the specification (bench/attendance.ts: a door scanning 200 badges a
 * second).
 *
 * Why not autocannon's `overallRate`: autocannon 8 gives each connection a quota per second and
 * resets it every second, so the requests leave in a burst at the top of each second (10
 * connections, 10 at once) and then nothing; and it records each latency "with an expected
 * interval" of `ceil(1 / rate)` (1 ms, not 5), which fills the histogram with made-up values below
 * the real one and pulls its percentiles down. Neither is what a steady door looks like.
 *
 * Latency is measured from when a request was due, not from when it left (as wrk2 does): if the
 * bench's own event loop is late, that lateness counts against the server rather than vanishing.
 * How late the sends were is reported beside it (`sendLagP99Ms`), so a busy bench can be told from
 * a slow server.
 */
import { Pool } from 'undici';

export interface PacedResult {
  /** Requests sent (and answered or failed). */
  sent: number;
  /** From the first request due to the last answer, in seconds. */
  elapsedS: number;
  /** Latencies in ms, sorted ascending (answered requests only). */
  latencies: number[];
  /** Answers by HTTP status. */
  statuses: Map<number, number>;
  /** Answers by what `classify` made of them (e.g. a check-in's `result`). */
  outcomes: Map<string, number>;
  /** Requests that got no HTTP answer (connection errors, timeouts). */
  errors: number;
  /** How late the bench sent requests compared with their schedule, p99, in ms. */
  sendLagP99Ms: number;
}

export interface PacedRun {
  /** `http://host:port`. */
  origin: string;
  path: string;
  headers: Record<string, string>;
  /** Headers of request `index` besides `headers` (a token per person, say). */
  headersOf?: (index: number) => Record<string, string>;
  /** One body per request, sent in order; their count is the number of requests. */
  bodies: string[];
  /** Requests per second. */
  rate: number;
  /** What an answer means, counted in `outcomes`; default: nothing counted. */
  classify?: (status: number, text: string) => string;
  /** Called with each answer and when its request was due (performance.now()). */
  onAnswer?: (index: number, dueAt: number, status: number, text: string) => void;
}

/** The `p`-th percentile (0–100) of sorted values, nearest-rank; NaN when there are none. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Sends `bodies.length` POSTs at `rate` per second; resolves once every one is answered. */
export async function runPaced(run: PacedRun): Promise<PacedResult> {
  // Far more connections than requests in flight at this rate: a request never waits for a free
  // socket, so what is measured is the server.
  const pool = new Pool(run.origin, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
  const intervalMs = 1000 / run.rate;
  const latencies: number[] = [];
  const lags: number[] = [];
  const statuses = new Map<number, number>();
  const outcomes = new Map<string, number>();
  const inFlight: Array<Promise<void>> = [];
  let errors = 0;
  let sent = 0;
  let lastAnswer = 0;
  const headers = { 'content-type': 'application/json', ...run.headers };
  const add = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

  const fire = (index: number, dueAt: number) => {
    const body = run.bodies[index]!;
    lags.push(performance.now() - dueAt);
    const headersSent = run.headersOf === undefined ? headers : { ...headers, ...run.headersOf(index) };
    inFlight.push(
      pool
        .request({ origin: run.origin, path: run.path, method: 'POST', headers: headersSent, body })
        .then(async (response) => {
          const text = await response.body.text();
          lastAnswer = performance.now();
          latencies.push(lastAnswer - dueAt);
          add(statuses, response.statusCode);
          if (run.classify !== undefined) add(outcomes, run.classify(response.statusCode, text));
          run.onAnswer?.(index, dueAt, response.statusCode, text);
        })
        .catch(() => {
          lastAnswer = performance.now();
          errors += 1;
        }),
    );
  };

  const start = performance.now() + 20;
  await new Promise<void>((resolve) => {
    // A timer fires late by up to a millisecond or two; whatever is due by then leaves at once,
    // so the rate over the run is exact and the spacing nearly so.
    const tick = () => {
      const now = performance.now();
      while (sent < run.bodies.length && start + sent * intervalMs <= now) {
        fire(sent, start + sent * intervalMs);
        sent += 1;
      }
      if (sent >= run.bodies.length) {
        resolve();
        return;
      }
      setTimeout(tick, Math.max(0, start + sent * intervalMs - performance.now()));
    };
    setTimeout(tick, 20);
  });
  await Promise.all(inFlight);
  await pool.close();
  latencies.sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  return {
    sent,
    elapsedS: (lastAnswer - start) / 1000,
    latencies,
    statuses,
    outcomes,
    errors,
    sendLagP99Ms: percentile(lags, 99),
  };
}
