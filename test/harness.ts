/**
 * The test harness: `createTestApp()` gives a test file its own app on its own fresh database
 * (see database.ts), trusting a key pair made for this process, plus helpers to make users and
 * send requests. Requests go through Fastify's `inject` (the full HTTP pipeline without a socket).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import type { Writable } from 'node:stream';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import type { Static } from 'typebox';
import { type App, buildApp } from '../src/app.ts';
import { createVerifier } from '../src/kernel/auth/verifier.ts';
import type { Clock } from '../src/kernel/clock.ts';
import { loadConfig } from '../src/kernel/config.ts';
import type { Database } from '../src/kernel/db/client.ts';
import { uuidv7 } from '../src/kernel/db/ids.ts';
import { loggerOptions } from '../src/kernel/http/logging.ts';
import type { ErrorEnvelope, Pagination } from '../src/kernel/http/schemas.ts';
import type { Mailer } from '../src/modules/mail/index.ts';
import { documentedReasons } from '../src/system/openapi-components.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

type KeyLike = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

interface Keys {
  privateKey: KeyLike;
  publicJwk: JWK;
  kid: string;
}

let keysPromise: Promise<Keys> | undefined;

/** The Ed25519 key pair the test apps of this process trust. */
export function testKeys(): Promise<Keys> {
  keysPromise ??= (async () => {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const kid = `test-${randomBytes(4).toString('hex')}`;
    return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA' }, kid };
  })();
  return keysPromise;
}

export interface TokenOptions {
  /** A jose time span (`'1h'`) or epoch seconds; null signs a token without `exp`. Default 1 h. */
  expiresIn?: string | number | null;
  /** `iat` in epoch seconds. Default now. */
  issuedAt?: number;
  /** Sign with another key (a forged token). */
  privateKey?: KeyLike;
  kid?: string;
  claims?: Record<string, unknown>;
  /** Omit `sub`/`email` and use these claims only. */
  rawClaims?: boolean;
}

export async function signToken(
  user: { id: string; email: string },
  options: TokenOptions = {},
): Promise<string> {
  const keys = await testKeys();
  const claims = options.rawClaims ? (options.claims ?? {}) : { email: user.email, ...options.claims };
  let jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: 'EdDSA', kid: options.kid ?? keys.kid })
    .setIssuedAt(options.issuedAt);
  if (options.expiresIn !== null) jwt = jwt.setExpirationTime(options.expiresIn ?? '1h');
  if (!options.rawClaims) jwt = jwt.setSubject(user.id);
  return jwt.sign(options.privateKey ?? keys.privateKey);
}

/** A fresh Ed25519 private key in PEM, as `CREDENTIAL_SIGNING_KEY` takes it (production needs one). */
export function credentialSigningKeyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

export interface TestUser {
  id: string;
  email: string;
  token: string;
}

/** The `error` of an error envelope (docs/reference/errors.md); `meta` is read key by key. */
export type ErrorDetail = Omit<Static<typeof ErrorEnvelope>['error'], 'meta'> & {
  meta?: Record<string, unknown>;
};

/** The parts of the OpenAPI document the tests read (GET /docs/openapi.json, not an envelope). */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
}

export interface OpenApiOperation {
  summary?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { description?: string; content?: Record<string, { example?: unknown }> }>;
  [key: string]: unknown;
}

/**
 * A JSON envelope as a test reads it: `data` typed as the route's response schema says (`T`), the
 * rest as the envelope of docs/reference/errors.md. Success and error share one shape here, so a test can
 * read `body.error` of a refusal without a cast; `expectOk` and `expectError` check which it is.
 */
export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
  /** Present on list answers. */
  pagination: Static<typeof Pagination>;
  error?: ErrorDetail;
  timestamp: string;
  module: string;
}

/**
 * An answer of the service. `T` is the route's `data`, from its schema
 * (`t.get<Static<typeof Edition>>(…)`, or the exported type of the same name), so a schema change
 * breaks the tests that read the changed field at compile time. `body` is the parsed JSON
 * envelope (undefined at run time when the answer is not JSON: read `text` then).
 */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Envelope<T>;
  text: string;
}

