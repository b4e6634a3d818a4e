/**
 * Signing in through an OpenID provider (docs/reference/sign-in.md): a real `oidc-provider` on
 * loopback as the identity service, and a jose-built issuer for the ID tokens a real provider never
 * mints (forged, expired, another nonce).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { createTestApp, type TestApp } from '../../../../test/harness.ts';
import {
  type OidcProviderFixture,
  signInThroughProvider,
  startOidcProvider,
} from '../../../../test/oidc-provider.ts';
import { type RogueIssuer, startRogueIssuer } from '../../../../test/rogue-oidc-issuer.ts';
import { findActorById } from '../../../kernel/auth/actors.repository.ts';
import { userIdForSubject } from '../../../kernel/auth/user-ids.ts';
import { queryRows } from '../../../kernel/db/raw.ts';

interface SessionJson {
  user_id: string;
  email: string;
  name: string | null;
  expires_at: string;
}

describe('sign-in through the identity service', () => {
  let idp: OidcProviderFixture;
  let t: TestApp;
  const UUID_SUB = '01937a4e-8f2b-7c3d-9e4f-5a6b7c8d9e0f';

  before(async () => {
    idp = await startOidcProvider();
    t = await createTestApp(idp.env, { listen: true });
    await idp.allowRedirectsTo(t.baseUrl);
    idp.addAccount({ id: 'ana', email: 'ana@example.com', name: 'Ana Souza' });
    idp.addAccount({ id: UUID_SUB, email: 'bruno@example.com' });
  });
  after(async () => {
    await t.close();
    await idp.close();
  });

  it('lands on return_to with a session that names the person, recorded in the actor directory', async () => {
    const signedIn = await signInThroughProvider(t.baseUrl, { account: 'ana', returnTo: '/b/abc?x=1' });
    assert.equal(signedIn.status, 302);
    assert.equal(signedIn.location, '/b/abc?x=1');
    assert.match(signedIn.cookie ?? '', /^convene_session=[A-Za-z0-9_-]{43}$/);
    const session = expectOk(
      await t.get<SessionJson>('/auth/session', { headers: { cookie: signedIn.cookie! } }),
      200,
      'identity',
    );
    // `ana` is no UUID: the user id is derived from the issuer and the subject, the same each time.
    assert.equal(session.user_id, userIdForSubject(idp.issuer, 'ana'));
    assert.equal(session.email, 'ana@example.com');
    assert.equal(session.name, 'Ana Souza');
    const actor = await findActorById(t.db, session.user_id);
    assert.equal(actor?.email, 'ana@example.com');
    assert.equal(actor?.name, 'Ana Souza');

    const again = await signInThroughProvider(t.baseUrl, { account: 'ana' });
    assert.equal(again.location, '/', 'no return_to lands on /');
    const second = expectOk(
      await t.get<SessionJson>('/auth/session', { headers: { cookie: again.cookie! } }),
    );
    assert.equal(second.user_id, session.user_id);
    assert.notEqual(again.cookie, signedIn.cookie, 'each sign-in is a session of its own');
  });

  it('keeps a subject that is a UUID as the user id, the id its bearer tokens carry', async () => {
    const signedIn = await signInThroughProvider(t.baseUrl, { account: UUID_SUB });
    const session = expectOk(
      await t.get<SessionJson>('/auth/session', { headers: { cookie: signedIn.cookie! } }),
    );
    assert.equal(session.user_id, UUID_SUB);
    assert.equal(session.name, null);
  });

  it('sends the browser to the provider with PKCE S256, a state and a nonce', async () => {
    const answer = await t.get('/auth/sign-in?return_to=/somewhere');
    assert.equal(answer.status, 302);
    const location = new URL(String(answer.headers.location));
    assert.equal(location.origin, idp.issuer);
    assert.equal(location.searchParams.get('code_challenge_method'), 'S256');
    assert.match(location.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.ok((location.searchParams.get('state') ?? '').length >= 22);
    assert.ok((location.searchParams.get('nonce') ?? '').length >= 22);
    assert.equal(location.searchParams.get('redirect_uri'), `${t.baseUrl}/auth/callback`);
    assert.equal(answer.headers['set-cookie'], undefined, 'no session before the callback');
  });

  it('refuses a return_to that leaves the service (an open redirect) with 400', async () => {
    for (const target of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '/\tevil.example',
      'evil.example',
      'javascript:alert(1)',
      '',
    ]) {
      const refused = await t.get(`/auth/sign-in?return_to=${encodeURIComponent(target)}`);
      const error = expectError(refused, 400, 'VALIDATION_ERROR');
      assert.equal(error.fields?.[0]?.field, 'query.return_to', target);
    }
  });

  it('refuses a replayed callback: the state works once', async () => {
    const stopped = await signInThroughProvider(t.baseUrl, { account: 'ana', stopAtCallback: true });
    const path = stopped.callbackUrl!.slice(t.baseUrl.length);
    const first = await t.get(path);
    assert.equal(first.status, 302);
    const replay = await t.get(path);
    assert.equal(replay.status, 400);
    assert.match(String(replay.headers['content-type']), /^text\/html/);
    assert.match(replay.text, /data-failure="state"/);
    assert.equal(replay.headers['set-cookie'], undefined);
  });

  it('refuses an unknown state, and an error answered by the provider, with a page and no session', async () => {
    const unknown = await t.get('/auth/callback?code=abc&state=never-issued');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.headers['set-cookie'], undefined);

    const stopped = await signInThroughProvider(t.baseUrl, { account: 'ana', stopAtCallback: true });
    const state = new URL(stopped.callbackUrl!).searchParams.get('state')!;
    const denied = await t.get(`/auth/callback?error=access_denied&state=${encodeURIComponent(state)}`);
    assert.equal(denied.status, 400);
    assert.match(denied.text, /data-failure="provider"/);
    assert.equal(denied.headers['set-cookie'], undefined);
    // The provider's real answer for that state comes too late: the failed callback used it up.
    const late = await t.get(stopped.callbackUrl!.slice(t.baseUrl.length));
    assert.equal(late.status, 400);
    assert.match(late.text, /data-failure="state"/);
  });
});

describe('ID tokens that must not sign anyone in', () => {
  let rogue: RogueIssuer;
  let t: TestApp;

  before(async () => {
    rogue = await startRogueIssuer();
    t = await createTestApp(rogue.env, { listen: true });
  });
  after(async () => {
    await t.close();
    await rogue.close();
  });

  it('accepts a valid token of that issuer (so each refusal below is for its one flaw)', async () => {
    rogue.mode = 'good';
    const signedIn = await signInThroughProvider(t.baseUrl, { account: 'any', returnTo: '/ok' });
    assert.equal(signedIn.status, 302);
    assert.equal(signedIn.location, '/ok');
    const session = expectOk(
      await t.get<SessionJson>('/auth/session', { headers: { cookie: signedIn.cookie! } }),
    );
    assert.equal(session.email, 'rogue@example.com');
  });

  const FLAWS = {
    forged: 'an ID token signed with a key outside the JWKS',
    expired: 'an expired ID token',
    'wrong-nonce': 'an ID token with the nonce of another sign-in',
  } as const;
  for (const [mode, flaw] of Object.entries(FLAWS) as Array<[keyof typeof FLAWS, string]>) {
    it(`refuses ${flaw} with 401 (the library's check) and starts no session`, async () => {
      rogue.mode = mode;
      const count = sql`select count(*)::int as n from identity_sessions`;
      const before = await queryRows(t.db, count);
      const refused = await signInThroughProvider(t.baseUrl, { account: 'any', returnTo: '/ok' });
      assert.equal(refused.status, 401);
      assert.equal(refused.cookie, undefined);
      assert.deepEqual(await queryRows(t.db, count), before);
    });
  }
});
