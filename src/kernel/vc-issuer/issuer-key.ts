/**
 * The service's credential issuer key (docs/reference/attendance.md): an Ed25519 key that signs Open
 * Badges credentials and status lists as `did:web` of PUBLIC_BASE_URL's host.
 *
 * Where the key comes from:
 * - CREDENTIAL_SIGNING_KEY, as a PKCS#8 PEM or as a JWK (OKP/Ed25519 with `d`). Anything else is
 *   refused with a message naming the variable, so a wrong secret fails the start, never a signature.
 * - unset in production: refused, since a key generated on the spot would change at every deploy and
 *   leave every credential already issued unverifiable.
 * - unset in development: generated once into `DATA_DIR/credential-signing-key.pem` (mode 0600),
 *   like the development auth key and SECRETS_KEY (`../auth/dev-keys.ts`), and reused on later starts.
 * - unset with no DATA_DIR (in-memory test databases): an ephemeral key, gone with the process.
 *
 * The `kid` is `<did>#<RFC 7638 JWK thumbprint>` rather than a fixed `#key-1`: a new key gets a new
 * id by itself, so after a rotation the DID document can list the old and new keys side by side and
 * a credential's `kid` always names the very key that signed it.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  type webcrypto,
} from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint, type JWK } from 'jose';

export interface IssuerKey {
  /** `did:web:<host>` of PUBLIC_BASE_URL. */
  did: string;
  /** The verification method id: `<did>#<thumbprint>`; the JWS header's `kid`. */
  kid: string;
  /** What jose's `SignJWT.sign` / `CompactSign.sign` take. */
  privateKey: webcrypto.CryptoKey | KeyObject;
  /** `{kty: 'OKP', crv: 'Ed25519', x}`: the public half only, never `d`. */
  publicJwk: JWK;
}

export interface LoadIssuerKeyOptions {
  /** CREDENTIAL_SIGNING_KEY as read from the environment. */
  signingKey: string | undefined;
  /** DATA_DIR; null when the database is in memory (tests). */
  dataDir: string | null;
  publicBaseUrl: string;
  production: boolean;
}

const ENV_NAME = 'CREDENTIAL_SIGNING_KEY';
const DEV_KEY_FILE = 'credential-signing-key.pem';

export function devSigningKeyPath(dataDir: string): string {
  return join(dataDir, DEV_KEY_FILE);
}

/**
 * `did:web` of the URL's host. The did:web method spec percent-encodes the port's colon
 * (`127.0.0.1:8080` becomes `127.0.0.1%3A8080`); the path is left out because the service serves its
 * DID document at the host's `/.well-known/did.json`. `URL` has already lower-cased the host,
 * punycoded an internationalised name and dropped a default port.
 */
export function didWebFromBaseUrl(publicBaseUrl: string): string {
  let url: URL;
  try {
    url = new URL(publicBaseUrl);
  } catch {
    throw new Error(
      `PUBLIC_BASE_URL is not a URL, so the credential issuer has no did:web: ${publicBaseUrl}`,
    );
  }
  if (url.host === '') throw new Error(`PUBLIC_BASE_URL has no host for a did:web: ${publicBaseUrl}`);
  return `did:web:${encodeURIComponent(url.host)}`;
}

export async function loadIssuerKey(options: LoadIssuerKeyOptions): Promise<IssuerKey> {
  const did = didWebFromBaseUrl(options.publicBaseUrl);
  const configured = options.signingKey?.trim() ?? '';
  let privateKey: KeyObject;
  if (configured !== '') {
    privateKey = parseSigningKey(configured, ENV_NAME);
  } else if (options.production) {
    throw new Error(`${ENV_NAME} is required in production (an Ed25519 private key, PEM or JWK)`);
  } else if (options.dataDir === null) {
    privateKey = generateKeyPairSync('ed25519').privateKey;
  } else {
    privateKey = ensureDevSigningKey(options.dataDir);
  }
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' });
  const publicJwk: JWK = { kty: 'OKP', crv: 'Ed25519', x };
  const kid = `${did}#${await calculateJwkThumbprint(publicJwk, 'sha256')}`;
  return { did, kid, privateKey, publicJwk };
}

