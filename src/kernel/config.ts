/**
 * Configuration: the environment is read here, once, and nowhere else (docs/reference/running.md).
 * `loadConfig` is pure: it parses and validates; files in DATA_DIR (development keys, the
 * development SECRETS_KEY) are created later by `kernel/bootstrap.ts`, so a bad environment fails
 * before anything is written. Each variable's form is a TypeBox schema (`ENV_SCHEMA`); what one
 * variable cannot say alone (production needs a key source) is checked in code after it.
 */
import { Ajv } from 'ajv';
import { type Static, Type } from 'typebox';

export type NodeEnv = 'development' | 'production' | 'test';

export interface Config {
  port: number;
  host: string;
  /** `postgres://…` for a server, `memory://` for an in-memory embedded database, undefined for DATA_DIR. */
  databaseUrl: string | undefined;
  dataDir: string;
  publicBaseUrl: string;
  nodeEnv: NodeEnv;
  isProduction: boolean;
  auth: {
    jwksUrl: string | undefined;
    publicKeys: string | undefined;
    issuer: string | undefined;
    audience: string | undefined;
  };
  testMode: boolean;
  /** 32 raw bytes; undefined until resolved from DATA_DIR in development. */
  secretsKey: Buffer | undefined;
  /**
   * `CREDENTIAL_SIGNING_KEY` (docs/reference/attendance.md): the Ed25519 private key (PEM or JWK) that signs
   * certificates' credentials. Undefined outside production: a development key in DATA_DIR is used.
   */
  credentialSigningKey: string | undefined;
  mercadopago: {
    clientId: string | undefined;
    clientSecret: string | undefined;
    webhookSecret: string | undefined;
    authUrl: string;
    apiUrl: string;
  };
  webhooks: {
    retryScheduleSeconds: number[];
    timeoutMs: number;
    allowPrivateTargets: boolean;
    /**
     * `WEBHOOK_WORKER` (an addition of this service; default true): whether the service process runs the
     * delivery worker. Turn it off when workers run as their own processes (`npm run worker`).
     */
    worker: boolean;
    /** `WEBHOOK_CONCURRENCY` (default 256): attempts in flight at once in one worker process. */
    concurrency: number;
    /** `WEBHOOK_ENDPOINT_CONCURRENCY` (default 16): of those, at most this many to one endpoint. */
    endpointConcurrency: number;
    /**
     * The circuit breaker: `WEBHOOK_BREAKER_FAILURES` (default 10) failed attempts in a row to one
     * endpoint pause it for `WEBHOOK_BREAKER_PAUSE_MS` (default 30 s), doubled at each trip in a
     * row up to 64 times; then one attempt probes it, and a success closes the breaker.
     */
    breakerFailures: number;
    breakerPauseMs: number;
  };
  rateLimitPerMinute: number;
  /** E-mail to people (docs/mail.md). */
  mail: {
    /**
     * `MAIL_URL`: `smtp://user:pass@host:port` or `smtps://…`. Unset: mail is kept in the development
     * mailbox (`/dev/mail`) outside production, and is off in production (logged, never sent).
     */
    url: string | undefined;
    /** How mail leaves: through SMTP, into the development mailbox, or not at all. */
    mode: 'smtp' | 'dev-mailbox' | 'off';
    /** `MAIL_FROM` (default `Convene <no-reply@localhost>`): the From address. */
    from: string;
    /**
     * `MAIL_RETRY_SCHEDULE` (an addition of this service): seconds before each new attempt after a
     * temporary failure, the last one repeated (default `30,60,120,300,600,900`).
     */
    retryScheduleSeconds: number[];
    /**
     * `MAIL_RETRY_FOR_SECONDS` (an addition of this service; default 3600): how long after its creation a
     * mail is still retried; past it, the next temporary failure is final.
     */
    retryForSeconds: number;
    /**
     * `MAIL_THREADS` (an addition of this service; default 2, 1..64): the worker threads that write
     * mail out and send it through SMTP, at most; they run at a lower priority than requests (sending/mail.worker.ts), so the
     * second takes a burst's spare CPU, not the requests'.
     */
    threads: number;
    /**
     * `MAIL_SENDER` (an addition of this service; default true): whether the service process sends
     * the outbox's mail. Turn it off where `npm run worker` sends it (with `MAIL_URL` set there):
     * the service then only queues mail, and its requests share no CPU with mail (docs/mail.md).
     */
    sender: boolean;
  };
  checkout: {
    /**
     * How long a paid registration holds its seat (docs/reference/checkout.md): `CHECKOUT_HOLD_MINUTES`
     * (5..120, default 15), or `CHECKOUT_HOLD_SECONDS` (an addition of this service; refused in production)
     * so that tests and local trials can watch a hold end without waiting five minutes.
     */
    holdSeconds: number;
    /**
     * How long after a hold ends an intent still pending is looked up at the provider
     * (docs/reference/checkout.md: 10 minutes). `RECONCILE_AFTER_SECONDS` (an addition of this service;
     * refused in production) shortens it.
     */
    reconcileAfterSeconds: number;
  };
  /**
   * `JOBS_POLL_MS` (an addition of this service; default 1000): how often the background job runner looks
   * for due jobs (hold expiry, reconciliation, refunds) when nothing woke it.
   */
  jobsPollMs: number;
  /**
   * `JOBS_LEASE_MS` (an addition of this service; default 60000): how long a claimed background job is
   * its process's before another may take it over (a process that died mid-job). Tests shorten it
   * to watch a killed process's job resume.
   */
  jobsLeaseMs: number;
  /**
   * `PUBLIC_CACHE_TTL_MS` (an addition of this service; default 1000, 0 turns it off): how long anonymous
   * reads of published data may be answered from this process's memory (kernel/http/public-cache.ts).
   */
  publicCacheTtlMs: number;
  /**
   * `HTTP_HEADERS_TIMEOUT_MS` (an addition of this service; default 10000): how long a request's headers may
   * take to arrive before the connection is answered 408 and closed (kernel/http/wire-limits.ts).
   */
  headersTimeoutMs: number;
  /**
   * Worker threads for documents (kernel/workers/pool.ts; an addition of this service): `RENDER_THREADS`
   * (default 1) threads at most, `RENDER_QUEUE` (default 16) tasks waiting beyond which a request
   * that needs one is answered 503 with `Retry-After`. The mail module's threads are a pool of
   * their own (`mail.threads`).
   */
  render: { threads: number; queue: number };
  /**
   * Browser sign-in (docs/reference/sign-in.md): the OpenID Connect provider and this service's client
   * there. Without an issuer, development shows a local sign-in page and production answers 503.
   */
  oidc: { issuer: string | undefined; clientId: string | undefined; clientSecret: string | undefined };
  /** `SESSION_TTL_HOURS` (default 12): the absolute lifetime of a browser session. */
  sessionTtlHours: number;
  /** Log level; an addition of this service, `LOG_LEVEL` (default `info`, `silent` in tests). */
  logLevel: string;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const DEFAULT_RETRY_SCHEDULE = '0,5,300,1800,7200,18000,36000,50400,72000,86400';
const DEFAULT_MAIL_RETRY_SCHEDULE = '30,60,120,300,600,900';

// `problem` is what a refused value is told: the variable's name, then this.
const Whole = (min: number, max: number) =>
  Type.Optional(
    Type.Integer({ minimum: min, maximum: max, problem: `must be a whole number from ${min} to ${max}` }),
  );
const Flag = () => Type.Optional(Type.Boolean({ problem: 'must be true or false' }));
const HttpUrl = () =>
  Type.Optional(
    Type.String({ pattern: '^https?://[^\\s/?#]+\\S*$', problem: 'must be an absolute http or https URL' }),
  );
const Text = () => Type.Optional(Type.String());

/** The variables of docs/reference/running.md (and the few of our own), after `fromEnvironment`. */
export const ENV_SCHEMA = Type.Object({
  PORT: Whole(0, 65535),
  HOST: Text(),
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^(postgres|postgresql)://|^memory://$',
      problem: 'must start with postgres:// or postgresql://, or be memory://',
    }),
  ),
  DATA_DIR: Text(),
  PUBLIC_BASE_URL: HttpUrl(),
  NODE_ENV: Type.Optional(
    Type.Enum(['development', 'production', 'test'], {
      problem: 'must be one of development, production, test',
    }),
  ),
  AUTH_JWKS_URL: HttpUrl(),
  AUTH_PUBLIC_KEYS: Text(),
  AUTH_ISSUER: Text(),
  AUTH_AUDIENCE: Text(),
  TEST_MODE: Flag(),
  // 32 bytes in base64 are 43 characters and one `=`.
  SECRETS_KEY: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9+/]{43}=$',
      problem: 'must be 32 bytes encoded in base64 (openssl rand -base64 32)',
    }),
  ),
  CREDENTIAL_SIGNING_KEY: Text(),
  MERCADOPAGO_CLIENT_ID: Text(),
  MERCADOPAGO_CLIENT_SECRET: Text(),
  MERCADOPAGO_WEBHOOK_SECRET: Text(),
  MERCADOPAGO_AUTH_URL: HttpUrl(),
  MERCADOPAGO_API_URL: HttpUrl(),
  WEBHOOK_RETRY_SCHEDULE: Type.Optional(
    Type.Array(Type.Number({ minimum: 0, maximum: 7 * 86400 }), {
      minItems: 1,
      problem: 'must be a comma-separated list of non-negative seconds (each at most 7 days)',
    }),
  ),
  WEBHOOK_TIMEOUT_MS: Whole(1, 600_000),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Flag(),
  WEBHOOK_WORKER: Flag(),
  WEBHOOK_CONCURRENCY: Whole(1, 10_000),
  WEBHOOK_ENDPOINT_CONCURRENCY: Whole(1, 10_000),
  WEBHOOK_BREAKER_FAILURES: Whole(1, 1_000_000),
  WEBHOOK_BREAKER_PAUSE_MS: Whole(1, 86_400_000),
  RATE_LIMIT_PER_MINUTE: Whole(0, 10_000_000),
  MAIL_URL: Type.Optional(
    Type.String({
      pattern: '^smtps?://[^\\s/?#]+\\S*$',
      problem: 'must be an smtp:// or smtps:// URL (smtp://user:pass@host:port)',
    }),
  ),
  MAIL_FROM: Text(),
  MAIL_RETRY_SCHEDULE: Type.Optional(
    Type.Array(Type.Number({ minimum: 0.1, maximum: 3600 }), {
      minItems: 1,
      problem: 'must be a comma-separated list of seconds (each from 0.1 to 3600)',
    }),
  ),
  MAIL_RETRY_FOR_SECONDS: Whole(1, 7 * 86400),
  MAIL_THREADS: Whole(1, 64),
  MAIL_SENDER: Flag(),
  CHECKOUT_HOLD_MINUTES: Whole(5, 120),
  CHECKOUT_HOLD_SECONDS: Whole(1, 7200),
  RECONCILE_AFTER_SECONDS: Whole(0, 86_400),
  JOBS_POLL_MS: Whole(10, 60_000),
  JOBS_LEASE_MS: Whole(2_000, 3_600_000),
  PUBLIC_CACHE_TTL_MS: Whole(0, 60_000),
  HTTP_HEADERS_TIMEOUT_MS: Whole(100, 300_000),
  RENDER_THREADS: Whole(1, 64),
  RENDER_QUEUE: Whole(1, 10_000),
  OIDC_ISSUER: HttpUrl(),
  OIDC_CLIENT_ID: Text(),
  OIDC_CLIENT_SECRET: Text(),
  SESSION_TTL_HOURS: Whole(1, 8760),
  LOG_LEVEL: Type.Optional(
    Type.Enum([...LOG_LEVELS], { problem: `must be one of ${LOG_LEVELS.join(', ')}` }),
  ),
});
type ParsedEnv = Static<typeof ENV_SCHEMA>;

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

