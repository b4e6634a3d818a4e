import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify, SignJWT } from 'jose';
import { devSigningKeyPath, didWebFromBaseUrl, loadIssuerKey } from './issuer-key.ts';

const BASE = 'https://convene.example';
const DID = 'did:web:convene.example';

function ed25519() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    pem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    jwk: privateKey.export({ format: 'jwk' }),
    x: publicKey.export({ format: 'jwk' }).x,
  };
}

const configured = (signingKey: string) =>
  loadIssuerKey({ signingKey, dataDir: null, publicBaseUrl: BASE, production: true });

describe('didWebFromBaseUrl', () => {
  it('takes the host and percent-encodes the port, per did:web', () => {
    assert.equal(didWebFromBaseUrl('http://127.0.0.1:8080'), 'did:web:127.0.0.1%3A8080');
    assert.equal(didWebFromBaseUrl('https://convene.example'), DID);
    assert.equal(didWebFromBaseUrl('https://Convene.Example:443/api/v1/'), DID, 'default port and path drop');
    assert.equal(didWebFromBaseUrl('http://localhost:3000/'), 'did:web:localhost%3A3000');
  });

  it('refuses what is not a URL', () => {
    assert.throws(() => didWebFromBaseUrl('convene.example'), /PUBLIC_BASE_URL/);
  });
});

describe('loadIssuerKey', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'convene-issuer-key-'));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('reads a PKCS#8 PEM and signs what its public JWK verifies', async () => {
    const { pem, x } = ed25519();
    const key = await configured(pem);
    assert.equal(key.did, DID);
    assert.deepEqual(key.publicJwk, { kty: 'OKP', crv: 'Ed25519', x });
    assert.equal(key.kid, `${DID}#${await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x })}`);

    const jwt = await new SignJWT({ hello: 'world' })
      .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
      .sign(key.privateKey);
    const { payload } = await jwtVerify(jwt, await importJWK(key.publicJwk, 'EdDSA'), {
      algorithms: ['EdDSA'],
    });
    assert.equal(payload.hello, 'world');
    assert.equal(decodeProtectedHeader(jwt).kid, key.kid);
  });

  it('reads a PEM squeezed onto one line with literal \\n', async () => {
    const { pem, x } = ed25519();
    const key = await configured(pem.trim().replaceAll('\n', '\\n'));
    assert.equal(key.publicJwk.x, x);
  });

  it('reads a private JWK, giving the same kid as the same key in PEM', async () => {
    const { pem, jwk, x } = ed25519();
    const fromJwk = await configured(JSON.stringify(jwk));
    const fromPem = await configured(pem);
    assert.equal(fromJwk.publicJwk.x, x);
    assert.equal(fromJwk.kid, fromPem.kid);
    assert.equal('d' in fromJwk.publicJwk, false, 'the public JWK never carries d');
  });

  it('refuses anything that is not an Ed25519 private key, naming CREDENTIAL_SIGNING_KEY', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const { jwk, pem } = ed25519();
    const other = ed25519();
    const cases: [string, string, RegExp][] = [
      [
        'an RSA PEM',
        rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
        /rsa key; it must be Ed25519/,
      ],
      ['a PKCS#1 RSA PEM', rsa.privateKey.export({ format: 'pem', type: 'pkcs1' }).toString(), /rsa key/],
      ['an EC PEM', ec.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), /ec key/],
      [
        'an EC JWK',
        JSON.stringify(ec.privateKey.export({ format: 'jwk' })),
        /EC\/P-256 JWK; it must be OKP\/Ed25519/,
      ],
      [
        'an Ed25519 public PEM',
        generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }).toString(),
        /public key/,
      ],
      ['an Ed25519 public JWK', JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: jwk.x }), /public JWK/],
      ['a JWK whose x is not its d', JSON.stringify({ ...jwk, x: other.x }), /inconsistent/],
      ['a truncated PEM', pem.slice(0, 60), /not a readable PEM/],
      ['broken JSON', '{"kty": "OKP",', /not valid JSON/],
      ['garbage', 'not-a-key', /must be an Ed25519 private key/],
    ];
    for (const [what, value, message] of cases) {
      await assert.rejects(configured(value), (error: Error) => {
        assert.match(error.message, /CREDENTIAL_SIGNING_KEY/, what);
        assert.match(error.message, message, what);
        return true;
      });
    }
  });

  it('is required in production', async () => {
    for (const signingKey of [undefined, '', '  ']) {
      await assert.rejects(
        loadIssuerKey({ signingKey, dataDir: tempDir(), publicBaseUrl: BASE, production: true }),
        /CREDENTIAL_SIGNING_KEY is required in production/,
      );
    }
  });

  it('generates a development key once into DATA_DIR (0600) and reuses it', async () => {
    const dataDir = join(tempDir(), 'not', 'yet', 'there');
    const options = {
      signingKey: undefined,
      dataDir,
      publicBaseUrl: 'http://127.0.0.1:8080',
      production: false,
    };
    const first = await loadIssuerKey(options);
    const path = devSigningKeyPath(dataDir);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.match(readFileSync(path, 'utf8'), /^-----BEGIN PRIVATE KEY-----/);
    assert.equal(first.did, 'did:web:127.0.0.1%3A8080');

    const second = await loadIssuerKey(options);
    assert.equal(second.kid, first.kid);
    assert.deepEqual(second.publicJwk, first.publicJwk);
  });

  it('refuses a damaged development key instead of replacing it', async () => {
    const dataDir = tempDir();
    writeFileSync(devSigningKeyPath(dataDir), 'garbage');
    await assert.rejects(
      loadIssuerKey({ signingKey: undefined, dataDir, publicBaseUrl: BASE, production: false }),
      (error: Error) =>
        error.message.includes(devSigningKeyPath(dataDir)) && /delete the file/.test(error.message),
    );
  });

  it('prefers CREDENTIAL_SIGNING_KEY over the development file', async () => {
    const dataDir = tempDir();
    const { pem, x } = ed25519();
    const key = await loadIssuerKey({ signingKey: pem, dataDir, publicBaseUrl: BASE, production: false });
    assert.equal(key.publicJwk.x, x);
    assert.throws(() => statSync(devSigningKeyPath(dataDir)), /ENOENT/, 'no development key written');
  });

  it('makes an ephemeral key when there is no DATA_DIR', async () => {
    const options = { signingKey: undefined, dataDir: null, publicBaseUrl: BASE, production: false };
    const [one, two] = [await loadIssuerKey(options), await loadIssuerKey(options)];
    assert.equal(one.did, DID);
    assert.notEqual(one.kid, two.kid);
  });
});