/**
 * An Ed25519 private key from PEM or JWK text; `source` names where it came from in every error
 * (the variable, or the development key file).
 */
function parseSigningKey(text: string, source: string): KeyObject {
  if (text.startsWith('{')) return parseJwk(text, source);
  if (text.includes('-----BEGIN')) return parsePem(text, source);
  throw new Error(`${source} must be an Ed25519 private key, as PEM (PKCS#8) or as a JWK`);
}

function parseJwk(text: string, source: string): KeyObject {
  let jwk: unknown;
  try {
    jwk = JSON.parse(text);
  } catch {
    throw new Error(`${source} starts like a JWK but is not valid JSON`);
  }
  if (typeof jwk !== 'object' || jwk === null) throw new Error(`${source} is not a JWK object`);
  const { kty, crv, d, x } = jwk as Record<string, unknown>;
  if (kty !== 'OKP' || crv !== 'Ed25519') {
    throw new Error(`${source} is a ${String(kty)}/${String(crv ?? '-')} JWK; it must be OKP/Ed25519`);
  }
  if (typeof d !== 'string') throw new Error(`${source} is a public JWK; it must hold the private part "d"`);
  // RFC 8037 makes `x` required, and Node's import needs it.
  if (typeof x !== 'string') throw new Error(`${source} lacks the public part "x" of the JWK`);
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: { kty, crv, d, x }, format: 'jwk' });
  } catch (error) {
    throw new Error(`${source} is not a usable Ed25519 JWK: ${(error as Error).message}`);
  }
  // Node derives the public key from `d` and ignores a wrong `x`; a JWK whose halves disagree is a
  // pasting mistake that would publish a DID document no signature matches, so refuse it.
  if (createPublicKey(key).export({ format: 'jwk' }).x !== x) {
    throw new Error(`${source} is inconsistent: its "x" is not the public key of its "d"`);
  }
  return key;
}

function parsePem(text: string, source: string): KeyObject {
  // A PEM put in a one-line environment variable often arrives with literal "\n" sequences.
  const pem = text.includes('\n') ? text : text.replaceAll('\\n', '\n');
  if (/-----BEGIN [A-Z ]*PUBLIC KEY-----|-----BEGIN CERTIFICATE-----/.test(pem)) {
    throw new Error(`${source} is a public key or certificate; it must be the Ed25519 private key`);
  }
  if (pem.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----')) {
    throw new Error(`${source} is an encrypted private key; give the unencrypted PKCS#8 PEM`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch (error) {
    throw new Error(`${source} is not a readable PEM private key: ${(error as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(`${source} is an ${String(key.asymmetricKeyType)} key; it must be Ed25519`);
  }
  return key;
}

/**
 * The development key: created once, then read back. The API and the worker may start together, so
 * the file is created atomically and only if absent (written aside, then hard-linked into place:
 * `link` fails when the name exists and never exposes a half-written file). Whoever loses the race
 * reads the winner's key, so both processes sign with the same one.
 */
function ensureDevSigningKey(dataDir: string): KeyObject {
  const path = devSigningKeyPath(dataDir);
  if (!existsSync(path)) createOnce(dataDir, path, generatePem());
  try {
    return parsePem(readFileSync(path, 'utf8').trim(), path);
  } catch (error) {
    // Not regenerated silently: every credential signed with the old key would stop verifying.
    throw new Error(
      `${(error as Error).message} (delete the file to generate a new key, or set ${ENV_NAME})`,
    );
  }
}

function generatePem(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

function createOnce(dataDir: string, path: string, content: string): void {
  mkdirSync(dataDir, { recursive: true });
  const aside = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(aside, content, { mode: 0o600 });
  chmodSync(aside, 0o600); // the mode above is masked by the umask
  try {
    linkSync(aside, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A file system without hard links: an exclusive create is the next best thing.
    if (code !== 'EEXIST') writeExclusive(path, content);
  } finally {
    unlinkSync(aside);
  }
}

function writeExclusive(path: string, content: string): void {
  try {
    writeFileSync(path, content, { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