/**
 * The environment's text in the schema's types: trimmed, empty as unset, whole numbers, flags
 * and the retry list converted where their text has that form. Anything else is left as text,
 * for the schema to refuse.
 */
function fromEnvironment(env: Env): Record<string, unknown> {
  const parsed: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(ENV_SCHEMA.properties)) {
    const text = env[name]?.trim();
    if (text === undefined || text === '') continue;
    parsed[name] = convert((schema as { type?: unknown }).type, text);
  }
  return parsed;
}

function convert(type: unknown, text: string): unknown {
  const number = (part: string) => (/^\d+(\.\d+)?$/.test(part) ? Number(part) : part);
  if (type === 'integer') return /^\d+$/.test(text) ? Number(text) : text;
  if (type === 'boolean') {
    const lower = text.toLowerCase();
    return TRUE.includes(lower) ? true : FALSE.includes(lower) ? false : text;
  }
  if (type === 'array') return text.split(',').map((part) => number(part.trim()));
  return text;
}

// Checked with Ajv, already loaded to validate every request, rather than `typebox/value`, which
// would load ~300 more modules at start for one check. `strictSchema: false` lets `problem` through.
const checkEnv = new Ajv({ strictSchema: false }).compile(ENV_SCHEMA);

function validated(env: Env): ParsedEnv {
  const parsed = fromEnvironment(env);
  const error = checkEnv(parsed) ? undefined : checkEnv.errors?.[0];
  if (error !== undefined) {
    const variable = error.instancePath.split('/')[1] ?? '';
    const schema = ENV_SCHEMA.properties[variable as keyof ParsedEnv] as { problem?: string } | undefined;
    throw new ConfigError(variable, schema?.problem ?? error.message ?? 'is not valid');
  }
  return parsed as ParsedEnv;
}

