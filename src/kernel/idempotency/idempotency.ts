/**
 * `Idempotency-Key` on every authenticated POST, with Stripe's semantics (docs/reference/errors.md). A
 * route-level `preHandler` (after authentication and validation, so a refused request is never stored) claims
 * the caller's key with a fingerprint of the request:
 *
 * - a new key runs the request; a 2xx or 3xx answer is stored for 24 hours, anything else forgets
 *   the key (a 4xx refused the request before any write; a 5xx or 502 left nothing behind), so a
 *   retry runs again;
 * - a completed key with the same fingerprint replays the stored answer with
 *   `Idempotent-Replayed: true`; with another fingerprint it is 422 `UNPROCESSABLE_ENTITY`;
 * - a key still running is 409 `CONFLICT` (a request abandoned by a dead process is taken over
 *   after two minutes).
 *
 * Answers are stored sealed with SECRETS_KEY (kernel/secret-box.ts): some show a secret once (a
 * webhook endpoint's signing secret, a signature request's token, a consent URL's OAuth state), and
 * nothing shown once may be at rest in clear. A replay opens the answer and sends it byte for byte,
 * as Stripe-style clients expect. An answer that cannot be opened (SECRETS_KEY was replaced, or it
 * was stored in clear before answers were sealed and withheld by the migration that sealed them) is
 * withheld: the request did run, so running it again could make a second refund or a second
 * resource. A retry gets a 409 that says so (never a 500, never a second run) until the key
 * expires.
 */
import { createHash } from 'node:crypto';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../db/client.ts';
import { AppError, conflict, validationError } from '../http/errors.ts';
import type { ErrorReason } from '../http/reasons.ts';
import { errorResponses, reasonsOf, withReasons } from '../http/schemas.ts';
import { scheduleJob } from '../jobs/jobs.repository.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { open, seal } from '../secret-box.ts';
import * as repo from './idempotency.repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: string | null;
  }
}

const HEADER = 'idempotency-key';
const MAX_KEY_LENGTH = 255;
/** The 409s of the key itself, on every route that takes one. */
const KEY_REASONS: ErrorReason[] = ['key_releasing', 'request_in_progress', 'answer_withheld'];

const IdempotencyHeaders = Type.Object({
  [HEADER]: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: MAX_KEY_LENGTH,
      description:
        'Makes a retry safe: the first completed answer is kept 24 h per caller and key and replayed ' +
        '(`Idempotent-Replayed: true`); the same key with another request is 422, while running 409',
    }),
  ),
});

/**
 * JSON text with the keys of every object sorted, at every depth; arrays keep their order, which is
 * part of what they say. Two values that are equal as JSON get the same text, however the client
 * ordered or spaced them. (The body parser bounds the depth at 64, so the recursion is bounded.)
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What the request says, not how it was spelled: the method, the route, and the validated path
 * parameters, query and body in canonical JSON. A body with its keys in another order, a query
 * with its parameters in another order or a trailing slash is the same request.
 */
function fingerprintOf(request: FastifyRequest): string {
  const { params, query, body } = request;
  const what = canonicalJson({ route: request.routeOptions.url, params, query, body: body ?? null });
  return createHash('sha256').update(`${request.method}\n${what}`).digest('hex');
}

function keyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[HEADER];
  if (value === undefined) return undefined;
  const key = Array.isArray(value) ? value.join(',') : value;
  if (key.length < 1 || key.length > MAX_KEY_LENGTH) {
    throw validationError([
      { field: `header.${HEADER}`, message: `must be 1 to ${MAX_KEY_LENGTH} characters` },
    ]);
  }
  return key;
}

const SWEEP_JOB = 'kernel.idempotency_sweep';
const SWEEP_EVERY_SECONDS = 3600;

/**
 * Expired keys are taken over when reused; the rest are deleted by a job that runs every hour and
 * never ends (scheduling it at every start is a no-op once it exists).
 */
export async function scheduleIdempotencySweep(db: Database, jobs: JobRunner): Promise<void> {
  jobs.registerJobKind(SWEEP_JOB, async () => {
    await repo.deleteExpiredKeys(db);
    return { retryInSeconds: SWEEP_EVERY_SECONDS };
  });
  await scheduleJob(db, { kind: SWEEP_JOB, key: 'every-hour', runAt: new Date() });
}

