/**
 * Development conveniences (never used in production): an Ed25519 key pair and a SECRETS_KEY kept
 * in DATA_DIR, so `npm start` works with no configuration and `npm run token` can mint tokens that
 * the running service trusts.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { uuidv7 } from '../db/ids.ts';

export interface DevKeyPair {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

const KEY_FILE = 'dev-auth-key.json';
const SECRETS_FILE = 'secrets.key';

export function devKeyPath(dataDir: string): string {
  return join(dataDir, KEY_FILE);
}

export async function ensureDevKeyPair(dataDir: string): Promise<DevKeyPair> {
  const path = devKeyPath(dataDir);
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as DevKeyPair;
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const kid = `dev-${uuidv7()}`;
  const pair: DevKeyPair = {
    kid,
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'EdDSA', use: 'sig' },
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' },
  };
  writePrivateFile(dataDir, KEY_FILE, JSON.stringify(pair, null, 2));
  return pair;
}

export function readDevKeyPair(dataDir: string): DevKeyPair | undefined {
  const path = devKeyPath(dataDir);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as DevKeyPair) : undefined;
}

/** The development SECRETS_KEY: 32 random bytes, created once and kept in DATA_DIR. */
export function ensureDevSecretsKey(dataDir: string): Buffer {
  const path = join(dataDir, SECRETS_FILE);
  if (existsSync(path)) {
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    if (key.length === 32) return key;
  }
  const key = randomBytes(32);
  writePrivateFile(dataDir, SECRETS_FILE, key.toString('base64'));
  return key;
}

function writePrivateFile(dataDir: string, name: string, content: string): void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, name);
  writeFileSync(path, content, { mode: 0o600 });
  chmodSync(path, 0o600);
}
