/**
 * Editions (docs/reference/events.md): creation, its date rules and the no-overlap rule; bad input (never a
 * 5xx), authentication and roles, unknown ids. Reads: editions-read.test.ts; update:
 * editions-update.test.ts; publish and soft delete: editions-lifecycle.test.ts.
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
  ISO,
  idsOf,
  newSlug,
  UNKNOWN_ID,
  useTeam,
} from '../events.fixtures.ts';
import type { Edition } from './editions.schemas.ts';

describe('editions: creation', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  /** A published event of `owner` with `admin` and `staff` as members. */
  let event: Event;
  const { createTeamEvent, createEdition, publishEdition, publicList, draftList, expectHiddenEvent } =
    eventFixtures(() => team);

  before(async () => {
    event = await createTeamEvent();
  });

  checkAuth(
    'protected edition routes: create',
    () => t,
    () => [
      {
        method: 'POST',
        url: `/events/${event.id}/editions`,
        body: { name: 'Nope', slug: newSlug(), starts_at: at(-1000), ends_at: at(-999) },
        forbidden: staff,
      },
    ],
  );

  describe('POST /events/{event_id}/editions', () => {
    it('creates a draft edition with the required fields, the rest null', async () => {
      const host = await createTeamEvent();
      const slug = newSlug('first');
      const response = await t.post<Edition>(`/events/${host.id}/editions`, {
        token: owner.token,
        body: { name: 'Lisbon 2030', slug, starts_at: '2030-06-10T11:00:00+02:00', ends_at: at(4000) },
      });
      const created = expectOk(response, 201, 'events');
      assert.equal(response.body.message, 'Created');
      assert.deepEqual(Object.keys(created).sort(), EDITION_KEYS);
      assert.match(created.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(created.event_id, host.id);
      assert.equal(created.name, 'Lisbon 2030');
      assert.equal(created.slug, slug);
      assert.equal(created.is_draft, true);
      // An offset is normalized to UTC with milliseconds.
      assert.equal(created.starts_at, '2030-06-10T09:00:00.000Z');
      assert.equal(created.ends_at, at(4000));
      assert.equal(created.created_by, owner.id);
      assert.equal(created.deleted_at, null);
      for (const field of [
        'tagline',
        'description',
        'registration_opens_at',
        'location_name',
        'location_description',
        'logo_url',
        'banner_url',
        'contact_email',
      ]) {
        assert.equal((created as Record<string, unknown>)[field], null, field);
      }
      assert.match(created.created_at, ISO);
      assert.match(created.updated_at, ISO);

      // Side effects: a draft, so members read it and the draft list holds it; the public does not.
      assert.deepEqual(
        expectOk(await t.get<Edition>(`/editions/${created.id}`, { token: owner.token })),
        created,
      );
      assert.deepEqual(await draftList(host.id), [created]);
      assert.deepEqual(await publicList(host.id), []);
      expectError(await t.get<Edition>(`/editions/${created.id}`), 404, 'NOT_FOUND');
    });

    it('stores every optional field', async () => {
      const host = await createTeamEvent();
      const fields = {
        tagline: 'Three days by the river',
        description: 'All about it',
        registration_opens_at: at(-24),
        location_name: 'Centro de Congressos',
        location_description: 'Main hall, second floor',
        logo_url: 'https://cdn.example/logo.png',
        banner_url: 'https://cdn.example/banner.png',
        contact_email: 'hello@conf.example',
      };
      const created = await createEdition(host.id, 0, 10, fields);
      for (const [field, value] of Object.entries(fields))
        assert.equal((created as Record<string, unknown>)[field], value, field);
      assert.deepEqual(
        expectOk(await t.get<Edition>(`/editions/${created.id}`, { token: staff.token })),
        created,
      );
    });

    it('lets an admin create, recorded as its creator', async () => {
      const host = await createTeamEvent();
      assert.equal((await createEdition(host.id, 0, 10, {}, admin)).created_by, admin.id);
    });

    it('refuses a slug already used in the same event (409) and accepts it in another event', async () => {
      const host = await createTeamEvent();
      const other = await createTeamEvent();
      const first = await createEdition(host.id, 0, 10);
      expectError(
        await t.post<Edition>(`/events/${host.id}/editions`, {
          token: owner.token,
          body: { name: 'Copy', slug: first.slug, starts_at: at(100), ends_at: at(110) },
        }),
        409,
        'CONFLICT',
      );
      assert.equal((await createEdition(other.id, 0, 10, { slug: first.slug })).slug, first.slug);
      assert.deepEqual(idsOf(await draftList(host.id)), [first.id]);
    });

    it('refuses an ends_at that is not after starts_at (400 VALIDATION_ERROR)', async () => {
      const host = await createTeamEvent();
      for (const [from, to] of [
        [10, 10],
        [10, 9],
      ] as const) {
        expectInvalid(
          await t.post<Edition>(`/events/${host.id}/editions`, {
            token: owner.token,
            body: { name: 'Backwards', slug: newSlug(), starts_at: at(from), ends_at: at(to) },
          }),
          `${from} to ${to}`,
          'ends_at',
        );
      }
      assert.deepEqual(await draftList(host.id), []);
    });

    it('refuses a registration opening after the start (400) and accepts one at the start', async () => {
      const host = await createTeamEvent();
      expectInvalid(
        await t.post<Edition>(`/events/${host.id}/editions`, {
          token: owner.token,
          body: {
            name: 'Late registration',
            slug: newSlug(),
            starts_at: at(10),
            ends_at: at(20),
            registration_opens_at: at(11),
          },
        }),
        'registration after the start',
        'registration_opens_at',
      );
      const created = await createEdition(host.id, 10, 20, { registration_opens_at: at(10) });
      assert.equal(created.registration_opens_at, at(10));
    });

    it('refuses an edition overlapping another live edition of the event (409), drafts included', async () => {
      const host = await createTeamEvent();
      const existing = await createEdition(host.id, 100, 200);
      const published = await publishEdition(host.id, (await createEdition(host.id, 300, 400)).id);
      const overlapping: Array<[string, number, number]> = [
        ['the same span', 100, 200],
        ['inside it', 120, 130],
        ['around it', 50, 250],
        ['across its start', 50, 101],
        ['across its end', 199, 250],
        ['across a published edition', 350, 450],
      ];
      for (const [label, from, to] of overlapping) {
        const response = await t.post<Edition>(`/events/${host.id}/editions`, {
          token: owner.token,
          body: { name: 'Clash', slug: newSlug(), starts_at: at(from), ends_at: at(to) },
        });
        try {
          assert.equal(expectError(response, 409, 'CONFLICT').reason, 'edition_overlap');
        } catch (error) {
          throw new Error(`${label}: ${(error as Error).message}`);
        }
      }
      assert.deepEqual(idsOf(await draftList(host.id)), [existing.id]);
      assert.deepEqual(idsOf(await publicList(host.id)), [published.id]);
    });

    it('accepts adjacent editions (one ends exactly when the next starts) and the same span in another event', async () => {
      const host = await createTeamEvent();
      const middle = await createEdition(host.id, 100, 200);
      const before = await createEdition(host.id, 50, 100);
      const following = await createEdition(host.id, 200, 250);
      const other = await createTeamEvent();
      await createEdition(other.id, 100, 200);
      assert.deepEqual(idsOf(await draftList(host.id)), [before.id, middle.id, following.id]);
    });

    it('creates one of two overlapping editions sent at once: one 201, one 409', async () => {
      const host = await createTeamEvent();
      const send = () =>
        t.post<Edition>(`/events/${host.id}/editions`, {
          token: owner.token,
          body: { name: 'Racing', slug: newSlug(), starts_at: at(0), ends_at: at(10) },
        });
      const results = await Promise.all([send(), send(), send()]);
      assert.deepEqual(results.map((result) => result.status).sort(), [201, 409, 409]);
      assert.equal((await draftList(host.id)).length, 1);
    });

    it('refuses malformed JSON (400 BAD_REQUEST)', async () => {
      expectError(
        await t.post<Edition>(`/events/${event.id}/editions`, {
          token: owner.token,
          payload: '{"name": "x", ',
          contentType: 'application/json',
        }),
        400,
        'BAD_REQUEST',
      );
    });

    it('refuses fields that fail their schema, naming each one, and creates nothing', async () => {
      const host = await createTeamEvent();
      const valid = { name: 'Valid', slug: newSlug(), starts_at: at(0), ends_at: at(10) };
      const cases: Array<[string, unknown, string[]]> = [
        ['an unknown field', { ...valid, venue: 'x' }, ['venue']],
        ['is_draft (publishing is its own route)', { ...valid, is_draft: false }, ['is_draft']],
        ['an event_id', { ...valid, event_id: event.id }, ['event_id']],
        ['a number as name', { ...valid, name: 1 }, ['name']],
        ['a NUL character in the name', { ...valid, name: 'Bad\u0000' }, ['name']],
        ['a NUL character in the tagline', { ...valid, tagline: '\u0000' }, ['tagline']],
        ['a name too short', { ...valid, name: 'x' }, ['name']],
        ['a bad slug', { ...valid, slug: 'Edition 2030' }, ['slug']],
        ['a slug too long', { ...valid, slug: 'e'.repeat(65) }, ['slug']],
        ['a number as starts_at', { ...valid, starts_at: 1_900_000_000 }, ['starts_at']],
        ['a word as starts_at', { ...valid, starts_at: 'tomorrow' }, ['starts_at']],
        ['a date without time', { ...valid, starts_at: '2030-01-01' }, ['starts_at']],
        ['a date-time without zone', { ...valid, starts_at: '2030-01-01T10:00:00' }, ['starts_at']],
        ['an impossible day', { ...valid, starts_at: '2030-02-30T10:00:00Z' }, ['starts_at']],
        ['an impossible hour', { ...valid, ends_at: '2030-01-01T25:00:00Z' }, ['ends_at']],
        ['a leap second', { ...valid, starts_at: '2016-12-31T23:59:60Z' }, ['starts_at']],
        [
          'a leap second as registration opening',
          { ...valid, registration_opens_at: '2016-12-31T23:59:60Z' },
          ['registration_opens_at'],
        ],
        ['the year zero', { ...valid, starts_at: '0000-01-01T00:00:00Z' }, ['starts_at']],
        ['a null starts_at', { ...valid, starts_at: null }, ['starts_at']],
        ['a bad registration date', { ...valid, registration_opens_at: 'soon' }, ['registration_opens_at']],
        ['a bad logo URL', { ...valid, logo_url: 'data:image/png;base64,AA' }, ['logo_url']],
        ['a bad contact e-mail', { ...valid, contact_email: 'nope' }, ['contact_email']],
        ['a tagline too long', { ...valid, tagline: 't'.repeat(301) }, ['tagline']],
        ['no fields', {}, ['name', 'slug', 'starts_at', 'ends_at']],
        ['an array body', [valid], ['body']],
      ];
      for (const [label, body, fields] of cases) {
        expectInvalid(
          await t.post<Edition>(`/events/${host.id}/editions`, { token: owner.token, body }),
          label,
          ...fields,
        );
      }
      assert.deepEqual(await draftList(host.id), []);
    });

    it('answers 404 for an unknown event and 400 for a malformed id', async () => {
      const body = { name: 'Ghost', slug: newSlug(), starts_at: at(0), ends_at: at(1) };
      expectError(
        await t.post<Edition>(`/events/${UNKNOWN_ID}/editions`, { token: owner.token, body }),
        404,
        'NOT_FOUND',
      );
      expectInvalid(
        await t.post<Edition>('/events/nope/editions', { token: owner.token, body }),
        'malformed',
        'params.event_id',
      );
    });
  });

  describe('draft events and non-members', () => {
    it('hides a draft event from non-members on write routes (404)', async () => {
      const host = await createTeamEvent({ isDraft: true });
      const body = { name: 'Probe', slug: newSlug(), starts_at: at(0), ends_at: at(10) };
      await expectHiddenEvent(outsider, host.id, [
        { method: 'POST', url: (id) => `/events/${id}/editions`, body },
      ]);
      // A member lacking the role still learns it is forbidden (403); nothing is created.
      expectError(
        await t.post<Edition>(`/events/${host.id}/editions`, { token: staff.token, body }),
        403,
        'FORBIDDEN',
      );
      assert.deepEqual(await draftList(host.id), []);
    });
  });
});
