import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

const KEY = Buffer.alloc(32, 7).toString('base64');

describe('configuration', () => {
  it('points the links it hands out at the port it listens on, unless PUBLIC_BASE_URL says otherwise', () => {
    assert.equal(loadConfig({ PORT: '3000' }).publicBaseUrl, 'http://127.0.0.1:3000');
    assert.equal(loadConfig({ PORT: '0' }).publicBaseUrl, 'http://127.0.0.1:8080');
    assert.equal(
      loadConfig({ PORT: '3000', PUBLIC_BASE_URL: 'https://events.example' }).publicBaseUrl,
      'https://events.example',
    );
  });

  it('has the documented defaults in development', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.dataDir, './data');
    assert.equal(config.publicBaseUrl, 'http://127.0.0.1:8080');
    assert.equal(config.nodeEnv, 'development');
    assert.equal(config.testMode, true);
    assert.equal(config.webhooks.allowPrivateTargets, true);
    assert.deepEqual(
      config.webhooks.retryScheduleSeconds,
      [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400],
    );
    assert.equal(config.webhooks.timeoutMs, 15000);
    assert.equal(config.rateLimitPerMinute, 1200);
    assert.equal(config.headersTimeoutMs, 10_000);
    assert.equal(config.mercadopago.authUrl, 'https://auth.mercadopago.com');
    assert.equal(config.mercadopago.apiUrl, 'https://api.mercadopago.com');
    assert.deepEqual(config.oidc, { issuer: undefined, clientId: undefined, clientSecret: undefined });
    assert.equal(config.sessionTtlHours, 12);
  });

  it('reads the browser sign-in settings', () => {
    const config = loadConfig({
      OIDC_ISSUER: 'https://id.example.com',
      OIDC_CLIENT_ID: 'convene',
      OIDC_CLIENT_SECRET: 'secret',
      SESSION_TTL_HOURS: '8',
    });
    assert.deepEqual(config.oidc, {
      issuer: 'https://id.example.com',
      clientId: 'convene',
      clientSecret: 'secret',
    });
    assert.equal(config.sessionTtlHours, 8);
  });

  it('keeps mail in the development mailbox without MAIL_URL, turns it off in production, sends with it', () => {
    const development = loadConfig({}).mail;
    assert.deepEqual(development, {
      url: undefined,
      mode: 'dev-mailbox',
      from: 'Convene <no-reply@localhost>',
      retryScheduleSeconds: [30, 60, 120, 300, 600, 900],
      retryForSeconds: 3600,
      threads: 2,
      sender: true,
    });
    const production = {
      NODE_ENV: 'production',
      AUTH_JWKS_URL: 'https://id.example.com/jwks',
      SECRETS_KEY: KEY,
    };
    const signing = { CREDENTIAL_SIGNING_KEY: 'a key' };
    assert.equal(loadConfig({ ...production, ...signing }).mail.mode, 'off');
    const smtp = loadConfig({ ...production, ...signing, MAIL_URL: 'smtps://u:p@mail.example.com:465' }).mail;
    assert.equal(smtp.mode, 'smtp');
    assert.equal(smtp.url, 'smtps://u:p@mail.example.com:465');
    assert.deepEqual(loadConfig({ MAIL_RETRY_SCHEDULE: '0.2, 1' }).mail.retryScheduleSeconds, [0.2, 1]);
    assert.equal(loadConfig({ MAIL_THREADS: '1' }).mail.threads, 1);
    assert.throws(() => loadConfig({ MAIL_THREADS: '0' }), /MAIL_THREADS/);
    assert.equal(loadConfig({ MAIL_SENDER: 'false' }).mail.sender, false);
    assert.throws(() => loadConfig({ MAIL_SENDER: 'sometimes' }), /MAIL_SENDER/);
  });

  it('turns development conveniences off in production', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      AUTH_JWKS_URL: 'https://id.example.com/jwks',
      SECRETS_KEY: KEY,
      CREDENTIAL_SIGNING_KEY: 'a key, parsed when the events module starts',
    });
    assert.equal(config.testMode, false);
    assert.equal(config.webhooks.allowPrivateTargets, false);
    assert.equal(config.secretsKey?.length, 32);
  });

  const refusals: Array<[string, Record<string, string>, string]> = [
    [
      'a production start without a key source',
      { NODE_ENV: 'production', SECRETS_KEY: KEY },
      'AUTH_JWKS_URL',
    ],
    [
      'a production start without SECRETS_KEY',
      { NODE_ENV: 'production', AUTH_PUBLIC_KEYS: '{"keys":[]}' },
      'SECRETS_KEY',
    ],
    [
      'a production start without CREDENTIAL_SIGNING_KEY',
      { NODE_ENV: 'production', AUTH_PUBLIC_KEYS: '{"keys":[]}', SECRETS_KEY: KEY },
      'CREDENTIAL_SIGNING_KEY',
    ],
    [
      'a SECRETS_KEY that is not 32 bytes',
      { SECRETS_KEY: Buffer.alloc(16).toString('base64') },
      'SECRETS_KEY',
    ],
    ['a non-numeric PORT', { PORT: 'eighty' }, 'PORT'],
    ['a PORT out of range', { PORT: '70000' }, 'PORT'],
    ['an unknown NODE_ENV', { NODE_ENV: 'staging' }, 'NODE_ENV'],
    ['a DATABASE_URL of another scheme', { DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    ['a PUBLIC_BASE_URL that is not a URL', { PUBLIC_BASE_URL: 'localhost:8080' }, 'PUBLIC_BASE_URL'],
    ['a TEST_MODE that is not a boolean', { TEST_MODE: 'maybe' }, 'TEST_MODE'],
    [
      'a retry schedule with a negative entry',
      { WEBHOOK_RETRY_SCHEDULE: '0,5,-1' },
      'WEBHOOK_RETRY_SCHEDULE',
    ],
    ['a zero timeout', { WEBHOOK_TIMEOUT_MS: '0' }, 'WEBHOOK_TIMEOUT_MS'],
    ['a negative rate limit', { RATE_LIMIT_PER_MINUTE: '-1' }, 'RATE_LIMIT_PER_MINUTE'],
    ['a JWKS URL that is not http(s)', { AUTH_JWKS_URL: 'ftp://keys' }, 'AUTH_JWKS_URL'],
    ['a PORT in exponent notation', { PORT: '8e3' }, 'PORT'],
    [
      'a retry schedule longer than 7 days a step',
      { WEBHOOK_RETRY_SCHEDULE: '0,700000' },
      'WEBHOOK_RETRY_SCHEDULE',
    ],
    ['an unknown LOG_LEVEL', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    ['an OIDC_ISSUER without its client', { OIDC_ISSUER: 'https://id.example.com' }, 'OIDC_CLIENT_ID'],
    [
      'an OIDC_ISSUER that is not a URL',
      { OIDC_ISSUER: 'id.example.com', OIDC_CLIENT_ID: 'c' },
      'OIDC_ISSUER',
    ],
    [
      'a plain-http OIDC_ISSUER in production',
      {
        NODE_ENV: 'production',
        AUTH_PUBLIC_KEYS: '{"keys":[]}',
        SECRETS_KEY: KEY,
        OIDC_ISSUER: 'http://id.example.com',
        OIDC_CLIENT_ID: 'c',
      },
      'OIDC_ISSUER',
    ],
    ['a session lifetime of 0 hours', { SESSION_TTL_HOURS: '0' }, 'SESSION_TTL_HOURS'],
    ['a session lifetime in minutes', { SESSION_TTL_HOURS: '1.5' }, 'SESSION_TTL_HOURS'],
    ['a headers timeout under 100 ms', { HTTP_HEADERS_TIMEOUT_MS: '50' }, 'HTTP_HEADERS_TIMEOUT_MS'],
    ['a MAIL_URL of another scheme', { MAIL_URL: 'https://mail.example.com' }, 'MAIL_URL'],
    ['a mail retry delay of zero', { MAIL_RETRY_SCHEDULE: '30,0' }, 'MAIL_RETRY_SCHEDULE'],
    ['a mail retry window of zero', { MAIL_RETRY_FOR_SECONDS: '0' }, 'MAIL_RETRY_FOR_SECONDS'],
  ];
  for (const [name, env, variable] of refusals) {
    it(`refuses ${name}, naming ${variable}`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) =>
          error instanceof ConfigError && error.variable === variable && error.message.startsWith(variable),
      );
    });
  }

  it('parses the retry schedule, booleans and memory://', () => {
    const config = loadConfig({
      WEBHOOK_RETRY_SCHEDULE: '0, 1,2.5',
      TEST_MODE: 'off',
      DATABASE_URL: 'memory://',
      RATE_LIMIT_PER_MINUTE: '0',
      PUBLIC_BASE_URL: 'https://api.example.com/',
    });
    assert.deepEqual(config.webhooks.retryScheduleSeconds, [0, 1, 2.5]);
    assert.equal(config.testMode, false);
    assert.equal(config.databaseUrl, 'memory://');
    assert.equal(config.rateLimitPerMinute, 0);
    assert.equal(config.publicBaseUrl, 'https://api.example.com');
  });

  it('reads yes/on/no/off in any case as flags, and blank values as unset', () => {
    const config = loadConfig({ TEST_MODE: ' YES ', WEBHOOK_WORKER: 'Off', PORT: '  ', HOST: '' });
    assert.equal(config.testMode, true);
    assert.equal(config.webhooks.worker, false);
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1');
  });
});
