/**
 * The shared, table-driven auth check (conventions rule 11). For every protected route it sends:
 * no token, a malformed header, a non-bearer scheme, an expired token, a token without `exp`, one
 * whose `iat` or `nbf` is a year in the future (docs/reference/auth.md), a token signed with another
 * algorithm (HS256 and `none`), a token signed by an untrusted Ed25519 key, a token without an e-mail — each
 * must be 401 UNAUTHORIZED — and, where the route has one, a caller lacking the role, which must be 403
 * FORBIDDEN.
 */
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import { generateKeyPair, SignJWT } from 'jose';
import { expectError } from './assertions.ts';
import { signToken, type TestApp, type TestUser } from './harness.ts';

export interface ProtectedRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
  /** Authenticated but without the role the route needs: must get 403. */
  forbidden?: TestUser;
}

const YEAR = 365 * 24 * 60 * 60;

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function badCredentials(): Promise<Array<[string, Record<string, string>]>> {
  const someone = { id: '01937a4e-0000-7000-8000-00000000abcd', email: 'someone@example.com' };
  const now = Math.floor(Date.now() / 1000);
  const { privateKey: strangerKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const hs256 = await new SignJWT({ email: someone.email })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(someone.id)
    .setExpirationTime('1h')
    .sign(randomBytes(32));
  const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: someone.id, email: someone.email, exp: now + 3600 })}.`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  return [
    ['no token', {}],
    ['a malformed token', bearer('not-a-jwt')],
    ['a non-bearer scheme', { authorization: 'Basic YWxhZGRpbjpvcGVuc2VzYW1l' }],
    ['an expired token', bearer(await signToken(someone, { expiresIn: now - 60 }))],
    ['a token without exp', bearer(await signToken(someone, { expiresIn: null }))],
    ['a token issued a year from now', bearer(await signToken(someone, { issuedAt: now + YEAR }))],
    [
      'a token not valid before a year from now',
      bearer(await signToken(someone, { claims: { nbf: now + YEAR }, expiresIn: now + 2 * YEAR })),
    ],
    ['an HS256 token', bearer(hs256)],
    ['an unsigned (alg none) token', bearer(unsigned)],
    ['a token signed by an untrusted key', bearer(await signToken(someone, { privateKey: strangerKey }))],
    [
      'a token without e-mail',
      bearer(await signToken(someone, { rawClaims: true, claims: { sub: someone.id } })),
    ],
  ];
}

/**
 * Registers one test per route. `routes` is called when the tests run, after the file's `before`
 * hooks have created the resources the URLs name.
 */
export function checkAuth(label: string, getApp: () => TestApp, routes: () => ProtectedRoute[]): void {
  it(`${label}: refuses missing, malformed, expired, forged and wrong-algorithm tokens (401) and the wrong role (403)`, async () => {
    const t = getApp();
    const credentials = await badCredentials();
    for (const route of routes()) {
      for (const [name, headers] of credentials) {
        const response = await t.request(route.method, route.url, {
          headers,
          ...(route.body === undefined ? {} : { body: route.body }),
        });
        try {
          expectError(response, 401, 'UNAUTHORIZED');
        } catch (error) {
          throw new Error(`${route.method} ${route.url} with ${name}: ${(error as Error).message}`);
        }
      }
      if (route.forbidden !== undefined) {
        const response = await t.request(route.method, route.url, {
          token: route.forbidden.token,
          ...(route.body === undefined ? {} : { body: route.body }),
        });
        try {
          expectError(response, 403, 'FORBIDDEN');
        } catch (error) {
          throw new Error(`${route.method} ${route.url} with the wrong role: ${(error as Error).message}`);
        }
      }
    }
  });
}
