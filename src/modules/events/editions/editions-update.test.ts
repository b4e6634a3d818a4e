/**
 * Editions (docs/reference/events.md): partial update, with the date and overlap rules checked against the
 * resulting values.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { Event } from '../events/events.schemas.ts';
import {
  at,
  EDITION_KEYS,
  eventFixtures,
  expectInvalid,
  idsOf,
  newSlug,
  UNKNOWN_ID,
  useTeam,
} from '../events.fixtures.ts';
import type { Edition } from './editions.schemas.ts';

describe('editions: update', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  /** A published event of `owner` with `admin` and `staff` as members, and its draft edition. */
  let event: Event;
  let edition: Edition;
  const { createFixtureEdition, createTeamEvent, createEdition, draftList, expectHiddenEvent } =
    eventFixtures(() => team);

  before(async () => {
    ({ event, edition } = await createFixtureEdition());
  });

  checkAuth(
    'protected edition routes: update',
    () => t,
    () => [
      {
        method: 'PATCH',
        url: `/events/${event.id}/editions/${edition.id}`,
        body: { name: 'Hijacked' },
        forbidden: staff,
      },
    ],
  );

  describe('PATCH /events/{event_id}/editions/{edition_id}', () => {
    it('lets the owner change any field, visible in later reads', async () => {
      const host = await createTeamEvent();
      const current = await createEdition(host.id, 100, 200, { tagline: 'Old' });
      const changes = {
        name: 'Renamed edition',
        slug: newSlug('renamed'),
        tagline: 'New tagline',
        description: 'A description',
        registration_opens_at: at(50),
        starts_at: at(90),
        ends_at: at(210),
        location_name: 'Somewhere',
        location_description: 'Up the stairs',
        logo_url: 'https://cdn.example/e-logo.png',
        banner_url: 'https://cdn.example/e-banner.png',
        contact_email: 'edition@example.com',
      };
      const updated = expectOk(
        await t.patch<Edition>(`/events/${host.id}/editions/${current.id}`, {
          token: owner.token,
          body: changes,
        }),
        200,
        'events',
      );
      assert.deepEqual(Object.keys(updated).sort(), EDITION_KEYS);
      assert.deepEqual(
        { ...updated, updated_at: undefined },
        { ...current, ...changes, updated_at: undefined },
      );
      assert.ok(updated.updated_at >= current.updated_at);
      assert.deepEqual(
        expectOk(await t.get<Edition>(`/editions/${current.id}`, { token: owner.token })),
        updated,
      );
      assert.deepEqual(await draftList(host.id), [updated]);
    });

    it('lets an admin update, and null clears an optional field', async () => {
      const host = await createTeamEvent();
      const current = await createEdition(host.id, 0, 10, {
        tagline: 'Tagline',
        registration_opens_at: at(-5),
        logo_url: 'https://cdn.example/x.png',
      });
      const updated = expectOk(
        await t.patch<Edition>(`/events/${host.id}/editions/${current.id}`, {
          token: admin.token,
          body: { tagline: null, registration_opens_at: null, logo_url: null },
        }),
      );
      assert.equal(updated.tagline, null);
      assert.equal(updated.registration_opens_at, null);
      assert.equal(updated.logo_url, null);
      assert.equal(updated.starts_at, current.starts_at);
      assert.equal(updated.is_draft, true);
      assert.equal(updated.created_by, owner.id);
    });

    it('checks the date rules against the resulting values (400)', async () => {
      const host = await createTeamEvent();
      const current = await createEdition(host.id, 100, 200, { registration_opens_at: at(50) });
      const url = `/events/${host.id}/editions/${current.id}`;
      const cases: Array<[string, Record<string, unknown>, string]> = [
        ['ends_at before the current start', { ends_at: at(99) }, 'ends_at'],
        ['ends_at at the current start', { ends_at: at(100) }, 'ends_at'],
        ['starts_at after the current end', { starts_at: at(201) }, 'ends_at'],
        ['both, backwards', { starts_at: at(300), ends_at: at(250) }, 'ends_at'],
        ['registration after the current start', { registration_opens_at: at(101) }, 'registration_opens_at'],
        ['a start before the current registration', { starts_at: at(40) }, 'registration_opens_at'],
        ['a leap second', { ends_at: '2016-12-31T23:59:60Z' }, 'ends_at'],
        ['the year zero', { starts_at: '0000-06-01T00:00:00Z' }, 'starts_at'],
      ];
      for (const [label, body, field] of cases) {
        expectInvalid(await t.patch(url, { token: owner.token, body }), label, field);
      }
      assert.deepEqual(
        expectOk(await t.get<Edition>(`/editions/${current.id}`, { token: owner.token })),
        current,
      );
      // Moving both ends together, and the registration with them, is fine.
      const moved = expectOk(
        await t.patch<Edition>(url, {
          token: owner.token,
          body: { starts_at: at(40), ends_at: at(60), registration_opens_at: at(30) },
        }),
      );
      assert.equal(moved.starts_at, at(40));
      assert.equal(moved.ends_at, at(60));
    });

    it('refuses dates that overlap another edition (409) but not its own former span or an adjacent one', async () => {
      const host = await createTeamEvent();
      const first = await createEdition(host.id, 100, 200);
      const second = await createEdition(host.id, 300, 400);
      const url = `/events/${host.id}/editions/${second.id}`;
      for (const body of [
        { starts_at: at(199) },
        { starts_at: at(50), ends_at: at(450) },
        { starts_at: at(150), ends_at: at(160) },
      ]) {
        expectError(await t.patch(url, { token: owner.token, body }), 409, 'CONFLICT');
      }
      assert.deepEqual(
        expectOk(await t.get<Edition>(`/editions/${second.id}`, { token: owner.token })),
        second,
      );
      // Overlapping its own former span and touching the first edition is allowed.
      const adjacent = expectOk(
        await t.patch<Edition>(url, { token: owner.token, body: { starts_at: at(200) } }),
      );
      assert.equal(adjacent.starts_at, at(200));
      assert.equal(adjacent.ends_at, at(400));
      assert.deepEqual(idsOf(await draftList(host.id)), [first.id, second.id]);
    });

    it('refuses a slug used by another edition of the event (409)', async () => {
      const host = await createTeamEvent();
      const first = await createEdition(host.id, 0, 10);
      const second = await createEdition(host.id, 20, 30);
      expectError(
        await t.patch<Edition>(`/events/${host.id}/editions/${second.id}`, {
          token: owner.token,
          body: { slug: first.slug },
        }),
        409,
        'CONFLICT',
      );
      // Its own slug is no conflict.
      expectOk(
        await t.patch<Edition>(`/events/${host.id}/editions/${second.id}`, {
          token: owner.token,
          body: { slug: second.slug },
        }),
      );
    });

    it('answers 404 for an edition reached through another event, even one the caller owns', async () => {
      const other = await createTeamEvent();
      const response = await t.patch<Edition>(`/events/${other.id}/editions/${edition.id}`, {
        token: owner.token,
        body: { name: 'Moved' },
      });
      expectError(response, 404, 'NOT_FOUND');
      assert.equal(
        expectOk(await t.get<Edition>(`/editions/${edition.id}`, { token: owner.token })).name,
        'Fixture edition',
      );
    });

    it('refuses staff and non-members (403) without changing anything', async () => {
      for (const caller of [staff, outsider]) {
        expectError(
          await t.patch<Edition>(`/events/${event.id}/editions/${edition.id}`, {
            token: caller.token,
            body: { name: 'Hijacked' },
          }),
          403,
          'FORBIDDEN',
        );
      }
      assert.equal(
        expectOk(await t.get<Edition>(`/editions/${edition.id}`, { token: owner.token })).name,
        'Fixture edition',
      );
    });

    it('refuses malformed JSON and invalid fields (400), changing nothing', async () => {
      const url = `/events/${event.id}/editions/${edition.id}`;
      expectError(
        await t.patch(url, { token: owner.token, payload: '{"name": ', contentType: 'application/json' }),
        400,
        'BAD_REQUEST',
      );
      const cases: Array<[string, unknown, string[]]> = [
        ['an empty body', {}, ['body']],
        ['is_draft', { is_draft: false }, ['is_draft']],
        ['deleted_at', { deleted_at: at(0) }, ['deleted_at']],
        ['an event_id', { event_id: UNKNOWN_ID }, ['event_id']],
        ['a number as name', { name: 1 }, ['name']],
        ['a null name', { name: null }, ['name']],
        ['a null starts_at', { starts_at: null }, ['starts_at']],
        ['a NUL character', { location_name: 'Hall\u0000' }, ['location_name']],
        ['a bad slug', { slug: '-2030' }, ['slug']],
        ['a bad date-time', { ends_at: '31/12/2030' }, ['ends_at']],
        ['a number as date', { starts_at: 0 }, ['starts_at']],
        ['a bad URL', { banner_url: 'not a url' }, ['banner_url']],
      ];
      for (const [label, body, fields] of cases) {
        expectInvalid(await t.patch(url, { token: owner.token, body }), label, ...fields);
      }
      assert.deepEqual(
        expectOk(await t.get<Edition>(`/editions/${edition.id}`, { token: owner.token })),
        edition,
      );
    });

    it('answers 404 for an unknown edition or event and 400 for malformed ids', async () => {
      const body = { name: 'Ghost' };
      expectError(
        await t.patch<Edition>(`/events/${event.id}/editions/${UNKNOWN_ID}`, { token: owner.token, body }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.patch<Edition>(`/events/${UNKNOWN_ID}/editions/${edition.id}`, { token: owner.token, body }),
        404,
        'NOT_FOUND',
      );
      expectInvalid(
        await t.patch<Edition>(`/events/${event.id}/editions/nope`, { token: owner.token, body }),
        'edition id',
        'params.edition_id',
      );
      expectInvalid(
        await t.patch<Edition>(`/events/nope/editions/${edition.id}`, { token: owner.token, body }),
        'event id',
        'params.event_id',
      );
    });
  });

  describe('draft events and non-members', () => {
    it('hides a draft event from non-members on write routes (404)', async () => {
      const host = await createTeamEvent({ isDraft: true });
      const current = await createEdition(host.id, 0, 10);
      await expectHiddenEvent(outsider, host.id, [
        { method: 'PATCH', url: (id) => `/events/${id}/editions/${current.id}`, body: { name: 'Probe' } },
      ]);
      // A member lacking the role still learns it is forbidden (403); nothing changes.
      expectError(
        await t.patch<Edition>(`/events/${host.id}/editions/${current.id}`, {
          token: staff.token,
          body: { name: 'Probe' },
        }),
        403,
        'FORBIDDEN',
      );
      assert.deepEqual(await draftList(host.id), [current]);
    });
  });
});
