/**
 * Event members (docs/reference/events.md): the member directory and adding members by e-mail. Removal is in
 * members-remove.test.ts.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { Event } from '../events/events.schemas.ts';
import { eventFixtures, useTeam } from '../events.fixtures.ts';
import type { Member } from './members.schemas.ts';

describe('event members: list and add', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  /** A draft event of `owner` with `admin` and `staff` as members. */
  let draft: Event;
  /** A published event of `owner` with the same members. */
  let live: Event;
  const { listMembers, myEvents, createTeamEvent, expectHiddenEvent } = eventFixtures(() => team);

  before(async () => {
    draft = await createTeamEvent({ isDraft: true, name: 'Draft event' });
    live = await createTeamEvent({ name: 'Live event' });
  });

  // Staff may list members, so the wrong role there is an outsider, on a published event (on a
  // draft an outsider gets 404: see "hides a draft event from non-members").
  checkAuth(
    'protected member routes: list and add',
    () => t,
    () => [
      { method: 'GET', url: `/events/${live.id}/members`, forbidden: outsider },
      {
        method: 'POST',
        url: `/events/${draft.id}/members`,
        body: { email: outsider.email, role: 'staff' },
        forbidden: staff,
      },
    ],
  );

  describe('GET /events/{event_id}/members', () => {
    // The rest of the list (order, paging, bad input) is the kernel membership suite's.
    it('refuses a non-member of a published event (403)', async () => {
      expectError(
        await t.get<Member[]>(`/events/${live.id}/members`, { token: outsider.token }),
        403,
        'FORBIDDEN',
      );
    });
  });

  describe('POST /events/{event_id}/members', () => {
    it('refuses staff on a draft or published event, and non-members of a published one (403)', async () => {
      const candidate = await t.actor('candidate');
      for (const [caller, target] of [
        [staff, draft],
        [staff, live],
        [outsider, live],
      ] as const) {
        for (const role of ['staff', 'admin']) {
          expectError(
            await t.post<Member>(`/events/${target.id}/members`, {
              token: caller.token,
              body: { email: candidate.email, role },
            }),
            403,
            'FORBIDDEN',
          );
        }
      }
      assert.deepEqual(await myEvents(candidate), []);
    });
  });

  describe('draft events and non-members', () => {
    it('hides a draft event from non-members on write routes (404), and on the member list', async () => {
      const candidate = await t.actor('candidate');
      await expectHiddenEvent(outsider, draft.id, [
        { method: 'GET', url: (id) => `/events/${id}/members` },
        {
          method: 'POST',
          url: (id) => `/events/${id}/members`,
          body: { email: candidate.email, role: 'staff' },
        },
        {
          method: 'POST',
          url: (id) => `/events/${id}/members`,
          body: { email: outsider.email, role: 'admin' },
        },
      ]);
      assert.deepEqual(await myEvents(candidate), []);
      assert.deepEqual(await myEvents(outsider), []);
      const ids = (await listMembers(owner, draft.id)).map((member: { user_id: string }) => member.user_id);
      assert.deepEqual(ids, [owner.id, admin.id, staff.id]);
    });
  });
});
