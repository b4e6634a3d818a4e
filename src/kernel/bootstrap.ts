/**
 * What `main.ts`, `npm run migrate` and the worker share before serving: the validated config,
 * development files in DATA_DIR (outside production only), an open and migrated database, and the
 * token verifier.
 */
import { ensureDevKeyPair, ensureDevSecretsKey } from './auth/dev-keys.ts';
import { createVerifier, type TokenVerifier } from './auth/verifier.ts';
import { type Config, loadConfig } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';

export interface Booted {
  config: Config;
  database: DatabaseHandle;
  verifier: TokenVerifier;
  /** Things worth a warning line once the logger exists. */
  notices: string[];
}

export async function bootstrap(options: { migrate?: boolean } = {}): Promise<Booted> {
  const config = loadConfig();
  const notices: string[] = [];

  if (config.secretsKey === undefined) {
    config.secretsKey = ensureDevSecretsKey(config.dataDir);
    notices.push(`SECRETS_KEY not set: using the development key in ${config.dataDir} (never in production)`);
  }

  let verifier: TokenVerifier;
  if (config.auth.jwksUrl === undefined && config.auth.publicKeys === undefined) {
    const pair = await ensureDevKeyPair(config.dataDir);
    verifier = await createVerifier({
      ...config.auth,
      publicKeys: JSON.stringify({ keys: [pair.publicJwk] }),
    });
    notices.push(
      `no AUTH_* key source: trusting the development key pair in ${config.dataDir} (npm run token -- --email you@example.com)`,
    );
  } else {
    verifier = await createVerifier(config.auth);
  }

  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  if (options.migrate ?? true) await database.migrate();
  return { config, database, verifier, notices };
}
