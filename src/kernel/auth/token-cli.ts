/**
 * `npm run token -- --email a@example.com [--name 'Ana Souza'] [--sub <uuid>] [--ttl 1h]`: prints a bearer
 * token signed with the development key pair in DATA_DIR (created if missing), which a development service
 * started on the same DATA_DIR trusts. Refused in production.
 */
import { parseArgs } from 'node:util';
import { importJWK, SignJWT } from 'jose';
import { loadConfig } from '../config.ts';
import { UUID_PATTERN } from '../db/ids.ts';
import { ensureDevKeyPair } from './dev-keys.ts';
import { userIdForEmail } from './user-ids.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      sub: { type: 'string' },
      ttl: { type: 'string', default: '1h' },
    },
  });
  const config = loadConfig();
  if (config.isProduction)
    throw new Error('npm run token is a development tool; it is refused in production');
  if (values.email === undefined)
    throw new Error(
      "usage: npm run token -- --email a@example.com [--name 'Ana Souza'] [--sub <uuid>] [--ttl 1h]",
    );
  const sub = values.sub ?? userIdForEmail(values.email);
  if (!UUID_PATTERN.test(sub)) throw new Error('--sub must be a UUID');
  const pair = await ensureDevKeyPair(config.dataDir);
  const key = await importJWK(pair.privateJwk, 'EdDSA');
  let jwt = new SignJWT(
    values.name === undefined ? { email: values.email } : { email: values.email, name: values.name },
  )
    .setProtectedHeader({ alg: 'EdDSA', kid: pair.kid, typ: 'JWT' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(values.ttl ?? '1h');
  if (config.auth.issuer !== undefined) jwt = jwt.setIssuer(config.auth.issuer);
  if (config.auth.audience !== undefined) jwt = jwt.setAudience(config.auth.audience);
  process.stdout.write(`${await jwt.sign(key)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`token: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