/** The stored answer in clear, or undefined when this SECRETS_KEY cannot open it. */
function openAnswer(secretsKey: Buffer, sealed: string | null): string | undefined {
  if (sealed === null) return undefined;
  try {
    return open(secretsKey, sealed);
  } catch {
    return undefined;
  }
}

export function registerIdempotency(
  app: FastifyInstance,
  db: Database,
  secretsKey: Buffer | undefined,
): void {
  if (secretsKey === undefined) throw new Error('Idempotency-Key answers are sealed: SECRETS_KEY is needed');
  app.decorateRequest('idempotencyKey', null);

  /** Claims the key, or answers from it: true when the stored answer was replayed. */
  const claimKey = async (request: FastifyRequest, reply: FastifyReply, key: string, userId: string) => {
    const fingerprint = fingerprintOf(request);
    if (await repo.claimKey(db, userId, key, fingerprint)) {
      request.idempotencyKey = key;
      return false;
    }
    const held = await repo.findKey(db, userId, key);
    if (held === undefined) throw conflict('key_releasing', 'This Idempotency-Key is being released; retry');
    if (held.fingerprint !== fingerprint) {
      throw new AppError(
        'UNPROCESSABLE_ENTITY',
        'This Idempotency-Key was used with a different request; use a new key for a new request',
      );
    }
    if (held.status === 'running' || held.response_status === null) {
      throw conflict(
        'request_in_progress',
        'A request with this Idempotency-Key is still running; retry when it has finished',
      );
    }
    const answer = openAnswer(secretsKey, held.response_body);
    if (answer === undefined) {
      throw conflict(
        'answer_withheld',
        'The request with this Idempotency-Key completed, but its answer can no longer be shown (kept ' +
          'before answers were sealed, or sealed with another SECRETS_KEY); read the resource to see ' +
          'what it did, or use a new key',
        { status: held.response_status },
      );
    }
    reply
      .code(held.response_status)
      .header('idempotent-replayed', 'true')
      .type('application/json; charset=utf-8')
      .send(answer);
    return true;
  };

  // Callback style, and nothing asynchronous unless the request carries a key: these hooks sit on
  // every authenticated POST, the hottest writes included.
  const claim: preHandlerHookHandler = (request, reply, done) => {
    let key: string | undefined;
    try {
      key = keyOf(request);
    } catch (error) {
      return done(error as Error);
    }
    const actor = request.actor;
    if (key === undefined || actor === null) return done();
    claimKey(request, reply, key, actor.userId).then(
      // A replay has answered: the route must not run (and `done` is not called).
      (replayed) => {
        if (!replayed) done();
      },
      (error: Error) => done(error),
    );
  };

  const record: onSendHookHandler = (request, reply, payload, done) => {
    const key = request.idempotencyKey;
    const actor = request.actor;
    if (key === null || actor === null) return done(null, payload);
    request.idempotencyKey = null;
    const settled =
      reply.statusCode < 400 && typeof payload === 'string'
        ? repo.completeKey(db, actor.userId, key, {
            status: reply.statusCode,
            body: seal(secretsKey, payload),
          })
        : repo.releaseKey(db, actor.userId, key);
    settled.then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  };

  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.includes('POST') || route.config?.auth === undefined) return;
    // Documented on every such route: the key's own refusals are a 409 and a 422.
    const response = route.schema?.response as Record<string, unknown> | undefined;
    // The route's own 409 reasons are kept beside the key's.
    if (response !== undefined) {
      const reasons = [...reasonsOf(response[409]), ...KEY_REASONS];
      Object.assign(
        response,
        { ...errorResponses(422), ...response },
        errorResponses(withReasons(409, ...reasons)),
      );
    }
    // Shown in the OpenAPI document only: validation compiled its own header schema already, and
    // the key is checked here.
    if (route.schema !== undefined && route.schema.headers === undefined) {
      route.schema.headers = IdempotencyHeaders;
    }
    route.preHandler = [...(route.preHandler === undefined ? [] : [route.preHandler].flat()), claim];
    route.onSend = [...(route.onSend === undefined ? [] : [route.onSend].flat()), record];
  });
}
