import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { expectError, expectOk } from '../../../test/assertions.ts';
import { type ManualClock, manualClock } from '../../../test/clock.ts';
import { createTestApp, type TestApp, type TestUser } from '../../../test/harness.ts';
import type { Edition } from '../../modules/events/editions/editions.schemas.ts';
import type { Event } from '../../modules/events/events/events.schemas.ts';
import { registerPublicCache } from './public-cache.ts';

/** A published event with one published edition; returns the ids. */
async function publishedEdition(t: TestApp, owner: TestUser, slug: string) {
  const token = owner.token;
  const event = expectOk(await t.post<Event>('/events', { token, body: { name: 'Cached', slug } }), 201);
  const edition = expectOk(
    await t.post<Edition>(`/events/${event.id}/editions`, {
      token,
      body: {
        name: 'First',
        slug: 'first',
        starts_at: '2031-05-01T09:00:00Z',
        ends_at: '2031-05-02T18:00:00Z',
      },
    }),
    201,
  );
  expectOk(await t.post<Event>(`/events/${event.id}/publish`, { token }));
  expectOk(await t.post<Edition>(`/events/${event.id}/editions/${edition.id}/publish`, { token }));
  return { eventId: event.id as string, editionId: edition.id as string };
}

describe('public microcache', () => {
  let t: TestApp;
  let owner: TestUser;
  let ids: { eventId: string; editionId: string };
  const url = '/events/cache-a:by-slug/editions/first:by-slug';
  // The cache's time: moved by the tests, so a TTL passes without sleeping.
  const clock: ManualClock = manualClock();

  before(async () => {
    // From the real time when the tests start (the file may be loaded long before, in a shard), so
    // that tokens signed now are not issued in the app's future.
    clock.set(Date.now());
    t = await createTestApp({ PUBLIC_CACHE_TTL_MS: '300' }, { clock });
    owner = await t.actor('owner');
    ids = await publishedEdition(t, owner, 'cache-a');
  });
  after(() => t.close());

  it('replays an anonymous read with a fresh timestamp', async () => {
    const first = await t.get(url);
    assert.equal(first.headers['x-cache'], 'miss');
    clock.advance(100);
    const second = await t.get(url);
    assert.equal(second.headers['x-cache'], 'hit');
    assert.deepEqual(expectOk(second), expectOk(first));
    assert.equal(
      second.body.timestamp,
      new Date(clock.now()).toISOString(),
      'the timestamp is the time of the answer',
    );
    assert.match(String(second.headers['content-type']), /^application\/json/);
    assert.ok(second.headers['x-request-id']);
  });

  it('never answers a caller with a token from the cache', async () => {
    await t.get(url);
    const member = await t.get(url, { token: owner.token });
    assert.equal(member.headers['x-cache'], undefined);
    expectOk(member);
  });

  it('is cleared by a successful write in the process, so writers read their writes', async () => {
    await t.get(url);
    assert.equal((await t.get(url)).headers['x-cache'], 'hit');
    expectOk(
      await t.patch<Edition>(`/events/${ids.eventId}/editions/${ids.editionId}`, {
        token: owner.token,
        body: { name: 'Renamed' },
      }),
    );
    const after = await t.get<Edition>(url);
    assert.equal(after.headers['x-cache'], 'miss');
    assert.equal(expectOk(after).name, 'Renamed');
  });

  it('lets a change made elsewhere show once the TTL has passed', async () => {
    await t.get(url);
    // Another process's write: straight to the database, unseen by this process.
    await t.db.execute(sql`update editions set tagline = 'From elsewhere' where id = ${ids.editionId}`);
    assert.equal(
      expectOk(await t.get<Edition>(url)).tagline,
      null,
      'within the TTL the cached answer stands',
    );
    clock.advance(301);
    assert.equal(expectOk(await t.get<Edition>(url)).tagline, 'From elsewhere');
  });

  it('never keeps an error', async () => {
    const missing = '/events/cache-a:by-slug/editions/nope:by-slug';
    expectError(await t.get(missing), 404, 'NOT_FOUND');
    const again = await t.get(missing);
    expectError(again, 404, 'NOT_FOUND');
    assert.notEqual(again.headers['x-cache'], 'hit');
  });
});

describe('public microcache turned off', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ PUBLIC_CACHE_TTL_MS: '0' });
  });
  after(() => t.close());

  it('answers every read from the database', async () => {
    const owner = await t.actor('owner');
    await publishedEdition(t, owner, 'cache-off');
    for (let i = 0; i < 2; i++) {
      const response = await t.get('/events/cache-off:by-slug/editions/first:by-slug');
      expectOk(response);
      assert.equal(response.headers['x-cache'], undefined);
    }
  });
});

describe('public microcache and a write that lands during a miss', () => {
  it('does not keep an answer read before the write', async () => {
    // A bare app: the read is held between its lookup (a miss) and its answer while a write lands.
    const app = Fastify();
    registerPublicCache(app, { ttlMs: 60_000, clock: manualClock() });
    let release = () => {};
    let version = 1;
    app.get('/item', { config: { publicCache: true } }, async () => {
      const read = version;
      if (read === 1) await new Promise<void>((resolve) => (release = resolve));
      return { data: { version: read }, timestamp: new Date().toISOString() };
    });
    app.post('/item', async () => {
      version = 2;
      return { data: { version }, timestamp: new Date().toISOString() };
    });
    try {
      const slow = app.inject({ method: 'GET', url: '/item' });
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal((await app.inject({ method: 'POST', url: '/item' })).statusCode, 200);
      release();
      assert.equal((await slow).json<{ data: { version: number } }>().data.version, 1);
      const after = await app.inject({ method: 'GET', url: '/item' });
      assert.equal(after.headers['x-cache'], 'miss', 'the answer read before the write was not kept');
      assert.equal(after.json<{ data: { version: number } }>().data.version, 2);
      const again = await app.inject({ method: 'GET', url: '/item' });
      assert.equal(again.headers['x-cache'], 'hit');
      assert.equal(again.json<{ data: { version: number } }>().data.version, 2);
    } finally {
      await app.close();
    }
  });
});