export function loadConfig(env: Env = process.env): Config {
  const vars = validated(env);
  const nodeEnv = vars.NODE_ENV ?? 'development';
  const isProduction = nodeEnv === 'production';
  const secretsKey = vars.SECRETS_KEY === undefined ? undefined : Buffer.from(vars.SECRETS_KEY, 'base64');
  const auth = {
    jwksUrl: vars.AUTH_JWKS_URL,
    publicKeys: vars.AUTH_PUBLIC_KEYS,
    issuer: vars.AUTH_ISSUER,
    audience: vars.AUTH_AUDIENCE,
  };

  if (vars.OIDC_ISSUER !== undefined && vars.OIDC_CLIENT_ID === undefined) {
    throw new ConfigError('OIDC_CLIENT_ID', "is required with OIDC_ISSUER (this service's client there)");
  }

  if (isProduction) {
    // The provider's answers sign people in: only over TLS.
    if (vars.OIDC_ISSUER?.startsWith('http:')) {
      throw new ConfigError('OIDC_ISSUER', 'must be an https URL in production');
    }
    if (auth.jwksUrl === undefined && auth.publicKeys === undefined) {
      throw new ConfigError(
        'AUTH_JWKS_URL',
        'production needs a key source: set AUTH_JWKS_URL or AUTH_PUBLIC_KEYS',
      );
    }
    if (secretsKey === undefined) {
      throw new ConfigError('SECRETS_KEY', 'is required in production (32 bytes, base64)');
    }
    if (vars.CREDENTIAL_SIGNING_KEY === undefined) {
      throw new ConfigError(
        'CREDENTIAL_SIGNING_KEY',
        'is required in production (an Ed25519 private key, PEM or JWK: openssl genpkey -algorithm ed25519)',
      );
    }
    // Shortcuts for tests and local trials only: production keeps the documented timing
    // (docs/reference/checkout.md).
    for (const name of ['CHECKOUT_HOLD_SECONDS', 'RECONCILE_AFTER_SECONDS'] as const) {
      if (vars[name] !== undefined) throw new ConfigError(name, 'is for tests and development only');
    }
  }

  const port = vars.PORT ?? 8080;
  return {
    port,
    host: vars.HOST ?? '127.0.0.1',
    databaseUrl: vars.DATABASE_URL,
    dataDir: vars.DATA_DIR ?? './data',
    // Unset, the links the service hands out point at this machine on the port it listens on (PORT
    // 0, a port the system picks, is known only once listening: those links say 8080).
    publicBaseUrl: (vars.PUBLIC_BASE_URL ?? `http://127.0.0.1:${port === 0 ? 8080 : port}`).replace(
      /\/+$/,
      '',
    ),
    nodeEnv,
    isProduction,
    auth,
    testMode: vars.TEST_MODE ?? !isProduction,
    secretsKey,
    credentialSigningKey: vars.CREDENTIAL_SIGNING_KEY,
    mercadopago: {
      clientId: vars.MERCADOPAGO_CLIENT_ID,
      clientSecret: vars.MERCADOPAGO_CLIENT_SECRET,
      webhookSecret: vars.MERCADOPAGO_WEBHOOK_SECRET,
      authUrl: vars.MERCADOPAGO_AUTH_URL ?? 'https://auth.mercadopago.com',
      apiUrl: vars.MERCADOPAGO_API_URL ?? 'https://api.mercadopago.com',
    },
    webhooks: {
      retryScheduleSeconds:
        vars.WEBHOOK_RETRY_SCHEDULE ?? (convert('array', DEFAULT_RETRY_SCHEDULE) as number[]),
      timeoutMs: vars.WEBHOOK_TIMEOUT_MS ?? 15000,
      allowPrivateTargets: vars.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? !isProduction,
      worker: vars.WEBHOOK_WORKER ?? true,
      concurrency: vars.WEBHOOK_CONCURRENCY ?? 256,
      endpointConcurrency: vars.WEBHOOK_ENDPOINT_CONCURRENCY ?? 16,
      breakerFailures: vars.WEBHOOK_BREAKER_FAILURES ?? 10,
      breakerPauseMs: vars.WEBHOOK_BREAKER_PAUSE_MS ?? 30_000,
    },
    rateLimitPerMinute: vars.RATE_LIMIT_PER_MINUTE ?? 1200,
    mail: {
      url: vars.MAIL_URL,
      mode: vars.MAIL_URL !== undefined ? 'smtp' : isProduction ? 'off' : 'dev-mailbox',
      from: vars.MAIL_FROM ?? 'Convene <no-reply@localhost>',
      retryScheduleSeconds:
        vars.MAIL_RETRY_SCHEDULE ?? (convert('array', DEFAULT_MAIL_RETRY_SCHEDULE) as number[]),
      retryForSeconds: vars.MAIL_RETRY_FOR_SECONDS ?? 3600,
      threads: vars.MAIL_THREADS ?? 2,
      sender: vars.MAIL_SENDER ?? true,
    },
    checkout: {
      holdSeconds: vars.CHECKOUT_HOLD_SECONDS ?? (vars.CHECKOUT_HOLD_MINUTES ?? 15) * 60,
      reconcileAfterSeconds: vars.RECONCILE_AFTER_SECONDS ?? 600,
    },
    jobsPollMs: vars.JOBS_POLL_MS ?? 1000,
    jobsLeaseMs: vars.JOBS_LEASE_MS ?? 60_000,
    publicCacheTtlMs: vars.PUBLIC_CACHE_TTL_MS ?? 1000,
    headersTimeoutMs: vars.HTTP_HEADERS_TIMEOUT_MS ?? 10_000,
    render: { threads: vars.RENDER_THREADS ?? 1, queue: vars.RENDER_QUEUE ?? 16 },
    oidc: {
      issuer: vars.OIDC_ISSUER,
      clientId: vars.OIDC_CLIENT_ID,
      clientSecret: vars.OIDC_CLIENT_SECRET,
    },
    sessionTtlHours: vars.SESSION_TTL_HOURS ?? 12,
    logLevel: vars.LOG_LEVEL ?? 'info',
  };
}
