/**
 * Editions (docs/reference/events.md): publish (once) and soft delete (owner only).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { Event } from '../events/events.schemas.ts';
import {
  EDITION_KEYS,
  type EventRoute,
  eventFixtures,
  expectInvalid,
  ISO,
  idsOf,
  UNKNOWN_ID,
  useTeam,
} from '../events.fixtures.ts';
import type { Edition } from './editions.schemas.ts';

describe('editions: publish and delete', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  /** A published event of `owner` with `admin` and `staff` as members, and its draft edition. */
  let event: Event;
  let edition: Edition;
  const {
    createFixtureEdition,
    createTeamEvent,
    createEdition,
    publishEdition,
    publicList,
    draftList,
    expectHiddenEvent,
  } = eventFixtures(() => team);

  before(async () => {
    ({ event, edition } = await createFixtureEdition());
  });

  checkAuth(
    'protected edition routes: publish and delete',
    () => t,
    () => [
      { method: 'POST', url: `/events/${event.id}/editions/${edition.id}/publish`, forbidden: staff },
      // Deleting is the owner's alone: an admin is refused.
      { method: 'DELETE', url: `/events/${event.id}/editions/${edition.id}`, forbidden: admin },
    ],
  );

  describe('POST /events/{event_id}/editions/{edition_id}/publish', () => {
    it('publishes a draft: it leaves the drafts and joins the public reads', async () => {
      const host = await createTeamEvent();
      const draft = await createEdition(host.id, 0, 10);
      const published = await publishEdition(host.id, draft.id);
      assert.deepEqual(Object.keys(published).sort(), EDITION_KEYS);
      assert.equal(published.is_draft, false);
      assert.deepEqual({ ...published, is_draft: true, updated_at: draft.updated_at }, draft);
      assert.ok(published.updated_at >= draft.updated_at);
      assert.deepEqual(await draftList(host.id), []);
      assert.deepEqual(await publicList(host.id), [published]);
      assert.deepEqual(expectOk(await t.get<Edition>(`/editions/${draft.id}`)), published);
      assert.deepEqual(
        expectOk(await t.get(`/events/${host.slug}:by-slug/editions/${draft.slug}:by-slug`)),
        published,
      );
    });

    it('refuses to publish twice (409)', async () => {
      const host = await createTeamEvent();
      const published = await publishEdition(host.id, (await createEdition(host.id, 0, 10)).id);
      for (const caller of [owner, admin]) {
        expectError(
          await t.post<Edition>(`/events/${host.id}/editions/${published.id}/publish`, {
            token: caller.token,
          }),
          409,
          'CONFLICT',
        );
      }
    });

    it('lets an admin publish', async () => {
      const host = await createTeamEvent();
      const draft = await createEdition(host.id, 0, 10);
      assert.equal((await publishEdition(host.id, draft.id, admin)).is_draft, false);
    });

    it('decides the role before the state: staff and non-members get 403, published or not', async () => {
      const host = await createTeamEvent();
      const draft = await createEdition(host.id, 0, 10);
      const published = await publishEdition(host.id, (await createEdition(host.id, 20, 30)).id);
      for (const caller of [staff, outsider]) {
        for (const target of [draft, published]) {
          expectError(
            await t.post<Edition>(`/events/${host.id}/editions/${target.id}/publish`, {
              token: caller.token,
            }),
            403,
            'FORBIDDEN',
          );
        }
      }
      assert.deepEqual(idsOf(await draftList(host.id)), [draft.id]);
    });

    it('publishes once when two requests race: one 200, one 409', async () => {
      const host = await createTeamEvent();
      const draft = await createEdition(host.id, 0, 10);
      const url = `/events/${host.id}/editions/${draft.id}/publish`;
      const results = await Promise.all([
        t.post(url, { token: owner.token }),
        t.post(url, { token: owner.token }),
      ]);
      assert.deepEqual(results.map((result) => result.status).sort(), [200, 409]);
    });

    it('answers 404 through another event, for unknown ids, and 400 for malformed ids', async () => {
      const other = await createTeamEvent();
      expectError(
        await t.post<Edition>(`/events/${other.id}/editions/${edition.id}/publish`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      assert.equal(
        expectOk(await t.get<Edition>(`/editions/${edition.id}`, { token: owner.token })).is_draft,
        true,
      );
      expectError(
        await t.post<Edition>(`/events/${event.id}/editions/${UNKNOWN_ID}/publish`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.post<Edition>(`/events/${UNKNOWN_ID}/editions/${edition.id}/publish`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectInvalid(
        await t.post<Edition>(`/events/${event.id}/editions/x/publish`, { token: owner.token }),
        'edition id',
        'params.edition_id',
      );
      expectInvalid(
        await t.post<Edition>(`/events/x/editions/${edition.id}/publish`, { token: owner.token }),
        'event id',
        'params.event_id',
      );
    });
  });

  describe('DELETE /events/{event_id}/editions/{edition_id}', () => {
    it('soft-deletes for the owner: the edition is then unknown everywhere', async () => {
      const host = await createTeamEvent();
      const target = await publishEdition(host.id, (await createEdition(host.id, 100, 200)).id);
      const url = `/events/${host.id}/editions/${target.id}`;
      const deleted = expectOk(await t.delete<Edition>(url, { token: owner.token }), 200, 'events');
      assert.deepEqual(Object.keys(deleted).sort(), EDITION_KEYS);
      assert.equal(deleted.id, target.id);
      assert.match(deleted.deleted_at ?? '', ISO);

      expectError(await t.get<Edition>(`/editions/${target.id}`), 404, 'NOT_FOUND');
      expectError(await t.get<Edition>(`/editions/${target.id}`, { token: owner.token }), 404, 'NOT_FOUND');
      expectError(
        await t.get(`/events/${host.slug}:by-slug/editions/${target.slug}:by-slug`),
        404,
        'NOT_FOUND',
      );
      assert.deepEqual(await publicList(host.id), []);
      assert.deepEqual(await draftList(host.id), []);
      expectError(await t.patch(url, { token: owner.token, body: { name: 'Back' } }), 404, 'NOT_FOUND');
      expectError(await t.post<Edition>(`${url}/publish`, { token: owner.token }), 404, 'NOT_FOUND');
      expectError(await t.delete(url, { token: owner.token }), 404, 'NOT_FOUND');
    });

    it('frees the slug and the time span of the deleted edition', async () => {
      const host = await createTeamEvent();
      const target = await createEdition(host.id, 100, 200);
      expectOk(await t.delete<Edition>(`/events/${host.id}/editions/${target.id}`, { token: owner.token }));
      const replacement = await createEdition(host.id, 100, 200, { slug: target.slug });
      assert.equal(replacement.slug, target.slug);
      assert.notEqual(replacement.id, target.id);
      assert.deepEqual(await draftList(host.id), [replacement]);
    });

    it('refuses admins, staff and non-members (403), deleting nothing', async () => {
      const host = await createTeamEvent();
      const target = await createEdition(host.id, 0, 10);
      for (const caller of [admin, staff, outsider]) {
        expectError(
          await t.delete<Edition>(`/events/${host.id}/editions/${target.id}`, { token: caller.token }),
          403,
          'FORBIDDEN',
        );
      }
      assert.deepEqual(await draftList(host.id), [target]);
    });

    it('answers 404 through another event, for unknown ids, and 400 for malformed ids', async () => {
      const other = await createTeamEvent();
      expectError(
        await t.delete<Edition>(`/events/${other.id}/editions/${edition.id}`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectOk(await t.get<Edition>(`/editions/${edition.id}`, { token: owner.token }));
      expectError(
        await t.delete<Edition>(`/events/${event.id}/editions/${UNKNOWN_ID}`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.delete<Edition>(`/events/${UNKNOWN_ID}/editions/${edition.id}`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectInvalid(
        await t.delete<Edition>(`/events/${event.id}/editions/nope`, { token: owner.token }),
        'edition id',
        'params.edition_id',
      );
      expectInvalid(
        await t.delete<Edition>(`/events/nope/editions/${edition.id}`, { token: owner.token }),
        'event id',
        'params.event_id',
      );
    });
  });

  describe('draft events and non-members', () => {
    it('hides a draft event from non-members on write routes (404)', async () => {
      const host = await createTeamEvent({ isDraft: true });
      const draft = await createEdition(host.id, 0, 10);
      const published = await publishEdition(host.id, (await createEdition(host.id, 20, 30)).id);
      await expectHiddenEvent(
        outsider,
        host.id,
        [draft, published].flatMap((target): EventRoute[] => [
          { method: 'POST', url: (id) => `/events/${id}/editions/${target.id}/publish` },
          { method: 'DELETE', url: (id) => `/events/${id}/editions/${target.id}` },
        ]),
      );
      // Members lacking the role still learn it is forbidden (403); nothing changes.
      expectError(
        await t.post<Edition>(`/events/${host.id}/editions/${draft.id}/publish`, { token: staff.token }),
        403,
        'FORBIDDEN',
      );
      for (const caller of [admin, staff]) {
        expectError(
          await t.delete<Edition>(`/events/${host.id}/editions/${draft.id}`, { token: caller.token }),
          403,
          'FORBIDDEN',
        );
      }
      assert.deepEqual(await draftList(host.id), [draft]);
      assert.deepEqual(
        expectOk(await t.get<Edition[]>(`/events/${host.id}/editions`, { token: owner.token })),
        [published],
      );
    });
  });
});
