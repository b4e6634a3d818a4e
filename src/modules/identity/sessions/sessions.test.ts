/**
 * Browser sessions (docs/reference/sign-in.md): the cookie on every authenticated route, its
 * cross-site request check, a bearer token winning over it, sign-out, and both expiries. Sessions
 * are started by the development sign-in (a real session, the same as after OpenID Connect).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import {
  createTestApp,
  credentialSigningKeyPem,
  type OpenApiDocument,
  type TestApp,
} from '../../../../test/harness.ts';
import { userIdForEmail } from '../../../kernel/auth/user-ids.ts';
import { queryRows } from '../../../kernel/db/raw.ts';

interface SessionJson {
  user_id: string;
  email: string;
  name: string | null;
  expires_at: string;
}

const slug = () => `id-${Math.random().toString(36).slice(2, 10)}`;

/** Signs a browser in through the development form; returns its `cookie` header and the raw Set-Cookie. */
async function devSession(t: TestApp, email: string, name?: string) {
  const answer = await t.post('/auth/dev-sign-in', {
    body: name === undefined ? { email } : { email, name },
    headers: { origin: new URL(t.baseUrl).origin },
  });
  assert.equal(answer.status, 303, answer.text);
  const setCookie = String(answer.headers['set-cookie']);
  return { cookie: setCookie.split(';')[0]!, setCookie, location: answer.headers.location };
}

