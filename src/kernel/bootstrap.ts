/**
 * What `main.ts`, `npm run migrate` and the worker share before serving: the validated config,
 * development files in DATA_DIR (outside production only), an open and migrated database, and the
 * token verifier.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDevKeyPair, ensureDevSecretsKey } from './auth/dev-keys.ts';
import { createVerifier, type TokenVerifier } from './auth/verifier.ts';
import { type Config, loadConfig } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import type { StartProgress } from './start-up.ts';

export interface Booted {
  config: Config;
  database: DatabaseHandle;
  verifier: TokenVerifier;
  /** Things worth a warning line once the logger exists. */
  notices: string[];
  /** Tokens are checked against the development key pair in DATA_DIR (`npm run token`). */
  usesDevKeys: boolean;
}

export interface BootstrapOptions {
  /** Apply pending migrations (default true). */
  migrate?: boolean;
  /** Told as each phase begins (main.ts, worker.ts). */
  progress?: StartProgress;
  /** Runs once the config is valid, before the database opens (main.ts reserves its port). */
  beforeDatabase?: (config: Config) => Promise<void>;
}

/** Where the database is, for a person: never the URL itself, which may hold a password. */
export function describeDatabase(config: Config): string {
  const url = config.databaseUrl;
  if (url === 'memory://') return 'embedded, in memory';
  if (url?.startsWith('postgres')) {
    const parsed = new URL(url);
    return `PostgreSQL at ${parsed.host}${parsed.pathname}`;
  }
  return `embedded, in ${config.dataDir.replace(/\/+$/, '')}/pglite`;
}

export async function bootstrap(options: BootstrapOptions = {}): Promise<Booted> {
  const config = loadConfig();
  await options.beforeDatabase?.(config);
  const notices: string[] = [];

  if (config.secretsKey === undefined) {
    config.secretsKey = ensureDevSecretsKey(config.dataDir);
    notices.push(`SECRETS_KEY not set: using the development key in ${config.dataDir} (never in production)`);
  }

  let verifier: TokenVerifier;
  const usesDevKeys = config.auth.jwksUrl === undefined && config.auth.publicKeys === undefined;
  if (usesDevKeys) {
    const pair = await ensureDevKeyPair(config.dataDir);
    verifier = await createVerifier(
      { ...config.auth, publicKeys: JSON.stringify({ keys: [pair.publicJwk] }) },
      // A token signed by another key was most likely minted before DATA_DIR was reset (a new
      // key pair was made then): the refusal says how to get one this service trusts.
      {
        unknownKeyHint:
          'was it minted before DATA_DIR was reset? Mint a new one with `npm run token -- --email you@example.com`',
      },
    );
    notices.push(
      `no AUTH_* key source: trusting the development key pair in ${config.dataDir} (npm run token -- --email you@example.com)`,
    );
  } else {
    verifier = await createVerifier(config.auth);
  }

  const isFirstStart =
    config.databaseUrl === undefined && !existsSync(join(config.dataDir, 'pglite', 'PG_VERSION'));
  options.progress?.phase(
    `opening the database (${describeDatabase(config)}${isFirstStart ? '; created on this first start, a few seconds' : ''})`,
  );
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  if (options.migrate ?? true) {
    options.progress?.phase('applying pending migrations');
    await database.migrate();
  }
  return { config, database, verifier, notices, usesDevKeys };
}
