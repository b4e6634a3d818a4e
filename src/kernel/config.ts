/**
 * Configuration: the environment is read here, once, and nowhere else (contract section 1).
 * `loadConfig` is pure: it parses and validates; files in DATA_DIR (development keys, the
 * development SECRETS_KEY) are created later by `kernel/bootstrap.ts`, so a bad environment fails
 * before anything is written.
 */

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
     * `WEBHOOK_WORKER` (not in the contract; default true): whether the service process runs the
     * delivery worker. Turn it off when workers run as their own processes (`npm run worker`).
     */
    worker: boolean;
  };
  rateLimitPerMinute: number;
  /**
   * `PUBLIC_CACHE_TTL_MS` (not in the contract; default 1000, 0 turns it off): how long anonymous
   * reads of published data may be answered from this process's memory (kernel/http/public-cache.ts).
   */
  publicCacheTtlMs: number;
  /** Log level; not in the contract table, `LOG_LEVEL` (default `info`, `silent` in tests). */
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

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };

  const nodeEnv = parseEnum('NODE_ENV', read('NODE_ENV') ?? 'development', [
    'development',
    'production',
    'test',
  ] as const);
  const isProduction = nodeEnv === 'production';

  const databaseUrl = read('DATABASE_URL');
  if (databaseUrl !== undefined && !/^(postgres|postgresql):\/\/|^memory:\/\/$/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'must start with postgres:// or postgresql://, or be memory://');
  }

  const secretsKeyText = read('SECRETS_KEY');
  let secretsKey: Buffer | undefined;
  if (secretsKeyText !== undefined) {
    secretsKey = Buffer.from(secretsKeyText, 'base64');
    if (secretsKey.length !== 32 || !/^[A-Za-z0-9+/]+={0,2}$/.test(secretsKeyText)) {
      throw new ConfigError('SECRETS_KEY', 'must be 32 bytes encoded in base64 (openssl rand -base64 32)');
    }
  }

  const auth = {
    jwksUrl: optionalUrl('AUTH_JWKS_URL', read('AUTH_JWKS_URL')),
    publicKeys: read('AUTH_PUBLIC_KEYS'),
    issuer: read('AUTH_ISSUER'),
    audience: read('AUTH_AUDIENCE'),
  };

  if (isProduction) {
    if (auth.jwksUrl === undefined && auth.publicKeys === undefined) {
      throw new ConfigError(
        'AUTH_JWKS_URL',
        'production needs a key source: set AUTH_JWKS_URL or AUTH_PUBLIC_KEYS',
      );
    }
    if (secretsKey === undefined) {
      throw new ConfigError('SECRETS_KEY', 'is required in production (32 bytes, base64)');
    }
  }

  const retrySchedule = read('WEBHOOK_RETRY_SCHEDULE') ?? '0,5,300,1800,7200,18000,36000,50400,72000,86400';
  const retryScheduleSeconds = retrySchedule.split(',').map((part) => {
    const seconds = Number(part.trim());
    if (!/^\d+(\.\d+)?$/.test(part.trim()) || !Number.isFinite(seconds) || seconds > 7 * 86400) {
      throw new ConfigError(
        'WEBHOOK_RETRY_SCHEDULE',
        'must be a comma-separated list of non-negative seconds (each at most 7 days)',
      );
    }
    return seconds;
  });

  return {
    port: parseInteger('PORT', read('PORT'), 8080, 0, 65535),
    host: read('HOST') ?? '127.0.0.1',
    databaseUrl,
    dataDir: read('DATA_DIR') ?? './data',
    publicBaseUrl: requiredUrl('PUBLIC_BASE_URL', read('PUBLIC_BASE_URL') ?? 'http://127.0.0.1:8080').replace(
      /\/+$/,
      '',
    ),
    nodeEnv,
    isProduction,
    auth,
    testMode: parseBoolean('TEST_MODE', read('TEST_MODE'), !isProduction),
    secretsKey,
    mercadopago: {
      clientId: read('MERCADOPAGO_CLIENT_ID'),
      clientSecret: read('MERCADOPAGO_CLIENT_SECRET'),
      webhookSecret: read('MERCADOPAGO_WEBHOOK_SECRET'),
      authUrl: requiredUrl(
        'MERCADOPAGO_AUTH_URL',
        read('MERCADOPAGO_AUTH_URL') ?? 'https://auth.mercadopago.com',
      ),
      apiUrl: requiredUrl(
        'MERCADOPAGO_API_URL',
        read('MERCADOPAGO_API_URL') ?? 'https://api.mercadopago.com',
      ),
    },
    webhooks: {
      retryScheduleSeconds,
      timeoutMs: parseInteger('WEBHOOK_TIMEOUT_MS', read('WEBHOOK_TIMEOUT_MS'), 15000, 1, 600_000),
      allowPrivateTargets: parseBoolean(
        'WEBHOOK_ALLOW_PRIVATE_TARGETS',
        read('WEBHOOK_ALLOW_PRIVATE_TARGETS'),
        !isProduction,
      ),
      worker: parseBoolean('WEBHOOK_WORKER', read('WEBHOOK_WORKER'), true),
    },
    rateLimitPerMinute: parseInteger(
      'RATE_LIMIT_PER_MINUTE',
      read('RATE_LIMIT_PER_MINUTE'),
      1200,
      0,
      10_000_000,
    ),
    publicCacheTtlMs: parseInteger('PUBLIC_CACHE_TTL_MS', read('PUBLIC_CACHE_TTL_MS'), 1000, 0, 60_000),
    logLevel: parseEnum('LOG_LEVEL', read('LOG_LEVEL') ?? 'info', LOG_LEVELS),
  };
}

function parseInteger(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new ConfigError(name, `must be a whole number from ${min} to ${max}`);
  const number = Number(value);
  if (number < min || number > max)
    throw new ConfigError(name, `must be a whole number from ${min} to ${max}`);
  return number;
}

function parseBoolean(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  const lower = value.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(lower)) return true;
  if (['false', '0', 'no', 'off'].includes(lower)) return false;
  throw new ConfigError(name, 'must be true or false');
}

function parseEnum<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

function optionalUrl(name: string, value: string | undefined): string | undefined {
  return value === undefined ? undefined : requiredUrl(name, value);
}

function requiredUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, 'must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, 'must be an absolute http or https URL');
  }
  return value;
}
