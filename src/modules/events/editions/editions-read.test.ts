/**
 * Editions (docs/reference/events.md): the public and draft lists, reads by id and by slugs, with the
 * visibility rules of draft events and draft editions.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { Event } from '../events/events.schemas.ts';
import { eventFixtures, expectInvalid, idsOf, newSlug, UNKNOWN_ID, useTeam } from '../events.fixtures.ts';
import type { Edition } from './editions.schemas.ts';

describe('editions: lists and reads', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  /** A published event of `owner` with `admin` and `staff` as members, and its draft edition. */
  let event: Event;
  let edition: Edition;
  const { createFixtureEdition, createTeamEvent, createEdition, publishEdition, expectHiddenEvent } =
    eventFixtures(() => team);

  before(async () => {
    ({ event, edition } = await createFixtureEdition());
  });

  // Staff may list drafts, so the wrong role there is an outsider, on a published event.
  checkAuth(
    'protected edition routes: draft list',
    () => t,
    () => [{ method: 'GET', url: `/events/${event.id}/editions/drafts`, forbidden: outsider }],
  );

  describe('GET /events/{event_id}/editions', () => {
    it('lists published editions only, by starts_at, page by page, to anyone', async () => {
      const host = await createTeamEvent();
      // Created out of date order; one stays a draft.
      const late = await publishEdition(host.id, (await createEdition(host.id, 300, 310)).id);
      const early = await publishEdition(host.id, (await createEdition(host.id, 100, 110)).id);
      const hidden = await createEdition(host.id, 150, 160);
      const middle = await publishEdition(host.id, (await createEdition(host.id, 200, 210)).id);

      const page1 = await t.get<Edition[]>(`/events/${host.id}/editions?limit=2`);
      assert.deepEqual(expectOk(page1, 200, 'events'), [early, middle]);
      assert.deepEqual(page1.body.pagination, {
        page: 1,
        limit: 2,
        total: 3,
        has_next: true,
        has_prev: false,
        next_page: 2,
        prev_page: null,
      });
      const page2 = await t.get<Edition[]>(`/events/${host.id}/editions?page=2&limit=2`, {
        token: outsider.token,
      });
      assert.deepEqual(expectOk(page2), [late]);
      assert.deepEqual(page2.body.pagination, {
        page: 2,
        limit: 2,
        total: 3,
        has_next: false,
        has_prev: true,
        next_page: null,
        prev_page: 1,
      });
      const all = await t.get<Edition[]>(`/events/${host.id}/editions`);
      assert.deepEqual(idsOf(expectOk(all)), [early.id, middle.id, late.id]);
      assert.equal(all.body.pagination.limit, 20);
      assert.ok(!idsOf(expectOk(all)).includes(hidden.id));
    });

    it('answers 404 for a draft event to the public, and lists it to members', async () => {
      const host = await createTeamEvent({ isDraft: true });
      const published = await publishEdition(host.id, (await createEdition(host.id, 0, 10)).id);
      expectError(await t.get<Edition[]>(`/events/${host.id}/editions`), 404, 'NOT_FOUND');
      expectError(
        await t.get<Edition[]>(`/events/${host.id}/editions`, { token: outsider.token }),
        404,
        'NOT_FOUND',
      );
      assert.deepEqual(
        expectOk(await t.get<Edition[]>(`/events/${host.id}/editions`, { token: staff.token })),
        [published],
      );
    });

    it('refuses bad paging (400), a malformed id (400) and an unknown event (404)', async () => {
      expectInvalid(await t.get<Edition[]>(`/events/${event.id}/editions?page=0`), 'page=0', 'query.page');
      expectInvalid(
        await t.get<Edition[]>(`/events/${event.id}/editions?limit=101`),
        'limit=101',
        'query.limit',
      );
      expectInvalid(await t.get<Edition[]>(`/events/${event.id}/editions?limit=x`), 'limit=x', 'query.limit');
      expectInvalid(await t.get<Edition[]>('/events/nope/editions'), 'malformed', 'params.event_id');
      expectError(await t.get<Edition[]>(`/events/${UNKNOWN_ID}/editions`), 404, 'NOT_FOUND');
    });
  });

  describe('GET /events/{event_id}/editions/drafts', () => {
    it('lists draft editions only, by starts_at, to staff and above', async () => {
      const host = await createTeamEvent();
      const late = await createEdition(host.id, 300, 310);
      const early = await createEdition(host.id, 100, 110);
      await publishEdition(host.id, (await createEdition(host.id, 200, 210)).id);
      for (const caller of [owner, admin, staff]) {
        const response = await t.get<Edition[]>(`/events/${host.id}/editions/drafts`, {
          token: caller.token,
        });
        assert.deepEqual(expectOk(response, 200, 'events'), [early, late]);
        assert.deepEqual(response.body.pagination, {
          page: 1,
          limit: 20,
          total: 2,
          has_next: false,
          has_prev: false,
          next_page: null,
          prev_page: null,
        });
      }
      const page2 = await t.get<Edition[]>(`/events/${host.id}/editions/drafts?page=2&limit=1`, {
        token: staff.token,
      });
      assert.deepEqual(idsOf(expectOk(page2)), [late.id]);
      assert.equal(page2.body.pagination.has_prev, true);
      assert.equal(page2.body.pagination.has_next, false);
    });

    it('refuses a non-member (403), an unknown event (404), bad paging and a malformed id (400)', async () => {
      expectError(
        await t.get<Edition[]>(`/events/${event.id}/editions/drafts`, { token: outsider.token }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await t.get<Edition[]>(`/events/${UNKNOWN_ID}/editions/drafts`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectInvalid(
        await t.get<Edition[]>(`/events/${event.id}/editions/drafts?page=0`, { token: owner.token }),
        'page=0',
        'query.page',
      );
      expectInvalid(
        await t.get<Edition[]>(`/events/${event.id}/editions/drafts?limit=101`, { token: owner.token }),
        'limit=101',
        'query.limit',
      );
      expectInvalid(
        await t.get<Edition[]>('/events/nope/editions/drafts', { token: owner.token }),
        'malformed',
        'params.event_id',
      );
    });
  });

  describe('GET /events/{event_slug}:by-slug/editions/{edition_slug}:by-slug', () => {
    it('answers a published edition of a published event', async () => {
      const host = await createTeamEvent();
      const published = await publishEdition(host.id, (await createEdition(host.id, 0, 10)).id);
      const response = await t.get(`/events/${host.slug}:by-slug/editions/${published.slug}:by-slug`);
      assert.deepEqual(expectOk(response, 200, 'events'), published);
    });

    it('answers 404 unless both the event and the edition are published', async () => {
      const host = await createTeamEvent({ isDraft: true });
      const draftEdition = await createEdition(host.id, 0, 10);
      const url = `/events/${host.slug}:by-slug/editions/${draftEdition.slug}:by-slug`;
      expectError(await t.get(url), 404, 'NOT_FOUND');
      await publishEdition(host.id, draftEdition.id);
      // The edition is published, its event is not.
      expectError(await t.get(url), 404, 'NOT_FOUND');
      expectOk(await t.post<Event>(`/events/${host.id}/publish`, { token: owner.token }));
      assert.equal(expectOk(await t.get<Edition>(url)).id, draftEdition.id);
      // A published event with a draft edition.
      const stillDraft = await createEdition(host.id, 20, 30);
      expectError(
        await t.get(`/events/${host.slug}:by-slug/editions/${stillDraft.slug}:by-slug`),
        404,
        'NOT_FOUND',
      );
    });

    it('answers 404 for unknown slugs and for an edition slug of another event', async () => {
      const host = await createTeamEvent();
      const other = await createTeamEvent();
      const elsewhere = await publishEdition(other.id, (await createEdition(other.id, 0, 10)).id);
      expectError(
        await t.get(`/events/${host.slug}:by-slug/editions/${elsewhere.slug}:by-slug`),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.get(`/events/${host.slug}:by-slug/editions/${newSlug()}:by-slug`),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.get(`/events/${newSlug('nobody')}:by-slug/editions/${elsewhere.slug}:by-slug`),
        404,
        'NOT_FOUND',
      );
    });

    it('refuses malformed slugs (400)', async () => {
      expectInvalid(
        await t.get(`/events/Bad_Event:by-slug/editions/${edition.slug}:by-slug`),
        'event slug',
        'params.event_slug',
      );
      expectInvalid(
        await t.get(`/events/${event.slug}:by-slug/editions/Bad_Edition:by-slug`),
        'edition slug',
        'params.edition_slug',
      );
    });
  });

  describe('GET /editions/{edition_id}', () => {
    it('answers a published edition of a published event to anyone', async () => {
      const host = await createTeamEvent();
      const published = await publishEdition(host.id, (await createEdition(host.id, 0, 10)).id);
      assert.deepEqual(expectOk(await t.get<Edition>(`/editions/${published.id}`), 200, 'events'), published);
      assert.deepEqual(
        expectOk(await t.get<Edition>(`/editions/${published.id}`, { token: outsider.token })),
        published,
      );
    });

    it('hides a draft edition from the public and non-members (404) and shows it to members', async () => {
      expectError(await t.get<Edition>(`/editions/${edition.id}`), 404, 'NOT_FOUND');
      expectError(
        await t.get<Edition>(`/editions/${edition.id}`, { token: outsider.token }),
        404,
        'NOT_FOUND',
      );
      for (const member of [owner, admin, staff]) {
        const read = expectOk(await t.get<Edition>(`/editions/${edition.id}`, { token: member.token }));
        assert.equal(read.id, edition.id);
        assert.equal(read.is_draft, true);
      }
    });

    it('hides a published edition of a draft event from the public (404)', async () => {
      const host = await createTeamEvent({ isDraft: true });
      const published = await publishEdition(host.id, (await createEdition(host.id, 0, 10)).id);
      expectError(await t.get<Edition>(`/editions/${published.id}`), 404, 'NOT_FOUND');
      expectError(
        await t.get<Edition>(`/editions/${published.id}`, { token: outsider.token }),
        404,
        'NOT_FOUND',
      );
      assert.deepEqual(
        expectOk(await t.get<Edition>(`/editions/${published.id}`, { token: staff.token })),
        published,
      );
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      expectError(await t.get<Edition>(`/editions/${UNKNOWN_ID}`), 404, 'NOT_FOUND');
      expectError(await t.get<Edition>(`/editions/${UNKNOWN_ID}`, { token: owner.token }), 404, 'NOT_FOUND');
      expectInvalid(await t.get<Edition>('/editions/2030'), 'malformed', 'params.edition_id');
    });
  });

  describe('draft events and non-members', () => {
    it('hides a draft event from non-members on the draft list (404), and shows it to staff', async () => {
      const host = await createTeamEvent({ isDraft: true });
      const draft = await createEdition(host.id, 0, 10);
      await expectHiddenEvent(outsider, host.id, [
        { method: 'GET', url: (id) => `/events/${id}/editions/drafts` },
      ]);
      assert.deepEqual(
        expectOk(await t.get<Edition[]>(`/events/${host.id}/editions/drafts`, { token: staff.token })),
        [draft],
      );
    });
  });
});
