/**
 * Prometheus metrics. One registry per app instance (tests build many apps in one process).
 * Request counts and durations are labelled by the route pattern, never the raw URL, so ids do not
 * explode the label set. Other modules add their own metrics to `app.metrics`. (The x-request-id
 * response header is set in security-headers.ts.)
 */
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry;
  }
}

export function registerMetrics(app: FastifyInstance): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  app.decorate('metrics', registry);

  // Label children are cached per (method, route, status): prom-client otherwise hashes the label
  // object on every observation.
  const children = new Map<string, { count: Counter.Internal; duration: Histogram.Internal<string> }>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${route} ${reply.statusCode}`;
    let child = children.get(key);
    if (child === undefined) {
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      child = { count: requests.labels(labels), duration: durations.labels(labels) };
      children.set(key, child);
    }
    child.count.inc();
    child.duration.observe(reply.elapsedTime / 1000);
    done();
  });
}
