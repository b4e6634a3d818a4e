import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { expectError, expectOk } from '../../../test/assertions.ts';
import { type ManualClock, manualClock } from '../../../test/clock.ts';
import { createTestApp, type TestApp, type TestUser } from '../../../test/harness.ts';
import type { Edition } from '../../modules/events/editions/editions.schemas.ts';
import type { Event } from '../../modules/events/events/events.schemas.ts';

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