/** `Req` types the JSON body when a test sends a valid one; refusal tests send anything. */
export interface RequestOptions<Req = unknown> {
  token?: string | undefined;
  body?: Req;
  /** A raw payload sent as is (with `contentType`). */
  payload?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  app: App;
  /** PUBLIC_BASE_URL: where the app listens when created with `listen`. */
  baseUrl: string;
  db: Database;
  database: TestDatabase;
  /** The app's mail service: tests register simple renderers of the kinds and wake it (docs/mail.md). */
  mailer: Mailer;
  /**
   * A new user with a valid token (not yet in the actor directory: see `actor`). `claims` are added
   * to the token (`{ name: 'Ana Souza' }`).
   */
  user(name?: string, claims?: Record<string, unknown>): Promise<TestUser>;
  /** A new user who has already called the API, so they exist in the actor directory. */
  actor(name?: string, claims?: Record<string, unknown>): Promise<TestUser>;
  request<Res = unknown, Req = unknown>(
    method: string,
    url: string,
    options?: RequestOptions<Req>,
  ): Promise<ApiResponse<Res>>;
  get<Res = unknown>(url: string, options?: RequestOptions<never>): Promise<ApiResponse<Res>>;
  post<Res = unknown, Req = unknown>(url: string, options?: RequestOptions<Req>): Promise<ApiResponse<Res>>;
  patch<Res = unknown, Req = unknown>(url: string, options?: RequestOptions<Req>): Promise<ApiResponse<Res>>;
  put<Res = unknown, Req = unknown>(url: string, options?: RequestOptions<Req>): Promise<ApiResponse<Res>>;
  delete<Res = unknown, Req = unknown>(url: string, options?: RequestOptions<Req>): Promise<ApiResponse<Res>>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Capture the service's logs, with the production logger options, in this stream. */
  logStream?: Writable;
  /** The time of the verifier and the in-process caches (default: the system clock). */
  clock?: Clock;
  /**
   * Also listen on a free loopback port, with PUBLIC_BASE_URL set to it, so that real HTTP clients
   * (the Mercado Pago simulator sending notifications, a browser) reach the app.
   */
  listen?: boolean;
  /**
   * With `listen`, the host of PUBLIC_BASE_URL (default 127.0.0.1): a made-up name such as
   * `convene.test`, mapped to loopback by the browser tests, makes the links the service hands out
   * (badge QR codes, signing links) look like a LAN address over plain HTTP.
   */
  publicHost?: string;
}

export async function createTestApp(
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const keys = await testKeys();
  const port = options.listen === true ? await freePort() : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: 'memory://',
    RATE_LIMIT_PER_MINUTE: '0',
    SECRETS_KEY: randomBytes(32).toString('base64'),
    AUTH_PUBLIC_KEYS: JSON.stringify({ keys: [keys.publicJwk] }),
    LOG_LEVEL: 'silent',
    ...env,
    ...(port === undefined ? {} : { PUBLIC_BASE_URL: `http://${options.publicHost ?? '127.0.0.1'}:${port}` }),
  });
  const database = await createTestDatabase();
  const verifier = await createVerifier(
    config.auth,
    options.clock === undefined ? {} : { now: options.clock.now },
  );
  const logger =
    options.logStream === undefined
      ? false
      : { ...(loggerOptions(config) as object), stream: options.logStream };
  const app = await buildApp({
    config,
    database: database.handle,
    verifier,
    logger,
    shedLoad: false,
    // A test file uses a few of the routes: compile their schemas when first used (app.ts).
    compileSchemasOnFirstUse: true,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const undocumented = watchErrorReasons(app);
  await app.ready();
  if (port !== undefined) await app.listen({ port, host: '127.0.0.1' });

  const request = async <Res = unknown, Req = unknown>(
    method: string,
    url: string,
    options: RequestOptions<Req> = {},
  ): Promise<ApiResponse<Res>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let payload: string | Buffer | undefined = options.payload;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    if (options.contentType !== undefined) headers['content-type'] = options.contentType;
    const response = await app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
    let body: Envelope<Res> | undefined;
    try {
      body = JSON.parse(response.body) as Envelope<Res>;
    } catch {
      body = undefined;
    }
    // Not JSON: `body` stays undefined at run time, and such tests read `text` (see ApiResponse).
    assertConflictReason(response.statusCode, body, method, url);
    undocumented.assertNone();
    return { status: response.statusCode, headers: response.headers, body: body!, text: response.body };
  };

  const user = async (name = 'user', claims?: Record<string, unknown>): Promise<TestUser> => {
    const id = uuidv7();
    const email = `${name}-${randomBytes(3).toString('hex')}@example.com`;
    return { id, email, token: await signToken({ id, email }, claims === undefined ? {} : { claims }) };
  };

  return {
    app,
    baseUrl: config.publicBaseUrl,
    db: database.handle.db,
    database,
    mailer: app.mailer,
    user,
    async actor(name, claims) {
      const made = await user(name, claims);
      const seen = await request('GET', '/events/mine', { token: made.token });
      if (seen.status !== 200) throw new Error(`could not register actor: ${seen.status} ${seen.text}`);
      return made;
    },
    request,
    get: (url, options) => request('GET', url, options),
    post: (url, options) => request('POST', url, options),
    patch: (url, options) => request('PATCH', url, options),
    put: (url, options) => request('PUT', url, options),
    delete: (url, options) => request('DELETE', url, options),
    async close() {
      await app.close();
      undocumented.assertNone();
      await database.close();
    },
  };
}

