/**
 * Events (docs/reference/events.md): update and publish. Roles are decided before state: a member lacking the
 * role and a non-member of a published event get 403, a non-member of a draft gets the 404 of an
 * unknown event (the draft exists only for its members).
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
  newSlug,
  UNKNOWN_ID,
  useTeam,
} from '../events.fixtures.ts';
import type { Event } from './events.schemas.ts';

describe('events: update and publish', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  /** A draft event of `owner` with `admin` and `staff` as members. */
  let draft: Event;
  /** A published event of `owner` with the same members. */
  let live: Event;
  const { createEvent, publishEvent, addMember, createTeamEvent, expectHiddenEvent } = eventFixtures(
    () => team,
  );

  before(async () => {
    draft = await createTeamEvent({ isDraft: true, name: 'Draft event' });
    live = await createTeamEvent({ name: 'Live event' });
  });

  // The wrong role is a member lacking it (staff), on a draft: a member still gets 403 there.
  checkAuth(
    'protected event routes: update and publish',
    () => t,
    () => [
      { method: 'PATCH', url: `/events/${draft.id}`, body: { name: 'Renamed' }, forbidden: staff },
      { method: 'POST', url: `/events/${draft.id}/publish`, forbidden: staff },
    ],
  );

  describe('PATCH /events/{event_id}', () => {
    it('lets the owner change any of the create fields, visible in later reads', async () => {
      const event = await createEvent(owner, { description: 'Old' });
      const slug = newSlug('renamed');
      const changes = {
        name: 'Renamed event',
        slug,
        description: 'New description',
        contact_email: 'team@example.com',
        logo_url: 'https://cdn.example/new-logo.png',
        banner_url: 'https://cdn.example/new-banner.png',
      };
      const updated = expectOk(
        await t.patch<Event>(`/events/${event.id}`, { token: owner.token, body: changes }),
        200,
        'events',
      );
      assert.deepEqual(Object.keys(updated).sort(), EVENT_KEYS);
      assert.deepEqual(
        { ...updated, updated_at: undefined },
        { ...event, ...changes, updated_at: undefined },
      );
      assert.ok(updated.updated_at >= event.updated_at);
      assert.deepEqual(expectOk(await t.get<Event>(`/events/${event.id}`, { token: owner.token })), updated);

      // The new slug is the one that reads the event once it is published; the old slug is free.
      await publishEvent(owner, event.id);
      assert.equal(expectOk(await t.get<Event>(`/events/${slug}:by-slug`)).id, event.id);
      expectError(await t.get<Event>(`/events/${event.slug}:by-slug`), 404, 'NOT_FOUND');
      const reuse = await createEvent(owner, { slug: event.slug });
      assert.equal(reuse.slug, event.slug);
    });

    it('lets an admin update, and null clears an optional field', async () => {
      const event = await createEvent(owner, {
        description: 'Something',
        contact_email: 'a@example.com',
        logo_url: 'https://cdn.example/l.png',
      });
      await addMember(owner, event.id, admin, 'admin');
      const updated = expectOk(
        await t.patch<Event>(`/events/${event.id}`, {
          token: admin.token,
          body: { description: null, contact_email: null, logo_url: null },
        }),
      );
      assert.equal(updated.description, null);
      assert.equal(updated.contact_email, null);
      assert.equal(updated.logo_url, null);
      assert.equal(updated.name, event.name);
      assert.equal(updated.status, 'draft');
      assert.equal(updated.owner_id, owner.id);
    });

    it('keeps its own slug without a conflict and refuses another event slug (409)', async () => {
      const event = await createEvent(owner);
      expectOk(
        await t.patch<Event>(`/events/${event.id}`, { token: owner.token, body: { slug: event.slug } }),
      );
      expectError(
        await t.patch<Event>(`/events/${event.id}`, { token: owner.token, body: { slug: live.slug } }),
        409,
        'CONFLICT',
      );
      assert.equal(
        expectOk(await t.get<Event>(`/events/${event.id}`, { token: owner.token })).slug,
        event.slug,
      );
    });

    it('refuses staff on a draft or published event, and a non-member on a published one (403), changing nothing', async () => {
      for (const [caller, target] of [
        [staff, draft],
        [staff, live],
        [outsider, live],
      ] as const) {
        expectError(
          await t.patch<Event>(`/events/${target.id}`, { token: caller.token, body: { name: 'Hijacked' } }),
          403,
          'FORBIDDEN',
        );
      }
      assert.equal(
        expectOk(await t.get<Event>(`/events/${draft.id}`, { token: owner.token })).name,
        'Draft event',
      );
      assert.equal(expectOk(await t.get<Event>(`/events/${live.id}`)).name, 'Live event');
    });

    it('refuses malformed JSON and invalid fields (400), changing nothing', async () => {
      const url = `/events/${draft.id}`;
      await expectMalformedJson(t, url, owner, 'PATCH');
      const cases: Array<[string, unknown, string[]]> = [
        ['an empty body', {}, ['body']],
        ['an unknown field', { colour: 'red' }, ['colour']],
        ['a status (publish is its own route)', { status: 'active' }, ['status']],
        ['an owner_id', { owner_id: outsider.id }, ['owner_id']],
        ['a number as name', { name: 1 }, ['name']],
        ['a null name', { name: null }, ['name']],
        ['a NUL character', { name: 'Bad\u0000' }, ['name']],
        ['a bad slug', { slug: 'Not A Slug' }, ['slug']],
        ['a bad e-mail', { contact_email: 'nope' }, ['contact_email']],
        ['a bad URL', { banner_url: 'ftp://cdn.example/b.png' }, ['banner_url']],
      ];
      for (const [label, body, fields] of cases) {
        expectInvalid(await t.patch<Event>(url, { token: owner.token, body }), label, ...fields);
      }
      const unchanged = expectOk(await t.get<Event>(url, { token: owner.token }));
      assert.equal(unchanged.name, 'Draft event');
      assert.equal(unchanged.status, 'draft');
      assert.equal(unchanged.slug, draft.slug);
    });

    it('answers 404 for an unknown event and 400 for a malformed id', async () => {
      expectError(
        await t.patch<Event>(`/events/${UNKNOWN_ID}`, { token: owner.token, body: { name: 'Ghost' } }),
        404,
        'NOT_FOUND',
      );
      expectInvalid(
        await t.patch<Event>('/events/nope', { token: owner.token, body: { name: 'Ghost' } }),
        'a malformed id',
        'params.event_id',
      );
    });
  });

  describe('POST /events/{event_id}/publish', () => {
    it('moves a draft to active, which makes it public', async () => {
      const event = await createEvent(owner);
      const published = await publishEvent(owner, event.id);
      assert.deepEqual(Object.keys(published).sort(), EVENT_KEYS);
      assert.equal(published.status, 'active');
      assert.equal(published.id, event.id);
      assert.ok(published.updated_at >= event.updated_at);
      assert.deepEqual(expectOk(await t.get<Event>(`/events/${event.id}`)), published);
      assert.deepEqual(expectOk(await t.get<Event>(`/events/${event.slug}:by-slug`)), published);
      const listed = expectOk(await t.get<Event[]>('/events?limit=100')).map(
        (item: { id: string }) => item.id,
      );
      assert.ok(listed.includes(event.id));
    });

    it('refuses to publish an event that is already published (409)', async () => {
      expectError(await t.post<Event>(`/events/${live.id}/publish`, { token: owner.token }), 409, 'CONFLICT');
      expectError(await t.post<Event>(`/events/${live.id}/publish`, { token: admin.token }), 409, 'CONFLICT');
    });

    it('lets an admin publish', async () => {
      const event = await createEvent(owner);
      await addMember(owner, event.id, admin, 'admin');
      assert.equal((await publishEvent(admin, event.id)).status, 'active');
    });

    it('decides the role before the state: staff get 403 on a draft or published event, outsiders on a published one', async () => {
      for (const caller of [staff, outsider]) {
        expectError(
          await t.post<Event>(`/events/${live.id}/publish`, { token: caller.token }),
          403,
          'FORBIDDEN',
        );
      }
      expectError(
        await t.post<Event>(`/events/${draft.id}/publish`, { token: staff.token }),
        403,
        'FORBIDDEN',
      );
      assert.equal(
        expectOk(await t.get<Event>(`/events/${draft.id}`, { token: owner.token })).status,
        'draft',
      );
    });

    it('publishes once when two requests race: one 200, one 409', async () => {
      const event = await createEvent(owner);
      const results = await Promise.all([
        t.post<Event>(`/events/${event.id}/publish`, { token: owner.token }),
        t.post<Event>(`/events/${event.id}/publish`, { token: owner.token }),
      ]);
      assert.deepEqual(results.map((result) => result.status).sort(), [200, 409]);
    });

    it('answers 404 for an unknown event and 400 for a malformed id', async () => {
      expectError(
        await t.post<Event>(`/events/${UNKNOWN_ID}/publish`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectInvalid(
        await t.post<Event>('/events/123/publish', { token: owner.token }),
        'malformed',
        'params.event_id',
      );
    });
  });

  describe('draft events and non-members', () => {
    it('hides a draft event from non-members on write routes (404)', async () => {
      const hidden = await createTeamEvent({ isDraft: true, name: 'Hidden draft' });
      await expectHiddenEvent(outsider, hidden.id, [
        { method: 'PATCH', url: (id) => `/events/${id}`, body: { name: 'Probe' } },
        { method: 'POST', url: (id) => `/events/${id}/publish` },
      ]);
      assert.deepEqual(expectOk(await t.get<Event>(`/events/${hidden.id}`, { token: owner.token })), hidden);

      // Once published the event exists for everyone: the same caller is then forbidden (403).
      await publishEvent(owner, hidden.id);
      expectError(
        await t.patch<Event>(`/events/${hidden.id}`, { token: outsider.token, body: { name: 'Probe' } }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await t.post<Event>(`/events/${hidden.id}/publish`, { token: outsider.token }),
        403,
        'FORBIDDEN',
      );
      assert.equal(expectOk(await t.get<Event>(`/events/${hidden.id}`)).name, 'Hidden draft');
    });
  });
});