describe('the session cookie', () => {
  let t: TestApp;
  let origin: string;

  before(async () => {
    t = await createTestApp();
    origin = new URL(t.baseUrl).origin;
  });
  after(() => t.close());

  it('is HttpOnly, SameSite=Lax, Path=/, not Secure over http, and stored only as its hash', async () => {
    const { cookie, setCookie } = await devSession(t, 'hash@example.com');
    assert.match(
      setCookie,
      /^convene_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    const value = cookie.split('=')[1]!;
    const rows = await queryRows<{ hash: string }>(
      t.db,
      sql`select encode(id_hash, 'hex') as hash from identity_sessions`,
    );
    const hashes = rows.map((row) => row.hash);
    assert.ok(hashes.includes(createHash('sha256').update(value).digest('hex')));
    const dump = JSON.stringify(await queryRows(t.db, sql`select * from identity_sessions`));
    assert.ok(!dump.includes(value), 'the cookie value itself is nowhere in the table');
  });

  it('answers GET /auth/session with the person, their development user id and the expiry', async () => {
    const { cookie } = await devSession(t, 'Ana@Example.com', 'Ana Souza');
    const session = expectOk(
      await t.get<SessionJson>('/auth/session', { headers: { cookie } }),
      200,
      'identity',
    );
    assert.equal(session.user_id, userIdForEmail('ana@example.com'), 'the id npm run token gives');
    assert.equal(session.email, 'Ana@Example.com');
    assert.equal(session.name, 'Ana Souza');
    const hours = (Date.parse(session.expires_at) - Date.now()) / 3_600_000;
    assert.ok(hours > 11.9 && hours <= 12, `expires in ${hours} h`);
    expectError(await t.get('/auth/session'), 401, 'UNAUTHORIZED');
    expectError(
      await t.get('/auth/session', { headers: { cookie: 'convene_session=forged' } }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('authenticates bearer routes with the same roles, and holds writes to the same-origin rule', async () => {
    const ana = await devSession(t, 'owner@example.com');
    const bruno = await devSession(t, 'bruno@example.com');
    const listed = await t.get<unknown[]>('/events/mine', { headers: { cookie: ana.cookie } });
    expectOk(listed);

    const body = { name: 'By cookie', slug: slug() };
    const noHeader = await t.post('/events', { body, headers: { cookie: ana.cookie, origin } });
    assert.equal(expectError(noHeader, 403, 'FORBIDDEN').reason, 'csrf');
    const foreign = await t.post('/events', {
      body,
      headers: { cookie: ana.cookie, origin: 'https://evil.example', 'x-convene-csrf': '1' },
    });
    assert.equal(expectError(foreign, 403, 'FORBIDDEN').reason, 'csrf');
    const nowhere = await t.post('/events', { body, headers: { cookie: ana.cookie, 'x-convene-csrf': '1' } });
    assert.equal(expectError(nowhere, 403, 'FORBIDDEN').reason, 'csrf', 'neither Origin nor Referer');

    const made = expectOk<{ id: string }>(
      await t.post('/events', { body, headers: { cookie: ana.cookie, origin, 'x-convene-csrf': '1' } }),
      201,
    );
    // Referer stands in for a missing Origin.
    expectOk(
      await t.patch(`/events/${made.id}`, {
        body: { name: 'Renamed by cookie' },
        headers: { cookie: ana.cookie, referer: `${t.baseUrl}/some/page`, 'x-convene-csrf': '1' },
      }),
    );
    // Another person's cookie has that person's roles: none on Ana's draft event.
    const stranger = await t.patch(`/events/${made.id}`, {
      body: { name: 'Not mine' },
      headers: { cookie: bruno.cookie, origin, 'x-convene-csrf': '1' },
    });
    expectError(stranger, 404, 'NOT_FOUND');
  });

  it('keeps a cookie reader’s answer out of the anonymous public cache', async () => {
    const ana = await devSession(t, 'drafts@example.com');
    const headers = { cookie: ana.cookie, origin, 'x-convene-csrf': '1' };
    const draft = expectOk<{ id: string }>(
      await t.post('/events', { body: { name: 'Still a draft', slug: slug() }, headers }),
      201,
    );
    // The owner sees the draft event's (empty) editions; an anonymous reader right after must not.
    expectOk(await t.get(`/events/${draft.id}/editions`, { headers: { cookie: ana.cookie } }));
    expectError(await t.get(`/events/${draft.id}/editions`), 404, 'NOT_FOUND');
  });

  it('lets a bearer token win over the cookie (and its rule)', async () => {
    const ana = await devSession(t, 'cookie-holder@example.com');
    const carol = await t.actor('carol');
    const made = expectOk<{ id: string }>(
      await t.post('/events', {
        token: carol.token,
        body: { name: 'By bearer', slug: slug() },
        headers: { cookie: ana.cookie },
      }),
      201,
    );
    const carols = expectOk<Array<{ id: string }>>(await t.get('/events/mine', { token: carol.token }));
    assert.ok(
      carols.some((event) => event.id === made.id),
      'the event is the bearer’s',
    );
    const anas = expectOk<Array<{ id: string }>>(
      await t.get('/events/mine', { headers: { cookie: ana.cookie } }),
    );
    assert.ok(!anas.some((event) => event.id === made.id));
  });

  it('records a cookie’s person in the actor directory, as a bearer token’s', async () => {
    // A session whose person the directory has never seen (written here, not by a sign-in, which
    // records the person itself): the first cookie request records them.
    const value = 'a'.repeat(43);
    const userId = userIdForEmail('dir@example.com');
    await t.db.execute(sql`insert into identity_sessions (id_hash, user_id, email, name, expires_at)
      values (${createHash('sha256').update(value).digest()}, ${userId}, 'dir@example.com', 'Dora Dir',
              now() + interval '1 hour')`);
    assert.deepEqual(await queryRows(t.db, sql`select 1 from actors where user_id = ${userId}`), []);
    expectOk(await t.get('/events/mine', { headers: { cookie: `convene_session=${value}` } }));
    const rows = await queryRows(t.db, sql`select email, name from actors where user_id = ${userId}`);
    assert.deepEqual(rows, [{ email: 'dir@example.com', name: 'Dora Dir' }]);
  });

  it('ends with sign-out: 303 to /, the cookie cleared, and the old cookie worth nothing', async () => {
    const { cookie } = await devSession(t, 'leaving@example.com');
    const noHeader = await t.post('/auth/sign-out', { headers: { cookie, origin } });
    assert.equal(expectError(noHeader, 403, 'FORBIDDEN').reason, 'csrf');
    const out = await t.post('/auth/sign-out', { headers: { cookie, origin, 'x-convene-csrf': '1' } });
    assert.equal(out.status, 303);
    assert.equal(out.headers.location, '/');
    assert.match(String(out.headers['set-cookie']), /^convene_session=; Max-Age=0; Path=\/; HttpOnly/);
    expectError(await t.get('/auth/session', { headers: { cookie } }), 401, 'UNAUTHORIZED');
    expectError(await t.get('/events/mine', { headers: { cookie } }), 401, 'UNAUTHORIZED');
    expectError(
      await t.post('/auth/sign-out', { headers: { cookie, origin, 'x-convene-csrf': '1' } }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('ends at its absolute expiry', async () => {
    const { cookie } = await devSession(t, 'absolute@example.com');
    const hash = createHash('sha256').update(cookie.split('=')[1]!).digest();
    expectOk(await t.get('/auth/session', { headers: { cookie } }));
    await t.db.execute(
      sql`update identity_sessions set expires_at = now() - interval '1 second' where id_hash = ${hash}`,
    );
    expectError(await t.get('/auth/session', { headers: { cookie } }), 401, 'UNAUTHORIZED');
    expectError(await t.get('/events/mine', { headers: { cookie } }), 401, 'UNAUTHORIZED');
  });

  it('ends after two idle hours, and moves last_seen_at at most once a minute', async () => {
    const { cookie } = await devSession(t, 'idle@example.com');
    const hash = createHash('sha256').update(cookie.split('=')[1]!).digest();
    const lastSeen = async () => {
      const [row] = await queryRows<{ last_seen_at: Date | string }>(
        t.db,
        sql`select last_seen_at from identity_sessions where id_hash = ${hash}`,
      );
      return row?.last_seen_at;
    };

    // Seen 30 s ago: a request does not write.
    await t.db.execute(
      sql`update identity_sessions set last_seen_at = now() - interval '30 seconds' where id_hash = ${hash}`,
    );
    const recent = await lastSeen();
    expectOk(await t.get('/events/mine', { headers: { cookie } }));
    assert.deepEqual(await lastSeen(), recent);

    // Idle for 1 h 59 min: still alive, and the request moves last_seen_at to now.
    await t.db.execute(
      sql`update identity_sessions set last_seen_at = now() - interval '119 minutes' where id_hash = ${hash}`,
    );
    expectOk(await t.get('/auth/session', { headers: { cookie } }));
    const touched = new Date(String(await lastSeen())).getTime();
    assert.ok(Date.now() - touched < 60_000, 'touched by the request');

    await t.db.execute(
      sql`update identity_sessions set last_seen_at = now() - interval '121 minutes' where id_hash = ${hash}`,
    );
    expectError(await t.get('/auth/session', { headers: { cookie } }), 401, 'UNAUTHORIZED');
  });

  it('is declared once in the OpenAPI document, beside bearerAuth', async () => {
    const document = (await t.app.inject('/docs/openapi.json')).json() as OpenApiDocument & {
      components: { securitySchemes: Record<string, { type: string; in?: string; name?: string }> };
    };
    assert.deepEqual(
      { ...document.components.securitySchemes.cookieAuth, description: undefined },
      { type: 'apiKey', in: 'cookie', name: 'convene_session', description: undefined },
    );
    assert.deepEqual(document.paths['/auth/session']!.get!.security, [{ cookieAuth: [] }]);
  });
});

describe('the development sign-in', () => {
  it('refuses a form from another origin, and a return_to that leaves the service', async () => {
    const t = await createTestApp();
    try {
      const foreign = await t.post('/auth/dev-sign-in', {
        body: { email: 'x@example.com' },
        headers: { origin: 'https://evil.example' },
      });
      assert.equal(expectError(foreign, 403, 'FORBIDDEN').reason, 'csrf');
      const away = await t.post('/auth/dev-sign-in', {
        body: { email: 'x@example.com', return_to: '//evil.example' },
        headers: { origin: new URL(t.baseUrl).origin },
      });
      expectError(away, 400, 'VALIDATION_ERROR');
      const form = await t.post('/auth/dev-sign-in', {
        payload: 'email=form%40example.com&name=Fé&return_to=%2Fb%2Fx',
        contentType: 'application/x-www-form-urlencoded',
        headers: { origin: new URL(t.baseUrl).origin },
      });
      assert.equal(form.status, 303);
      assert.equal(form.headers.location, '/b/x');
    } finally {
      await t.close();
    }
  });

  it('names its cookie __Host-convene_session, Secure, when PUBLIC_BASE_URL is https', async () => {
    const t = await createTestApp({ PUBLIC_BASE_URL: 'https://convene.example' });
    try {
      const answer = await t.post('/auth/dev-sign-in', {
        body: { email: 'secure@example.com' },
        headers: { origin: 'https://convene.example' },
      });
      const setCookie = String(answer.headers['set-cookie']);
      assert.match(
        setCookie,
        /^__Host-convene_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
      );
      const cookie = setCookie.split(';')[0]!;
      expectOk(await t.get('/auth/session', { headers: { cookie } }));
      // The plain name means nothing there.
      expectError(
        await t.get('/auth/session', { headers: { cookie: cookie.replace('__Host-', '') } }),
        401,
        'UNAUTHORIZED',
      );
    } finally {
      await t.close();
    }
  });

  it('is off in production: /auth/sign-in answers a 503 page, the form 404', async () => {
    const t = await createTestApp({
      NODE_ENV: 'production',
      CREDENTIAL_SIGNING_KEY: credentialSigningKeyPem(),
    });
    try {
      const page = await t.get('/auth/sign-in', { headers: { 'accept-language': 'pt-BR' } });
      assert.equal(page.status, 503);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.match(page.text, /O acesso pelo navegador não está configurado/);
      const form = await t.post('/auth/dev-sign-in', {
        body: { email: 'x@example.com' },
        headers: { origin: new URL(t.baseUrl).origin },
      });
      expectError(form, 404, 'NOT_FOUND');
    } finally {
      await t.close();
    }
  });
});
