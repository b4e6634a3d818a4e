/**
 * Event members (docs/reference/events.md): removal by e-mail, the path user_id cross-check, the owner who
 * cannot be removed, and who may remove whom.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { TestUser } from '../../../../test/harness.ts';
import type { Event } from '../events/events.schemas.ts';
import { type EventRoute, eventFixtures, expectInvalid, useTeam } from '../events.fixtures.ts';
import type { Member } from './members.schemas.ts';

describe('event members: remove', () => {
  const team = useTeam();
  const { t, owner, staff, outsider } = team;
  /** A draft event of `owner` with `admin` and `staff` as members. */
  let draft: Event;
  const { createEvent, publishEvent, addMember, listMembers, createTeamEvent, expectHiddenEvent } =
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

    it('ignores a path user_id that is nobody: the e-mail still selects the member', async () => {
      const { event, first } = await team();
      const removed = expectOk(
        await t.delete<Member>(`/events/${event.id}/members/${randomUUID()}`, {
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
        await t.delete<Member>(`/events/${event.id}/members/${outsider.id}`, {
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
          await t.delete<Member>(`/events/${event.id}/members/${pathId}`, {
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

    it('refuses staff on a draft or published event, and non-members of a published one (403)', async () => {
      const { event, first, second } = await team();
      const remove = (caller: TestUser) =>
        t.delete<Member>(`/events/${event.id}/members/${second.id}`, {
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
        await t.delete<Member>(`/events/${event.id}/members/${first.id}`, {
          token: owner.token,
          body: { email: first.email },
        }),
      );
      await expectHiddenEvent(first, event.id, routes);
      assert.deepEqual(await memberIds(event.id), [owner.id, teamAdmin.id, second.id]);
    });

    // Bad bodies and ids in general are the kernel membership suite's; the path user_id is ours.
    it('refuses a malformed path user_id (400), removing no one', async () => {
      const { event, first } = await team();
      expectInvalid(
        await t.delete<Member>(`/events/${event.id}/members/not-a-uuid`, {
          token: owner.token,
          body: { email: first.email },
        }),
        'a malformed user id',
        'params.user_id',
      );
      assert.ok((await memberIds(event.id)).includes(first.id));
    });
  });
});
