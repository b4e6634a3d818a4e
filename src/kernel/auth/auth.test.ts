import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { exportJWK, exportSPKI, generateKeyPair, type JWK, SignJWT } from 'jose';
import { expectError, expectOk } from '../../../test/assertions.ts';
import { createTestApp, signToken, type TestApp } from '../../../test/harness.ts';
import type { MyEvent } from '../../modules/events/events/events.schemas.ts';
import { uuidv7 } from '../db/ids.ts';
import { actors } from './actors.table.ts';
import { createVerifier } from './verifier.ts';

async function keyPair(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA' };
  return { privateKey, publicKey, jwk, kid };
}

const person = { id: '01937a4e-0000-7000-8000-0000000000aa', email: 'kid@example.com' };

const sign = (
  key: Awaited<ReturnType<typeof keyPair>>,
  claims: Record<string, unknown> = {},
  subject = true,
) => {
  let jwt = new SignJWT({ email: person.email, ...claims })
    .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
    .setExpirationTime('5m');
  if (subject) jwt = jwt.setSubject(person.id);
  return jwt.sign(key.privateKey);
};

describe('token verification with a JWKS URL', () => {
  let server: Server;
  let url: string;
  let served: JWK[] = [];
  let fetches = 0;
  before(async () => {
    server = createServer((_request, response) => {
      fetches++;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ keys: served }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('picks keys by kid and re-fetches for an unknown kid at most once per cooldown', async () => {
    const first = await keyPair('k1');
    const second = await keyPair('k2');
    served = [first.jwk];
    const verifier = await createVerifier({ jwksUrl: url }, { jwksCooldownMs: 300 });

    assert.deepEqual(await verifier.verify(await sign(first)), { userId: person.id, email: person.email });
    assert.equal(fetches, 1);

    // The identity service rotates in a new key.
    served = [first.jwk, second.jwk];
    // Within the cooldown the set is not fetched again: the new kid is refused.
    await assert.rejects(verifier.verify(await sign(second)), { code: 'UNAUTHORIZED' });
    assert.equal(fetches, 1);

    // The cooldown is jose's own (createRemoteJWKSet reads Date.now, no clock can be given), so
    // the test waits out the short 300 ms it configured rather than faking the process's timers.
    await sleep(350);
    assert.equal((await verifier.verify(await sign(second))).email, person.email);
    assert.equal(fetches, 2);
  });

  it('answers 503 when the key set cannot be reached', async () => {
    const verifier = await createVerifier({ jwksUrl: 'http://127.0.0.1:1/jwks.json' });
    const key = await keyPair('k9');
    await assert.rejects(verifier.verify(await sign(key)), { code: 'SERVICE_UNAVAILABLE' });
  });
});

describe('token verification with static keys', () => {
  it('accepts tokens of any of several PEM keys and refuses others', async () => {
    const a = await keyPair('a');
    const b = await keyPair('b');
    const stranger = await keyPair('c');
    const pems = `${await exportSPKI(a.publicKey)}\n${await exportSPKI(b.publicKey)}`;
    const verifier = await createVerifier({ publicKeys: pems });
    assert.equal((await verifier.verify(await sign(a))).userId, person.id);
    assert.equal((await verifier.verify(await sign(b))).userId, person.id);
    await assert.rejects(verifier.verify(await sign(stranger)), { code: 'UNAUTHORIZED' });
  });

  it('refuses a token of a key the set does not hold as UNAUTHORIZED, saying so and what to do', async () => {
    const trusted = await keyPair('dev-now');
    const before = await keyPair('dev-before-the-reset');
    const keys = JSON.stringify({ keys: [trusted.jwk] });

    // Without a hint (an identity service's keys): the fact alone, with the error code kept.
    const plain = await createVerifier({ publicKeys: keys });
    await assert.rejects(plain.verify(await sign(before)), {
      code: 'UNAUTHORIZED',
      message: 'The token is signed by a key this service does not know',
    });

    // The development key pair's verifier (bootstrap.ts) adds how to get a token it trusts.
    const hinted = await createVerifier(
      { publicKeys: keys },
      { unknownKeyHint: 'mint a new one with `npm run token -- --email you@example.com`' },
    );
    await assert.rejects(hinted.verify(await sign(before)), {
      code: 'UNAUTHORIZED',
      message:
        'The token is signed by a key this service does not know: mint a new one with `npm run token -- --email you@example.com`',
    });
    // A token of the trusted key with a broken signature is still only "not valid": the key is known.
    await assert.rejects(hinted.verify(`${await sign(trusted)}x`), {
      code: 'UNAUTHORIZED',
      message: 'The token is not valid',
    });
    assert.equal((await hinted.verify(await sign(trusted))).userId, person.id);
  });

  it('checks issuer and audience when configured', async () => {
    const key = await keyPair('iss');
    const verifier = await createVerifier({
      publicKeys: JSON.stringify({ keys: [key.jwk] }),
      issuer: 'https://id.example.com',
      audience: 'convene',
    });
    await assert.rejects(verifier.verify(await sign(key)), { code: 'UNAUTHORIZED' });
    await assert.rejects(
      verifier.verify(await sign(key, { iss: 'https://evil.example.com', aud: 'convene' })),
      {
        code: 'UNAUTHORIZED',
      },
    );
    const ok = await verifier.verify(await sign(key, { iss: 'https://id.example.com', aud: 'convene' }));
    assert.equal(ok.email, person.email);
  });

  it('accepts the object claim subject: {id, email} instead of sub and email', async () => {
    const key = await keyPair('subj');
    const verifier = await createVerifier({ publicKeys: JSON.stringify({ keys: [key.jwk] }) });
    const token = await new SignJWT({ subject: { id: person.id, email: 'Object@Example.com' } })
      .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
      .setExpirationTime('5m')
      .sign(key.privateKey);
    assert.deepEqual(await verifier.verify(token), { userId: person.id, email: 'Object@Example.com' });
  });

  it('refuses a token whose sub is not a UUID', async () => {
    const key = await keyPair('sub');
    const verifier = await createVerifier({ publicKeys: JSON.stringify({ keys: [key.jwk] }) });
    const token = await new SignJWT({ email: person.email, sub: 'user-42' })
      .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
      .setExpirationTime('5m')
      .sign(key.privateKey);
    await assert.rejects(verifier.verify(token), { code: 'UNAUTHORIZED' });
  });
});

describe('token time claims (docs/reference/auth.md: exp required, iat and nbf at most 60 s ahead)', () => {
  const YEAR = 365 * 24 * 60 * 60;
  /** A verifier whose clock is fixed at `nowSeconds`, and a signer of tokens for it. */
  async function fixedClock() {
    const key = await keyPair('time');
    const nowSeconds = Math.floor(Date.now() / 1000);
    const verifier = await createVerifier(
      { publicKeys: JSON.stringify({ keys: [key.jwk] }) },
      { now: () => nowSeconds * 1000 },
    );
    const token = (claims: { exp?: number | null; iat?: number; nbf?: number }) => {
      const jwt = new SignJWT({ email: person.email })
        .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
        .setSubject(person.id);
      if (claims.exp !== null) jwt.setExpirationTime(claims.exp ?? nowSeconds + 300);
      if (claims.iat !== undefined) jwt.setIssuedAt(claims.iat);
      if (claims.nbf !== undefined) jwt.setNotBefore(claims.nbf);
      return jwt.sign(key.privateKey);
    };
    return { verifier, token, nowSeconds };
  }
  /** Refused with 401, twice: a refused token is never remembered as accepted. */
  const refusedTwice = async (verifier: { verify(token: string): Promise<unknown> }, token: string) => {
    for (let attempt = 0; attempt < 2; attempt++) {
      await assert.rejects(verifier.verify(token), { code: 'UNAUTHORIZED' });
    }
  };

  it('refuses a token without exp', async () => {
    const { verifier, token, nowSeconds } = await fixedClock();
    await refusedTwice(verifier, await token({ exp: null }));
    await refusedTwice(verifier, await token({ exp: null, iat: nowSeconds }));
  });

  it('refuses a token issued, or not valid before, a year from now', async () => {
    const { verifier, token, nowSeconds } = await fixedClock();
    await refusedTwice(verifier, await token({ iat: nowSeconds + YEAR, exp: nowSeconds + 2 * YEAR }));
    await refusedTwice(verifier, await token({ nbf: nowSeconds + YEAR, exp: nowSeconds + 2 * YEAR }));
  });

  it('accepts iat and nbf up to 60 s ahead (clock skew), and refuses 61 s', async () => {
    const { verifier, token, nowSeconds } = await fixedClock();
    for (const ahead of [30, 60]) {
      assert.equal((await verifier.verify(await token({ iat: nowSeconds + ahead }))).userId, person.id);
      assert.equal((await verifier.verify(await token({ nbf: nowSeconds + ahead }))).userId, person.id);
    }
    await refusedTwice(verifier, await token({ iat: nowSeconds + 61 }));
    await refusedTwice(verifier, await token({ nbf: nowSeconds + 61 }));
  });

  it('refuses a token from its exp on, with no skew', async () => {
    const { verifier, token, nowSeconds } = await fixedClock();
    await refusedTwice(verifier, await token({ exp: nowSeconds }));
    await refusedTwice(verifier, await token({ exp: nowSeconds - 30 }));
    assert.equal((await verifier.verify(await token({ exp: nowSeconds + 1 }))).userId, person.id);
  });

  it('refuses a non-numeric iat', async () => {
    const key = await keyPair('time2');
    const verifier = await createVerifier({ publicKeys: JSON.stringify({ keys: [key.jwk] }) });
    const claims: Record<string, unknown> = { email: person.email, iat: 'tomorrow' };
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
      .setSubject(person.id)
      .setExpirationTime('5m')
      .sign(key.privateKey);
    await refusedTwice(verifier, token);
  });
});

describe('actor directory', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('records an authenticated caller and follows a change of e-mail', async () => {
    const id = uuidv7();
    expectOk(
      await t.get<MyEvent[]>('/events/mine', { token: await signToken({ id, email: 'first@example.com' }) }),
    );
    let [row] = await t.db.select().from(actors).where(eq(actors.user_id, id));
    assert.equal(row?.email, 'first@example.com');
    expectOk(
      await t.get<MyEvent[]>('/events/mine', { token: await signToken({ id, email: 'second@example.com' }) }),
    );
    [row] = await t.db.select().from(actors).where(eq(actors.user_id, id));
    assert.equal(row?.email, 'second@example.com');
  });

  it("records the token's name claim, cleaned, and keeps it when a later token has none", async () => {
    const id = uuidv7();
    const call = async (claims: Record<string, unknown>) => {
      const token = await signToken({ id, email: 'named@example.com' }, { claims });
      expectOk(await t.get<MyEvent[]>('/events/mine', { token }));
      const [row] = await t.db.select().from(actors).where(eq(actors.user_id, id));
      return row?.name;
    };
    assert.equal(await call({ name: '  Ana\u0000  Souza\u202e ' }), 'Ana Souza');
    assert.equal(await call({}), 'Ana Souza');
    assert.equal(await call({ name: 42 }), 'Ana Souza', 'a name that is not a string is ignored');
    assert.equal(await call({ name: 'Ana S. Souza' }), 'Ana S. Souza');
    assert.equal(await call({ name: 'x'.repeat(500) }), 'x'.repeat(200));
    const subject = await signToken(
      { id, email: 'named@example.com' },
      { rawClaims: true, claims: { subject: { id, email: 'named@example.com', name: 'Ana from subject' } } },
    );
    expectOk(await t.get<MyEvent[]>('/events/mine', { token: subject }));
    const [row] = await t.db.select().from(actors).where(eq(actors.user_id, id));
    assert.equal(row?.name, 'Ana from subject');
  });

  it('does not record a caller whose token is refused', async () => {
    const id = uuidv7();
    const expired = await signToken(
      { id, email: 'late@example.com' },
      { expiresIn: Math.floor(Date.now() / 1000) - 5 },
    );
    expectError(await t.get<MyEvent[]>('/events/mine', { token: expired }), 401, 'UNAUTHORIZED');
    assert.equal((await t.db.select().from(actors).where(eq(actors.user_id, id))).length, 0);
  });
});
