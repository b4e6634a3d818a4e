import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { expectError, expectOk } from '../../../test/assertions.ts';
import { manualClock } from '../../../test/clock.ts';
import { createTestApp, signToken, type TestApp } from '../../../test/harness.ts';
import type { MyEvent } from '../../modules/events/events/events.schemas.ts';
import { uuidv7 } from '../db/ids.ts';
import { VerifiedTokenCache } from './verified-tokens.ts';
import { createVerifier } from './verifier.ts';

async function keyPair(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA' };
  return { privateKey, jwk, kid };
}
type KeyPair = Awaited<ReturnType<typeof keyPair>>;

const person = { id: '01937a4e-0000-7000-8000-0000000000bb', email: 'cached@example.com' };
const seconds = (ms: number) => Math.floor(ms / 1000);

/** A token for `person`; `exp` in epoch seconds, or null for a token without one. */
function sign(key: KeyPair, options: { exp?: number | null; claims?: Record<string, unknown> } = {}) {
  const jwt = new SignJWT({ email: person.email, ...options.claims })
    .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
    .setSubject(person.id);
  if (options.exp !== null) jwt.setExpirationTime(options.exp ?? '1h');
  return jwt.sign(key.privateKey);
}

/** A JWKS endpoint whose key list the test changes (a rotation at the identity service). */
describe('remembered tokens and the key set', () => {
  let server: Server;
  let url: string;
  let served: JWK[] = [];
  before(async () => {
    server = createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ keys: served }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Replaces the served keys and makes the verifier fetch them (a token with a new kid does). */
  async function rotateTo(verifier: { verify(token: string): Promise<unknown> }, key: KeyPair) {
    served = [key.jwk];
    await verifier.verify(await sign(key));
  }

  it('answers a token seen before without checking it again, until the cap', async () => {
    const clock = manualClock();
    const [old, next] = [await keyPair('old'), await keyPair('next')];
    served = [old.jwk];
    const verifier = await createVerifier(
      { jwksUrl: url },
      { jwksCooldownMs: 0, cacheMaxAgeMs: 60_000, now: clock.now },
    );
    const token = await sign(old);
    const first = await verifier.verify(token);
    assert.deepEqual(first, { userId: person.id, email: person.email });

    // The old key is gone from the key set; only the remembered answer can still accept the token.
    await rotateTo(verifier, next);
    assert.equal(await verifier.verify(token), first);

    // Past the cap the token is checked again and its key is no longer trusted.
    clock.advance(60_000);
    await assert.rejects(verifier.verify(token), { code: 'UNAUTHORIZED' });
  });

  it('refuses a token without exp every time, never remembering it (docs/reference/auth.md)', async () => {
    const clock = manualClock();
    const key = await keyPair('noexp');
    served = [key.jwk];
    const verifier = await createVerifier(
      { jwksUrl: url },
      { jwksCooldownMs: 0, cacheMaxAgeMs: 1_000, now: clock.now },
    );
    const token = await sign(key, { exp: null });
    await assert.rejects(verifier.verify(token), { code: 'UNAUTHORIZED' });
    clock.advance(500);
    await assert.rejects(verifier.verify(token), { code: 'UNAUTHORIZED' });
  });

  it('keeps at most cacheMaxEntries tokens and drops the oldest first', async () => {
    const [old, next] = [await keyPair('old2'), await keyPair('next2')];
    served = [old.jwk];
    const verifier = await createVerifier({ jwksUrl: url }, { jwksCooldownMs: 0, cacheMaxEntries: 2 });
    const tokens = await Promise.all([1, 2, 3].map((n) => sign(old, { claims: { n } })));
    for (const token of tokens) await verifier.verify(token);

    await rotateTo(verifier, next); // also a verified token: it pushes out the second one
    await assert.rejects(verifier.verify(tokens[0]!), { code: 'UNAUTHORIZED' });
    await assert.rejects(verifier.verify(tokens[1]!), { code: 'UNAUTHORIZED' });
    assert.equal((await verifier.verify(tokens[2]!)).userId, person.id);
  });
});

describe('remembered tokens and claims', () => {
  it('returns the same identity for a repeated token', async () => {
    const key = await keyPair('same');
    const verifier = await createVerifier({ publicKeys: JSON.stringify({ keys: [key.jwk] }) });
    const token = await sign(key);
    const first = await verifier.verify(token);
    const second = await verifier.verify(token);
    assert.deepEqual(second, { userId: person.id, email: person.email });
    assert.equal(second, first);
    assert.ok(Object.isFrozen(second), 'a shared identity cannot be changed by one request');
  });

  it('refuses a remembered token from its exp on', async () => {
    const clock = manualClock();
    const key = await keyPair('exp');
    const verifier = await createVerifier(
      { publicKeys: JSON.stringify({ keys: [key.jwk] }) },
      { now: clock.now },
    );
    const exp = seconds(clock.now()) + 2;
    const token = await sign(key, { exp });
    await verifier.verify(token);

    clock.set(exp * 1000 - 1);
    assert.equal((await verifier.verify(token)).userId, person.id);
    clock.set(exp * 1000);
    await assert.rejects(verifier.verify(token), { code: 'UNAUTHORIZED', message: 'The token has expired' });
  });

  it('refuses a forged token with the same claims even after the genuine one is remembered', async () => {
    const key = await keyPair('real');
    const forger = await keyPair('real'); // same kid, another private key
    const verifier = await createVerifier({ publicKeys: JSON.stringify({ keys: [key.jwk] }) });
    const exp = seconds(Date.now()) + 3600;
    const genuine = await sign(key, { exp });
    await verifier.verify(genuine);

    const forged = await sign(forger, { exp });
    // Same header and payload, only the signature differs.
    assert.equal(forged.split('.').slice(0, 2).join('.'), genuine.split('.').slice(0, 2).join('.'));
    for (let attempt = 0; attempt < 3; attempt++) {
      await assert.rejects(verifier.verify(forged), { code: 'UNAUTHORIZED' });
    }
    // A genuine payload with a signature byte flipped is refused too.
    const [head, body, signature] = genuine.split('.') as [string, string, string];
    const flipped = `${head}.${body}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    await assert.rejects(verifier.verify(flipped), { code: 'UNAUTHORIZED' });
    assert.equal((await verifier.verify(genuine)).userId, person.id);
  });

  it('does not remember a token refused for its nbf, and accepts it once nbf is within the skew', async () => {
    const clock = manualClock();
    const key = await keyPair('nbf');
    const verifier = await createVerifier(
      { publicKeys: JSON.stringify({ keys: [key.jwk] }) },
      { now: clock.now },
    );
    const nbf = seconds(clock.now()) + 120;
    const token = await sign(key, { claims: { nbf } });
    await assert.rejects(verifier.verify(token), { code: 'UNAUTHORIZED' });
    await assert.rejects(verifier.verify(token), { code: 'UNAUTHORIZED' });
    // 60 s of clock skew are allowed (docs/reference/auth.md).
    clock.set((nbf - 60) * 1000);
    assert.equal((await verifier.verify(token)).userId, person.id);
  });

  it('does not remember a token refused for an iat in the future', async () => {
    const clock = manualClock();
    const key = await keyPair('iat');
    const verifier = await createVerifier(
      { publicKeys: JSON.stringify({ keys: [key.jwk] }) },
      { now: clock.now },
    );
    const iat = seconds(clock.now()) + 120;
    const token = await sign(key, { claims: { iat } });
    await assert.rejects(verifier.verify(token), { code: 'UNAUTHORIZED' });
    await assert.rejects(verifier.verify(token), { code: 'UNAUTHORIZED' });
    clock.set((iat - 60) * 1000);
    assert.equal((await verifier.verify(token)).userId, person.id);
  });

  it('keeps remembered tokens per verifier, so another issuer or audience is still enforced', async () => {
    const key = await keyPair('aud');
    const jwks = JSON.stringify({ keys: [key.jwk] });
    const lenient = await createVerifier({ publicKeys: jwks });
    const strict = await createVerifier({
      publicKeys: jwks,
      issuer: 'https://id.example.com',
      audience: 'convene',
    });
    const token = await sign(key, { claims: { iss: 'https://id.example.com', aud: 'elsewhere' } });
    await lenient.verify(token);
    await lenient.verify(token);
    await assert.rejects(strict.verify(token), { code: 'UNAUTHORIZED' });
  });
});

describe('VerifiedTokenCache', () => {
  it('never holds more than maxEntries, dropping the least recently used', () => {
    const clock = manualClock();
    const cache = new VerifiedTokenCache({ maxEntries: 3, maxAgeMs: 60_000, now: clock.now });
    const exp = seconds(clock.now()) + 3600;
    for (let index = 0; index < 10; index++) {
      cache.set(`token-${index}`, { userId: `${index}`, email: 'a@example.com' }, exp, clock.now());
      assert.ok(cache.size <= 3);
    }
    assert.equal(cache.size, 3);
    assert.equal(cache.get('token-6'), undefined);
    assert.deepEqual(
      ['token-7', 'token-8', 'token-9'].map((token) => cache.get(token)?.userId),
      ['7', '8', '9'],
    );
  });

  it('ends an entry at the earlier of exp and the cap, and drops it when looked up after', () => {
    const clock = manualClock();
    const start = Math.ceil(clock.now() / 1000) * 1000;
    clock.set(start);
    const cache = new VerifiedTokenCache({ maxEntries: 10, maxAgeMs: 5_000, now: clock.now });
    const identity = { userId: 'u', email: 'u@example.com' };
    cache.set('soon', identity, start / 1000 + 2, start);
    cache.set('later', identity, start / 1000 + 3600, start);
    clock.set(start + 1_999);
    assert.ok(cache.get('soon'));
    clock.set(start + 2_000);
    assert.equal(cache.get('soon'), undefined);
    assert.equal(cache.size, 1);
    clock.set(start + 4_999);
    assert.ok(cache.get('later'));
    clock.set(start + 5_000);
    assert.equal(cache.get('later'), undefined);
    assert.equal(cache.size, 0);
  });
});

describe('a remembered token over HTTP', () => {
  let t: TestApp;
  const clock = manualClock();
  before(async () => {
    t = await createTestApp({}, { clock });
  });
  after(() => t.close());

  it('is a 401 once its exp has passed by the clock of the app', async () => {
    // A minute, not seconds: on a loaded machine signing and the first request can take seconds of
    // real time, and the token must still be valid when the app's clock is pinned.
    const token = await signToken({ id: uuidv7(), email: 'short@example.com' }, { expiresIn: '60s' });
    clock.set(Date.now());
    expectOk(await t.get<MyEvent[]>('/events/mine', { token }));
    expectOk(await t.get<MyEvent[]>('/events/mine', { token }));
    // exp is whole seconds from the signing second, so at most 60 s from now.
    clock.advance(60_001);
    expectError(await t.get<MyEvent[]>('/events/mine', { token }), 401, 'UNAUTHORIZED');
  });
});
