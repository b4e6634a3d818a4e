/**
 * A tiny OpenID issuer on loopback, built with `jose`, for the ID tokens a real provider never mints
 * (docs/reference/sign-in.md): one signed with a key outside its JWKS, one already expired, one with
 * another nonce. It serves discovery, its JWKS, an authorization endpoint that answers at once (no
 * login) and a token endpoint that returns the ID token `mode` asks for; `'good'` is a valid one, so
 * a test can show that only the crafted flaw is refused.
 *
 *   const rogue = await startRogueIssuer();
 *   const t = await createTestApp(rogue.env, { listen: true });
 *   rogue.mode = 'forged';
 *   await signInThroughProvider(t.baseUrl, { account: 'any' });   // from test/oidc-provider.ts
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export type RogueMode = 'good' | 'forged' | 'expired' | 'wrong-nonce';

export interface RogueIssuer {
  issuer: string;
  env: { OIDC_ISSUER: string; OIDC_CLIENT_ID: string; OIDC_CLIENT_SECRET: string };
  /** What the next token answer carries. */
  mode: RogueMode;
  /** The `sub` and e-mail the tokens name. */
  subject: { sub: string; email: string; name?: string };
  close(): Promise<void>;
}

export async function startRogueIssuer(): Promise<RogueIssuer> {
  const clientId = 'convene-rogue';
  const trusted = await generateKeyPair('RS256', { extractable: true });
  const other = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(trusted.publicKey)), kid: 'rogue-1', alg: 'RS256', use: 'sig' };
  /** code -> the nonce its authorization request carried. */
  const nonces = new Map<string, string>();

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', rogue.issuer);
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json({
        issuer: rogue.issuer,
        authorization_endpoint: `${rogue.issuer}/authorize`,
        token_endpoint: `${rogue.issuer}/token`,
        jwks_uri: `${rogue.issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (url.pathname === '/jwks') return json({ keys: [jwk] });
    if (url.pathname === '/authorize') {
      const code = randomBytes(16).toString('base64url');
      nonces.set(code, url.searchParams.get('nonce') ?? '');
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const code = new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('code') ?? '';
      const now = Math.floor(Date.now() / 1000);
      const { mode, subject } = rogue;
      const idToken = await new SignJWT({
        email: subject.email,
        ...(subject.name === undefined ? {} : { name: subject.name }),
        nonce: mode === 'wrong-nonce' ? 'not-the-nonce-of-this-sign-in' : (nonces.get(code) ?? ''),
      })
        .setProtectedHeader({ alg: 'RS256', kid: 'rogue-1' })
        .setIssuer(rogue.issuer)
        .setAudience(clientId)
        .setSubject(subject.sub)
        .setIssuedAt(mode === 'expired' ? now - 7200 : now)
        .setExpirationTime(mode === 'expired' ? now - 3600 : now + 600)
        .sign(mode === 'forged' ? other.privateKey : trusted.privateKey);
      return json({ access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', id_token: idToken });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const rogue: RogueIssuer = {
    issuer,
    env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: 'rogue-secret' },
    mode: 'good',
    subject: { sub: 'rogue-subject', email: 'rogue@example.com' },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return rogue;
}
