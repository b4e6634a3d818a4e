/**
 * What the service asks of a connection before any route runs, besides framing (wire-errors.ts):
 *
 * - Time. Node's defaults let a request's headers take 60 s, checked every 30 s, and Fastify turns
 *   the whole-request bound off, so a client sending one header byte a second held its connection
 *   for up to 90 s (and a slow body for ever). Here the headers must arrive within
 *   `HTTP_HEADERS_TIMEOUT_MS` (default 10 s: 16 KiB of headers take well under a second on a poor
 *   mobile link) and the whole request, its body of at most 1 MiB included, within 60 s (about
 *   17 KiB/s); connections are checked against both every second (or twice per headers bound, when
 *   it is shorter). A late request is answered 408 with the envelope and closed (wire-errors.ts).
 *   An idle keep-alive connection is bounded by Fastify's `keepAliveTimeout` (72 s) instead.
 * - A version. Node's parser takes `GET /health` with no version (HTTP/0.9) and `HTTP/2.0` on the
 *   HTTP/1 port as requests; only HTTP/1.0 and HTTP/1.1 are served, anything else is 400
 *   `BAD_REQUEST` and the connection is closed.
 */
import type { Server } from 'node:http';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

/** The whole request, body included, must arrive within this (never less than the headers' bound). */
const REQUEST_TIMEOUT_MS = 60_000;
/** How often, at most, connections are checked against the bounds above. */
const CHECK_EVERY_MS = 1_000;

export function wireTimeouts(
  headersTimeoutMs: number,
): Pick<FastifyHttpOptions<Server>, 'http' | 'requestTimeout'> {
  const requestTimeout = Math.max(REQUEST_TIMEOUT_MS, headersTimeoutMs);
  return {
    // Fastify sets the server's `requestTimeout` from its own option (default 0: no bound).
    requestTimeout,
    http: {
      headersTimeout: headersTimeoutMs,
      requestTimeout,
      connectionsCheckingInterval: Math.min(CHECK_EVERY_MS, Math.ceil(headersTimeoutMs / 2)),
    },
  };
}

/** Refuses any request that is not HTTP/1.x; an instance-level `onRequest` hook. */
export function registerHttpVersionGuard(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.raw.httpVersionMajor === 1) return done();
    reply.header('connection', 'close');
    done(new AppError('BAD_REQUEST', 'Only HTTP/1.0 and HTTP/1.1 are served'));
  });
}
