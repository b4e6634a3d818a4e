/** The delivery worker's Prometheus metrics, in the registry of the app (or of `npm run worker`). */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface WorkerMetrics {
  attempts: Counter<'result'>;
  completed: Counter<'status'>;
  duration: Histogram;
}

export function registerWorkerMetrics(
  registry: Registry,
  probes: { due: () => Promise<number>; inFlight: () => number },
): WorkerMetrics {
  const registers = [registry];
  new Gauge({
    name: 'webhook_deliveries_due',
    help: 'Pending webhook deliveries due now and not claimed (queue depth)',
    registers,
    async collect() {
      this.set(await probes.due());
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
      help: 'Webhook delivery attempts by result (success: a 2xx answer)',
      labelNames: ['result'],
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
