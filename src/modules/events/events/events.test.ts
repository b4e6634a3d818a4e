/**
 * Events (docs/reference/events.md): creation, the public list, the caller's events, reads by slug and by id
 * with draft visibility. Every route is checked for success and its side effects, bad input (never
 * a 5xx), authentication (the shared table) and unknown ids. Update and publish:
 * events-update.test.ts; members: members.test.ts, members-remove.test.ts.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import {
  EVENT_KEYS,
  eventFixtures,
  expectInvalid,
  expectMalformedJson,
  ISO,
  MEMBER_KEYS,
  newSlug,
  UNKNOWN_ID,
  useTeam,
} from '../events.fixtures.ts';
import type { Event, MyEvent } from './events.schemas.ts';

describe('events: creation and reads', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  /** A draft event of `owner` with `admin` and `staff` as members. */
  let draft: Event;
  /** A published event of `owner` with the same members. */
  let live: Event;
  const { createEvent, publishEvent, listMembers, myEvents, createTeamEvent } = eventFixtures(() => team);

  before(async () => {
    // One after the other, with requests in between, so `live` is the newer of the two.
    draft = await createTeamEvent({ isDraft: true, name: 'Draft event' });
    live = await createTeamEvent({ name: 'Live event' });
  });

  checkAuth(
    'protected event routes: create and list mine',
    () => t,
    () => [
      { method: 'POST', url: '/events', body: { name: 'Nobody', slug: newSlug() } },
      { method: 'GET', url: '/events/mine' },
    ],
  );

  describe('POST /events', () => {
    it('creates a draft event owned by the caller, who becomes its owner member', async () => {
      const creator = await t.actor('creator');
      const slug = newSlug('full');
      const response = await t.post<Event>('/events', {
        token: creator.token,
        body: {
          name: 'RustConf Lisbon',
          slug,
          description: 'The yearly Rust conference',
          contact_email: 'hello@rustconf.example',
          logo_url: 'https://cdn.example/logo.png',
          banner_url: 'http://cdn.example/banner.png',
        },
      });
      const event = expectOk(response, 201, 'events');
      assert.equal(response.body.message, 'Created');
      assert.deepEqual(Object.keys(event).sort(), EVENT_KEYS);
      assert.match(event.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(event.name, 'RustConf Lisbon');
      assert.equal(event.slug, slug);
      assert.equal(event.description, 'The yearly Rust conference');
      assert.equal(event.contact_email, 'hello@rustconf.example');
      assert.equal(event.logo_url, 'https://cdn.example/logo.png');
      assert.equal(event.banner_url, 'http://cdn.example/banner.png');
      assert.equal(event.status, 'draft');
      assert.equal(event.owner_id, creator.id);
      assert.match(event.created_at, ISO);
      assert.match(event.updated_at, ISO);
      assert.equal(response.body.pagination, undefined);

      // Side effects: readable by its owner, in their events with role owner, and the owner is a member.
      assert.deepEqual(expectOk(await t.get<Event>(`/events/${event.id}`, { token: creator.token })), event);
      const mine = await myEvents(creator);
      assert.deepEqual(mine, [{ ...event, role: 'owner' }]);
      const members = await listMembers(creator, event.id);
      assert.equal(members.length, 1);
      assert.deepEqual(Object.keys(members[0]).sort(), MEMBER_KEYS);
      assert.equal(members[0].user_id, creator.id);
      assert.equal(members[0].email, creator.email);
      assert.equal(members[0].role, 'owner');
      assert.match(members[0].created_at, ISO);
    });

    it('leaves the optional fields null when they are not given', async () => {
      const event = await createEvent(owner, { name: 'Bare' });
      assert.equal(event.description, null);
      assert.equal(event.contact_email, null);
      assert.equal(event.logo_url, null);
      assert.equal(event.banner_url, null);
    });

    it('refuses a slug already taken by another event, draft or published (409)', async () => {
      const other = await t.actor('other');
      const taken = expectError(
        await t.post<Event>('/events', { token: other.token, body: { name: 'Copy', slug: draft.slug } }),
        409,
        'CONFLICT',
      );
      assert.equal(taken.reason, 'slug_taken');
      const takenLive = expectError(
        await t.post<Event>('/events', { token: owner.token, body: { name: 'Copy', slug: live.slug } }),
        409,
        'CONFLICT',
      );
      assert.equal(takenLive.reason, 'slug_taken');
      assert.deepEqual(await myEvents(other), []);
    });

    it('refuses malformed JSON (400 BAD_REQUEST) and a body that is not JSON (415)', async () => {
      await expectMalformedJson(t, '/events', owner);
      expectError(
        await t.post<Event>('/events', { token: owner.token, payload: 'name=x', contentType: 'text/plain' }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    });

    it('refuses fields that fail their schema, naming each one, and creates nothing', async () => {
      const creator = await t.actor('invalid');
      const valid = { name: 'Valid name', slug: newSlug() };
      const cases: Array<[string, unknown, string[]]> = [
        ['an unknown field', { ...valid, colour: 'red' }, ['colour']],
        ['a status (events start as drafts)', { ...valid, status: 'active' }, ['status']],
        ['an owner_id', { ...valid, owner_id: creator.id }, ['owner_id']],
        ['a number as name', { ...valid, name: 1 }, ['name']],
        ['a boolean as slug', { ...valid, slug: true }, ['slug']],
        ['an array as description', { ...valid, description: ['x'] }, ['description']],
        ['a NUL character in the name', { ...valid, name: 'Bad\u0000name' }, ['name']],
        ['a NUL character in the description', { ...valid, description: 'x\u0000' }, ['description']],
        ['a name too short', { ...valid, name: 'x' }, ['name']],
        ['a name too long', { ...valid, name: 'x'.repeat(201) }, ['name']],
        ['an upper-case slug', { ...valid, slug: 'Rust-Conf' }, ['slug']],
        ['a slug with an underscore', { ...valid, slug: 'rust_conf' }, ['slug']],
        ['a slug starting with a hyphen', { ...valid, slug: '-rustconf' }, ['slug']],
        ['a slug too short', { ...valid, slug: 'r' }, ['slug']],
        ['a slug too long', { ...valid, slug: 'r'.repeat(65) }, ['slug']],
        ['a description too long', { ...valid, description: 'x'.repeat(5001) }, ['description']],
        ['a bad contact e-mail', { ...valid, contact_email: 'not-an-email' }, ['contact_email']],
        ['a non-http logo URL', { ...valid, logo_url: 'javascript:alert(1)' }, ['logo_url']],
        ['a non-URL banner', { ...valid, banner_url: 'banner.png' }, ['banner_url']],
        ['no name and no slug', {}, ['name', 'slug']],
        ['an array body', [valid], ['body']],
        ['a null body', null, ['body']],
      ];
      for (const [label, body, fields] of cases) {
        expectInvalid(await t.post<Event>('/events', { token: creator.token, body }), label, ...fields);
      }
      expectInvalid(
        await t.post<Event>('/events', {
          token: creator.token,
          payload: '{"name": 1e400, "slug": "big-number"}',
          contentType: 'application/json',
        }),
        'a number beyond 2^53',
        'name',
      );
      assert.deepEqual(await myEvents(creator), []);
    });
  });

  describe('GET /events', () => {
    it('lists published events only, newest first, page by page', async () => {
      const baseline = (await t.get<Event[]>('/events?limit=1')).body.pagination.total as number;
      const first = await publishEvent(owner, (await createEvent(owner, { name: 'First' })).id);
      const second = await publishEvent(owner, (await createEvent(owner, { name: 'Second' })).id);
      const hidden = await createEvent(owner, { name: 'Hidden draft' });
      const third = await publishEvent(owner, (await createEvent(owner, { name: 'Third' })).id);
      const total = baseline + 3;

      const page1 = await t.get<Event[]>('/events?page=1&limit=2');
      assert.deepEqual(
        expectOk(page1, 200, 'events').map((event: { id: string }) => event.id),
        [third.id, second.id],
      );
      assert.deepEqual(page1.body.pagination, {
        page: 1,
        limit: 2,
        total,
        has_next: true,
        has_prev: false,
        next_page: 2,
        prev_page: null,
      });
      assert.deepEqual(expectOk(page1)[0], third);

      const page2 = await t.get<Event[]>('/events?page=2&limit=2');
      assert.equal(expectOk(page2)[0].id, first.id);
      assert.equal(page2.body.pagination.has_prev, true);
      assert.equal(page2.body.pagination.prev_page, 1);

      const lastPage = Math.ceil(total / 2);
      const last = await t.get<Event[]>(`/events?page=${lastPage}&limit=2`);
      assert.equal(expectOk(last).length, total - (lastPage - 1) * 2);
      assert.equal(last.body.pagination.has_next, false);
      assert.equal(last.body.pagination.next_page, null);

      const beyond = await t.get<Event[]>(`/events?page=${lastPage + 1}&limit=2`);
      assert.deepEqual(expectOk(beyond), []);
      assert.equal(beyond.body.pagination.total, total);
      assert.equal(beyond.body.pagination.has_next, false);
      assert.equal(beyond.body.pagination.prev_page, lastPage);

      const all = expectOk(await t.get<Event[]>('/events?limit=100'));
      assert.equal(all.length, total);
      assert.ok(all.every((event: { status: string }) => event.status === 'active'));
      const ids = all.map((event: { id: string }) => event.id);
      assert.ok(!ids.includes(hidden.id), 'a draft is not listed');
      assert.ok(!ids.includes(draft.id), 'a draft is not listed');
      assert.ok(ids.includes(live.id));
    });

    it('defaults to page 1 of 20 and needs no token', async () => {
      const response = await t.get<Event[]>('/events');
      expectOk(response, 200, 'events');
      assert.equal(response.body.pagination.page, 1);
      assert.equal(response.body.pagination.limit, 20);
      assert.equal(response.body.pagination.has_prev, false);
      assert.equal(response.body.pagination.prev_page, null);
    });

    it('refuses out-of-range or malformed page and limit (400)', async () => {
      expectInvalid(await t.get<Event[]>('/events?page=0'), 'page=0', 'query.page');
      expectInvalid(await t.get<Event[]>('/events?page=-1'), 'page=-1', 'query.page');
      expectInvalid(await t.get<Event[]>('/events?page=abc'), 'page=abc', 'query.page');
      expectInvalid(await t.get<Event[]>('/events?limit=0'), 'limit=0', 'query.limit');
      expectInvalid(await t.get<Event[]>('/events?limit=101'), 'limit=101', 'query.limit');
      expectInvalid(await t.get<Event[]>('/events?limit=1.5'), 'limit=1.5', 'query.limit');
      expectInvalid(await t.get<Event[]>('/events?limit=ten'), 'limit=ten', 'query.limit');
      expectInvalid(await t.get<Event[]>('/events?status=draft'), 'an unknown parameter', 'query.status');
    });
  });

  describe('GET /events/mine', () => {
    it('lists every event where the caller has a role, drafts included, with that role', async () => {
      const byOwner = await myEvents(owner);
      const roleOf = (list: Array<{ id: string; role: string }>, id: string) =>
        list.find((event) => event.id === id)?.role;
      assert.equal(roleOf(byOwner, draft.id), 'owner');
      assert.equal(roleOf(byOwner, live.id), 'owner');
      assert.deepEqual(Object.keys(byOwner[0]).sort(), [...EVENT_KEYS, 'role'].sort());

      const byAdmin = await myEvents(admin);
      assert.deepEqual(
        byAdmin.map((event: { id: string; role: string }) => [event.id, event.role]),
        [
          [live.id, 'admin'],
          [draft.id, 'admin'],
        ],
      );
      assert.equal(byAdmin.find((event: { id: string }) => event.id === draft.id)?.status, 'draft');
      const byStaff = await myEvents(staff);
      assert.deepEqual(
        byStaff.map((event: { id: string; role: string }) => [event.id, event.role]),
        [
          [live.id, 'staff'],
          [draft.id, 'staff'],
        ],
      );
      assert.deepEqual(await myEvents(outsider), []);
    });

    it('paginates the caller events', async () => {
      const response = await t.get<MyEvent[]>('/events/mine?page=2&limit=1', { token: staff.token });
      assert.deepEqual(
        expectOk(response, 200, 'events').map((event: { id: string }) => event.id),
        [draft.id],
      );
      assert.deepEqual(response.body.pagination, {
        page: 2,
        limit: 1,
        total: 2,
        has_next: false,
        has_prev: true,
        next_page: null,
        prev_page: 1,
      });
    });

    it('refuses page=0 and limit=101 (400)', async () => {
      expectInvalid(
        await t.get<MyEvent[]>('/events/mine?page=0', { token: owner.token }),
        'page=0',
        'query.page',
      );
      expectInvalid(
        await t.get<MyEvent[]>('/events/mine?limit=101', { token: owner.token }),
        'limit=101',
        'query.limit',
      );
    });
  });

  describe('GET /events/{event_slug}:by-slug', () => {
    it('answers a published event by its slug', async () => {
      assert.deepEqual(expectOk(await t.get<Event>(`/events/${live.slug}:by-slug`), 200, 'events'), live);
    });

    it('answers 404 for a draft, to anyone, until it is published', async () => {
      const event = await createEvent(owner);
      expectError(await t.get<Event>(`/events/${event.slug}:by-slug`), 404, 'NOT_FOUND');
      expectError(
        await t.get<Event>(`/events/${event.slug}:by-slug`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      await publishEvent(owner, event.id);
      assert.equal(expectOk(await t.get<Event>(`/events/${event.slug}:by-slug`)).id, event.id);
    });

    it('answers 404 for an unknown slug and 400 for a malformed one', async () => {
      expectError(await t.get<Event>(`/events/${newSlug('nobody')}:by-slug`), 404, 'NOT_FOUND');
      expectInvalid(await t.get<Event>('/events/Bad_Slug:by-slug'), 'upper case', 'params.event_slug');
      expectInvalid(await t.get<Event>(`/events/${'a'.repeat(65)}:by-slug`), 'too long', 'params.event_slug');
      expectInvalid(await t.get<Event>('/events/a%00b:by-slug'), 'a NUL character', 'params.event_slug');
    });
  });

  describe('GET /events/{event_id}', () => {
    it('answers a published event to anyone', async () => {
      assert.deepEqual(expectOk(await t.get<Event>(`/events/${live.id}`), 200, 'events'), live);
      assert.deepEqual(expectOk(await t.get<Event>(`/events/${live.id}`, { token: outsider.token })), live);
    });

    it('hides a draft from the public and from non-members (404) and shows it to every member', async () => {
      expectError(await t.get<Event>(`/events/${draft.id}`), 404, 'NOT_FOUND');
      expectError(await t.get<Event>(`/events/${draft.id}`, { token: outsider.token }), 404, 'NOT_FOUND');
      for (const member of [owner, admin, staff]) {
        const event = expectOk(
          await t.get<Event>(`/events/${draft.id}`, { token: member.token }),
          200,
          'events',
        );
        assert.equal(event.id, draft.id);
        assert.equal(event.status, 'draft');
      }
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      expectError(await t.get<Event>(`/events/${UNKNOWN_ID}`), 404, 'NOT_FOUND');
      expectError(await t.get<Event>(`/events/${UNKNOWN_ID}`, { token: owner.token }), 404, 'NOT_FOUND');
      expectInvalid(await t.get<Event>('/events/not-a-uuid'), 'a slug', 'params.event_id');
      expectInvalid(await t.get<Event>('/events/01937a4e-0000-7000-8000'), 'a short uuid', 'params.event_id');
    });
  });
});
