/** The delivery worker's Prometheus metrics, in the registry of the app (or of `npm run worker`). */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { DueQueue } from './delivery-queue.repository.ts';

/** How long one reading of the queue serves the gauges of a scrape (they are collected one by one). */
const QUEUE_READING_MS = 1_000;

export interface WorkerMetrics {
  attempts: Counter<'result' | 'outcome'>;
  breakerTrips: Counter;
  completed: Counter<'status'>;
  duration: Histogram;
}

export function registerWorkerMetrics(
  registry: Registry,
  probes: { queue: () => Promise<DueQueue>; inFlight: () => number },
): WorkerMetrics {
  const registers = [registry];
  // Both queue gauges come from one query per scrape.
  let reading: { at: number; queue: Promise<DueQueue> } | undefined;
  const queue = () => {
    const now = Date.now();
    if (reading === undefined || now - reading.at > QUEUE_READING_MS)
      reading = { at: now, queue: probes.queue() };
    return reading.queue;
  };
  new Gauge({
    name: 'webhook_deliveries_due',
    help: 'Pending webhook deliveries due now and not claimed (queue depth)',
    registers,
    async collect() {
      this.set((await queue()).due);
    },
  });
  new Gauge({
    name: 'webhook_queue_oldest_due_age_seconds',
    help: 'How long the oldest pending delivery due now and not claimed has waited (0: none)',
    registers,
    async collect() {
      this.set((await queue()).oldestAgeSeconds);
    },
  });
  new Gauge({
    name: 'webhook_attempts_in_flight',
    help: 'Webhook attempts in flight in this process',
    registers,
    collect() {
      this.set(probes.inFlight());
    },
  });
  return {
    attempts: new Counter({
      name: 'webhook_attempts_total',
      help:
        'Webhook delivery attempts by result (success: a 2xx answer) and outcome (success, http_3xx, http_4xx, ' +
        'http_5xx, rate_limited, gone, timeout, network)',
      labelNames: ['result', 'outcome'],
      registers,
    }),
    breakerTrips: new Counter({
      name: 'webhook_endpoint_pauses_total',
      help: 'Times an endpoint was paused by its circuit breaker (failed attempts in a row)',
      registers,
    }),
    completed: new Counter({
      name: 'webhook_deliveries_completed_total',
      help: 'Webhook deliveries that reached a final status',
      labelNames: ['status'],
      registers,
    }),
    duration: new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Duration of webhook delivery attempts',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
  };
}
