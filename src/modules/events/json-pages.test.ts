/**
 * The hot public lists are rendered to JSON by PostgreSQL (kernel/db/json.ts) rather than through
 * the response serializer. Both must produce the same resource: every item of such a list equals,
 * field for field, the same resource read on its own through the general path — with awkward
 * values (quotes, backslashes, newlines, non-ASCII, nulls, nested design data, millisecond times).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectOk } from '../../../test/assertions.ts';
import { createTestApp, type TestApp, type TestUser } from '../../../test/harness.ts';
import type { CertificationTemplate } from './certification-templates/certification-templates.schemas.ts';
import type { Edition } from './editions/editions.schemas.ts';
import type { Event } from './events/events.schemas.ts';
import type { Program } from './programs/programs.schemas.ts';

const AWKWARD = 'Zoë\'s "keynote" \\ path\nsecond line — ünïcode ✓';

describe('lists rendered by the database', () => {
  let t: TestApp;
  let owner: TestUser;
  let eventId: string;
  let editionId: string;

  before(async () => {
    t = await createTestApp();
    owner = await t.actor('owner');
    const token = owner.token;
    eventId = expectOk(
      await t.post<Event>('/events', { token, body: { name: AWKWARD, slug: 'json-pages' } }),
      201,
    ).id;
    editionId = expectOk(
      await t.post<Edition>(`/events/${eventId}/editions`, {
        token,
        body: {
          name: AWKWARD,
          slug: 'one',
          tagline: null,
          starts_at: '2031-03-01T09:00:00.123Z',
          ends_at: '2031-03-03T18:30:00.987+01:00',
          registration_opens_at: '2031-01-01T00:00:00Z',
          location_name: AWKWARD,
        },
      }),
      201,
    ).id;
    expectOk(await t.post<Event>(`/events/${eventId}/publish`, { token }));
    expectOk(await t.post<Edition>(`/events/${eventId}/editions/${editionId}/publish`, { token }));
    await t.post<Program>(`/editions/${editionId}/programs`, {
      token,
      body: { kind: 'activity', name: AWKWARD, starts_at: '2031-03-01T10:00:00.5Z', price: 1500 },
    });
    await t.post<Program>(`/editions/${editionId}/programs`, {
      token,
      body: { kind: 'checkpoint', name: 'Unscheduled', description: null, min_access_level: 2 },
    });
    await t.post<CertificationTemplate>(`/editions/${editionId}/certifications/templates`, {
      token,
      body: {
        kind: 'edition_attendance',
        name: AWKWARD,
        design_data: { title: { text: AWKWARD, size: 32.5 }, layers: [1, null, true, 'x'], empty: {} },
      },
    });
  });
  after(() => t.close());

  it('lists published editions exactly as each edition reads on its own', async () => {
    const list = expectOk(await t.get<Edition[]>(`/events/${eventId}/editions`));
    assert.equal(list.length, 1);
    for (const item of list) assert.deepEqual(item, expectOk(await t.get<Edition>(`/editions/${item.id}`)));
  });

  it('lists programs exactly as each program reads on its own', async () => {
    const list = expectOk(await t.get<Program[]>(`/editions/${editionId}/programs`));
    assert.equal(list.length, 2);
    for (const item of list) assert.deepEqual(item, expectOk(await t.get<Program>(`/programs/${item.id}`)));
    assert.equal(list[0].starts_at, '2031-03-01T10:00:00.500Z');
  });

  it('lists certification templates exactly as each template reads on its own', async () => {
    const list = expectOk(
      await t.get<CertificationTemplate[]>(`/editions/${editionId}/certifications/templates`),
    );
    assert.equal(list.length, 1);
    for (const item of list) {
      assert.deepEqual(
        item,
        expectOk(await t.get<CertificationTemplate>(`/certifications/templates/${item.id}`)),
      );
    }
    assert.deepEqual(list[0].design_data.layers, [1, null, true, 'x']);
  });

  it('gives the same page through the general path (a member) as through the fast one', async () => {
    const anonymous = await t.get<Program[]>(`/editions/${editionId}/programs?limit=1&page=2`);
    const member = await t.get<Program[]>(`/editions/${editionId}/programs?limit=1&page=2`, {
      token: owner.token,
    });
    assert.deepEqual(expectOk(anonymous), expectOk(member));
    assert.deepEqual(anonymous.body.pagination, member.body.pagination);
    assert.deepEqual(anonymous.body.pagination, {
      page: 2,
      limit: 1,
      total: 2,
      has_next: false,
      has_prev: true,
      next_page: null,
      prev_page: 1,
    });
    assert.match(String(anonymous.headers['content-type']), /^application\/json; charset=utf-8/);
    // Byte for byte in the API's compact style, like every other answer.
    assert.equal(anonymous.text, JSON.stringify(anonymous.body));
  });
});
