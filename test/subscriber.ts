/**
 * A webhook subscriber for tests: a real HTTP server on 127.0.0.1 that records every request it
 * receives (headers, raw body, time) and answers as told: by default 200, or per request through
 * `respond` (status, headers, body, delay).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

export interface Subscriber {
  url: string;
  received: Received[];
  /** Decides each answer (default: 200 `ok`). */
  respond: (request: Received) => Answer;
  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startSubscriber(): Promise<Subscriber> {
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const subscriber: Subscriber = {
    url: '',
    received: [],
    respond: () => ({}),
    waitFor(count, timeoutMs = 10_000) {
      if (subscriber.received.length >= count) return Promise.resolve(subscriber.received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`subscriber got ${subscriber.received.length} of ${count} requests`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(subscriber.received);
          },
        });
      });
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: Received = {
        path: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      subscriber.received.push(received);
      for (const waiter of waiters.filter((w) => subscriber.received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const answer = subscriber.respond(received);
      const send = () => {
        response.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
        response.end(answer.body ?? 'ok');
      };
      if (answer.delayMs === undefined) send();
      else setTimeout(send, answer.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  subscriber.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return subscriber;
}

/** Polls `check` until it returns a value other than undefined (rejects after `timeoutMs`). */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  label: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
