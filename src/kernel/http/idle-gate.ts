/**
 * Background work that shares the event loop with requests (the mail sender rendering and building
 * messages) asks this gate before each piece: it goes on at once when no request is in flight, and
 * otherwise when the last one has answered, or after `maxWaitMs` at most, so it is never starved.
 * Requests keep the CPU they need; the background takes the gaps between them.
 */
import type { FastifyInstance } from 'fastify';

export type IdleGate = () => Promise<void>;

export function registerIdleGate(app: FastifyInstance, maxWaitMs = 25): IdleGate {
  let inFlight = 0;
  let waiters: Array<() => void> = [];
  const counted = new WeakSet<object>();
  app.addHook('onRequest', (request, _reply, done) => {
    counted.add(request);
    inFlight += 1;
    done();
  });
  const finish = (request: object) => {
    if (!counted.delete(request)) return;
    inFlight -= 1;
    if (inFlight > 0) return;
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };
  app.addHook('onResponse', (request, _reply, done) => {
    finish(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    finish(request);
    done();
  });
  return () =>
    inFlight === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, maxWaitMs).unref();
        });
}
