/**
 * Microcache for anonymous reads of published data (routes that opt in with
 * `config: { publicCache: true }`): an answer is kept for PUBLIC_CACHE_TTL_MS (default 1 s) and
 * replayed, with a fresh `timestamp`, to anonymous GETs of the same URL. A burst of public readers
 * (a schedule going live, a ticket drop) then costs one database query per URL per TTL.
 *
 * What it does not change:
 * - a request with an Authorization header or a signed-in session cookie is never answered from the
 *   cache, nor its answer kept (members see drafts and staff-only items; they always get the
 *   database's answer);
 * - a successful write (any non-GET answered below 400) in this process invalidates the cache, so an
 *   organizer reads their own writes at once; other processes sharing the database may answer
 *   anonymous readers up to one TTL late;
 * - only 200 answers are kept (a 404 is never cached), and the rate limit still applies: the
 *   lookup runs after the limiter's hook.
 * Answers say `x-cache: hit` or `miss`. The store is an `lru-cache` bounded by MAX_ENTRIES, its TTL
 * read from the app's clock (tests move it instead of sleeping).
 *
 * A write does not call `clear()`: lru-cache's clear walks and refills its MAX_ENTRIES-long slot
 * arrays, which cost every intent of the webhook pipeline bench measurable CPU. It bumps a
 * generation instead; an entry stored under an older one is a miss and is overwritten in place.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    publicCache?: boolean;
  }
}

interface Entry {
  /** The answer split around its timestamp, which is replaced on every hit. */
  head: string;
  tail: string;
  /** The write generation it was stored under; older than the current one means stale. */
  generation: number;
}

const MAX_ENTRIES = 5_000;
const TIMESTAMP_FIELD = '"timestamp":"';
const ISO_LENGTH = 24;

/**
 * A GET by no one: no Authorization header, and no caller found by the auth hook (which runs
 * before the lookup, and always before the store), so a browser signed in by its session cookie
 * (docs/reference/sign-in.md) is a member like a token's bearer: never answered from the cache, and
 * its answer (drafts included) never kept for others.
 */
const isAnonymousGet = (request: FastifyRequest) =>
  request.method === 'GET' &&
  request.headers.authorization === undefined &&
  // Undefined in an app without the auth plugin (the cache's own tests).
  (request.actor ?? null) === null;

export function registerPublicCache(app: FastifyInstance, options: { ttlMs: number; clock: Clock }): void {
  if (options.ttlMs <= 0) return;
  const { clock } = options;
  let generation = 0;
  // The generation a miss was looked up under: an answer read from the database before a write
  // that lands while it is being sent is stored as already stale, not as fresh.
  const missedAt = new WeakMap<FastifyRequest, number>();
  // ttlResolution 0: every lookup reads the clock (no cached "now" and no timer behind it).
  const entries = new LRUCache<string, Entry>({
    max: MAX_ENTRIES,
    ttl: options.ttlMs,
    ttlResolution: 0,
    perf: clock,
  });

  const lookup: onRequestHookHandler = (request, reply, done) => {
    if (!isAnonymousGet(request)) return done();
    const entry = entries.get(request.url);
    if (entry === undefined || entry.generation !== generation) {
      reply.header('x-cache', 'miss');
      missedAt.set(request, generation);
      return done();
    }
    reply
      .header('x-cache', 'hit')
      .type('application/json; charset=utf-8')
      .send(entry.head + new Date(clock.now()).toISOString() + entry.tail);
  };

  const store = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!isAnonymousGet(request) || reply.statusCode !== 200 || typeof payload !== 'string') return;
    const lookedUpAt = missedAt.get(request);
    if (lookedUpAt === undefined) return;
    const at = payload.lastIndexOf(TIMESTAMP_FIELD);
    if (at < 0) return;
    const start = at + TIMESTAMP_FIELD.length;
    entries.set(request.url, {
      head: payload.slice(0, start),
      tail: payload.slice(start + ISO_LENGTH),
      generation: lookedUpAt,
    });
  };

  app.addHook('onRoute', (route) => {
    if (route.config?.publicCache !== true) return;
    // Appended after the rate limiter's and the auth hook's own route hooks.
    route.onRequest = [...(route.onRequest === undefined ? [] : [route.onRequest].flat()), lookup];
    route.onSend = [
      ...(route.onSend === undefined ? [] : [route.onSend].flat()),
      (request, reply, payload, done) => {
        store(request, reply, payload);
        done(null, payload);
      },
    ];
  });

  app.addHook('onResponse', (request, reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) generation += 1;
    done();
  });
}
