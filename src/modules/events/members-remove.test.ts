/**
 * Event members (contract 5.1): removal by e-mail, the path user_id cross-check, the owner who
 * cannot be removed, and who may remove whom.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../test/assertions.ts';
import { checkAuth } from '../../../test/auth-check.ts';
import type { TestUser } from '../../../test/harness.ts';
import {
  type EventRoute,
  eventFixtures,
  expectInvalid,
  MEMBER_KEYS,
  UNKNOWN_ID,
  useTeam,
} from './events.fixtures.ts';

describe('event members: remove', () => {
  const team = useTeam();
  const { t, owner, staff, outsider } = team;
  /** A draft event of `owner` with `admin` and `staff` as members. */
  // biome-ignore lint/suspicious/noExplicitAny: response data is inspected field by field.
  let draft: any;
  const { createEvent, publishEvent, addMember, listMembers, myEvents, createTeamEvent, expectHiddenEvent } =
    eventFixtures(() => team);

  before(async () => {
    draft = await createTeamEvent({ isDraft: true, name: 'Draft event' });
  });

  checkAuth(
    'protected member routes: remove',
    () => t,
    () => [
      {
        method: 'DELETE',
        url: `/events/${draft.id}/members/${staff.id}`,
        body: { email: staff.email },
        forbidden: staff,
      },
    ],
  );

  describe('DELETE /events/{event_id}/members/{user_id}', () => {
    /** An event of `owner` with a fresh admin and two fresh staff members. */
    const team = async () => {
      const event = await createEvent(owner);
      const [teamAdmin, first, second] = [await t.actor('ad'), await t.actor('st1'), await t.actor('st2')];
      await addMember(owner, event.id, teamAdmin, 'admin');
      await addMember(owner, event.id, first, 'staff');
      await addMember(owner, event.id, second, 'staff');
      return { event, teamAdmin, first, second };
    };
    const memberIds = async (eventId: string) =>
      (await listMembers(owner, eventId)).map((member: { user_id: string }) => member.user_id);

    it('removes the member named by e-mail (case-insensitive) and answers it', async () => {
      const { event, teamAdmin, first, second } = await team();
      const response = await t.delete(`/events/${event.id}/members/${first.id}`, {
        token: owner.token,
        body: { email: first.email.toUpperCase() },
      });
      const removed = expectOk(response, 200, 'events');
      assert.deepEqual(Object.keys(removed).sort(), MEMBER_KEYS);
      assert.equal(removed.user_id, first.id);
      assert.equal(removed.email, first.email);
      assert.equal(removed.role, 'staff');

      // Side effects: gone from the list and from their events; the draft and its member list are
      // now unknown to them (404), as to any non-member.
      assert.deepEqual(await memberIds(event.id), [owner.id, teamAdmin.id, second.id]);
      assert.deepEqual(await myEvents(first), []);
      expectError(await t.get(`/events/${event.id}`, { token: first.token }), 404, 'NOT_FOUND');
      expectError(await t.get(`/events/${event.id}/members`, { token: first.token }), 404, 'NOT_FOUND');
      // And they can be added again.
      assert.equal((await addMember(owner, event.id, first, 'staff')).user_id, first.id);
    });

    it('ignores a path user_id that is nobody: the e-mail still selects the member', async () => {
      const { event, first } = await team();
      const removed = expectOk(
        await t.delete(`/events/${event.id}/members/${randomUUID()}`, {
          token: owner.token,
          body: { email: first.email },
        }),
      );
      assert.equal(removed.user_id, first.id);
      assert.ok(!(await memberIds(event.id)).includes(first.id));
    });

    it('ignores a path user_id of an actor who is not a member of this event', async () => {
      const { event, first } = await team();
      const removed = expectOk(
        await t.delete(`/events/${event.id}/members/${outsider.id}`, {
          token: owner.token,
          body: { email: first.email },
        }),
      );
      assert.equal(removed.user_id, first.id);
    });

    it('refuses a path user_id naming a different member than the e-mail (400), removing no one', async () => {
      const { event, teamAdmin, first, second } = await team();
      for (const pathId of [second.id, owner.id, second.id.toUpperCase()]) {
        const error = expectError(
          await t.delete(`/events/${event.id}/members/${pathId}`, {
            token: owner.token,
            body: { email: first.email },
          }),
          400,
          'BAD_REQUEST',
        );
        assert.ok(
          (error.fields ?? []).some((field: { field: string }) => field.field === 'params.user_id'),
          JSON.stringify(error),
        );
      }
      assert.deepEqual(await memberIds(event.id), [owner.id, teamAdmin.id, first.id, second.id]);
    });

    it('never removes the owner (409), not even at their own request', async () => {
      const { event, teamAdmin } = await team();
      for (const caller of [owner, teamAdmin]) {
        expectError(
          await t.delete(`/events/${event.id}/members/${owner.id}`, {
            token: caller.token,
            body: { email: owner.email },
          }),
          409,
          'CONFLICT',
        );
      }
      assert.equal((await memberIds(event.id))[0], owner.id);
      assert.equal(expectOk(await t.get(`/events/${event.id}`, { token: owner.token })).owner_id, owner.id);
    });

    it('lets an admin remove staff, but only the owner removes an admin (403)', async () => {
      const { event, teamAdmin, first } = await team();
      const otherAdmin = await t.actor('ad2');
      await addMember(owner, event.id, otherAdmin, 'admin');
      assert.equal(
        expectOk(
          await t.delete(`/events/${event.id}/members/${first.id}`, {
            token: teamAdmin.token,
            body: { email: first.email },
          }),
        ).user_id,
        first.id,
      );
      for (const target of [otherAdmin, teamAdmin]) {
        expectError(
          await t.delete(`/events/${event.id}/members/${target.id}`, {
            token: teamAdmin.token,
            body: { email: target.email },
          }),
          403,
          'FORBIDDEN',
        );
      }
      assert.ok((await memberIds(event.id)).includes(otherAdmin.id));
      const removed = expectOk(
        await t.delete(`/events/${event.id}/members/${otherAdmin.id}`, {
          token: owner.token,
          body: { email: otherAdmin.email },
        }),
      );
      assert.equal(removed.role, 'admin');
      assert.ok(!(await memberIds(event.id)).includes(otherAdmin.id));
    });

    it('refuses staff on a draft or published event, and non-members of a published one (403)', async () => {
      const { event, first, second } = await team();
      const remove = (caller: TestUser) =>
        t.delete(`/events/${event.id}/members/${second.id}`, {
          token: caller.token,
          body: { email: second.email },
        });
      expectError(await remove(first), 403, 'FORBIDDEN');
      await publishEvent(owner, event.id);
      for (const caller of [first, outsider]) expectError(await remove(caller), 403, 'FORBIDDEN');
      assert.ok((await memberIds(event.id)).includes(second.id));
    });

    it('hides a draft event from non-members on write routes (404), former members included', async () => {
      const { event, teamAdmin, first, second } = await team();
      const routes: EventRoute[] = [second, owner].map((target) => ({
        method: 'DELETE',
        url: (id) => `/events/${id}/members/${target.id}`,
        body: { email: target.email },
      }));
      await expectHiddenEvent(outsider, event.id, routes);
      expectOk(
        await t.delete(`/events/${event.id}/members/${first.id}`, {
          token: owner.token,
          body: { email: first.email },
        }),
      );
      await expectHiddenEvent(first, event.id, routes);
      assert.deepEqual(await memberIds(event.id), [owner.id, teamAdmin.id, second.id]);
    });

    it('answers 404 for an e-mail that is not a member or not an actor at all', async () => {
      const { event } = await team();
      const stranger = await t.user('stranger');
      for (const email of [outsider.email, stranger.email]) {
        expectError(
          await t.delete(`/events/${event.id}/members/${randomUUID()}`, {
            token: owner.token,
            body: { email },
          }),
          404,
          'NOT_FOUND',
        );
      }
    });

    it('refuses malformed JSON, invalid bodies and malformed ids (400)', async () => {
      const { event, first } = await team();
      const url = `/events/${event.id}/members/${first.id}`;
      expectError(
        await t.delete(url, { token: owner.token, payload: '{"email": ', contentType: 'application/json' }),
        400,
        'BAD_REQUEST',
      );
      const cases: Array<[string, unknown, string[]]> = [
        ['no body', undefined, ['body']],
        ['no e-mail', {}, ['email']],
        ['a bad e-mail', { email: 'first' }, ['email']],
        ['a number as e-mail', { email: 7 }, ['email']],
        ['a NUL character', { email: `${first.email}\u0000` }, ['email']],
        ['an unknown field', { email: first.email, role: 'staff' }, ['role']],
      ];
      for (const [label, body, fields] of cases) {
        expectInvalid(
          await t.delete(url, { token: owner.token, ...(body === undefined ? {} : { body }) }),
          label,
          ...fields,
        );
      }
      expectInvalid(
        await t.delete(`/events/${event.id}/members/not-a-uuid`, {
          token: owner.token,
          body: { email: first.email },
        }),
        'a malformed user id',
        'params.user_id',
      );
      expectInvalid(
        await t.delete(`/events/nope/members/${first.id}`, {
          token: owner.token,
          body: { email: first.email },
        }),
        'a malformed event id',
        'params.event_id',
      );
      assert.ok((await memberIds(event.id)).includes(first.id));
    });

    it('answers 404 for an unknown event', async () => {
      expectError(
        await t.delete(`/events/${UNKNOWN_ID}/members/${staff.id}`, {
          token: owner.token,
          body: { email: staff.email },
        }),
        404,
        'NOT_FOUND',
      );
    });
  });
});