/**
 * Every 409 names its cause in `error.reason`, a snake_case word (docs/reference/errors.md, "Error reasons"):
 * checked on each answer a test receives, so every test that meets a 409 checks it too.
 */
export function assertConflictReason(status: number, body: unknown, method = '', url = ''): void {
  if (status !== 409) return;
  const reason = (body as { error?: { reason?: unknown } } | undefined)?.error?.reason;
  if (typeof reason !== 'string' || !/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(reason)) {
    throw new Error(`a 409 without a snake_case error.reason (${method} ${url}): ${JSON.stringify(body)}`);
  }
}

/**
 * Every `error.reason` the app answers with is one the OpenAPI document lists for that operation
 * and status (docs/reference/errors.md, "Error reasons"). The app's own hook notes each error answer with a
 * reason, whoever sent the request (this harness, a browser, the provider simulator); the harness compares
 * them with the document at its next request and when the app closes, and throws for one it does not list.
 */
function watchErrorReasons(app: App) {
  const seen: Array<{ method: string; route: string; status: number; reason: string }> = [];
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 400 && typeof payload === 'string' && payload.includes('"reason"')) {
      try {
        const reason = (JSON.parse(payload) as { error?: { reason?: unknown } }).error?.reason;
        const route = request.routeOptions.url;
        if (typeof reason === 'string' && route !== undefined) {
          seen.push({ method: request.method.toLowerCase(), route, status: reply.statusCode, reason });
        }
      } catch {
        // Not JSON: no envelope, no reason.
      }
    }
    return payload;
  });
  let documented: Map<string, readonly string[]> | undefined;
  const listed = (method: string, route: string, status: number) => {
    if (documented === undefined) {
      documented = new Map();
      const document = app.swagger() as { paths?: Record<string, Record<string, DocumentedOperation>> };
      for (const [path, operations] of Object.entries(document.paths ?? {})) {
        for (const [verb, operation] of Object.entries(operations)) {
          for (const [code, response] of Object.entries(operation.responses ?? {})) {
            // Through the answer's and schema's `$ref`s (system/openapi-components.ts): a shared
            // answer lists no reason, so a reason it meets fails as one the operation does not list.
            documented.set(`${verb} ${path} ${code}`, documentedReasons(document, response));
          }
        }
      }
    }
    const path = route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    return documented.get(`${method === 'head' ? 'get' : method} ${path} ${status}`) ?? [];
  };
  return {
    assertNone() {
      const answers = seen.splice(0);
      const missing = answers.filter((a) => !listed(a.method, a.route, a.status).includes(a.reason));
      if (missing.length > 0) {
        throw new Error(
          `error.reason not listed in the OpenAPI document for its operation: ${missing
            .map((a) => `${a.method.toUpperCase()} ${a.route} ${a.status} ${a.reason}`)
            .join('; ')}`,
        );
      }
    },
  };
}

interface DocumentedOperation {
  responses?: Record<string, unknown>;
}

/**
 * A TCP port free on the loopback interface at the time of asking. Not test/processes.ts's: that
 * module imports this one (its children's keys), and madge counts the cycle.
 */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
