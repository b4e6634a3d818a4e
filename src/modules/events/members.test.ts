/**
 * Event members (contract 5.1): the member directory and adding members by e-mail. Removal is in
 * members-remove.test.ts.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../test/assertions.ts';
import { checkAuth } from '../../../test/auth-check.ts';
import type { TestUser } from '../../../test/harness.ts';
import {
  eventFixtures,
  expectInvalid,
  expectMalformedJson,
  ISO,
  MEMBER_KEYS,
  UNKNOWN_ID,
  useTeam,
} from './events.fixtures.ts';

describe('event members: list and add', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  /** A draft event of `owner` with `admin` and `staff` as members. */
  // biome-ignore lint/suspicious/noExplicitAny: response data is inspected field by field.
  let draft: any;
  /** A published event of `owner` with the same members. */
  // biome-ignore lint/suspicious/noExplicitAny: response data is inspected field by field.
  let live: any;
  const { createEvent, addMember, listMembers, myEvents, createTeamEvent, expectHiddenEvent } = eventFixtures(
    () => team,
  );

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
    it('lists the members to staff and above: the owner, then admins, then staff', async () => {
      for (const caller of [owner, admin, staff]) {
        const response = await t.get(`/events/${draft.id}/members`, { token: caller.token });
        const members = expectOk(response, 200, 'events');
        assert.deepEqual(
          members.map((member: { user_id: string; email: string; role: string }) => [
            member.user_id,
            member.email,
            member.role,
          ]),
          [
            [owner.id, owner.email, 'owner'],
            [admin.id, admin.email, 'admin'],
            [staff.id, staff.email, 'staff'],
          ],
        );
        for (const member of members) {
          assert.deepEqual(Object.keys(member).sort(), MEMBER_KEYS);
          assert.match(member.created_at, ISO);
        }
        assert.deepEqual(response.body.pagination, {
          page: 1,
          limit: 20,
          total: 3,
          has_next: false,
          has_prev: false,
          next_page: null,
          prev_page: null,
        });
      }
    });

    it('paginates', async () => {
      const response = await t.get(`/events/${draft.id}/members?page=2&limit=1`, { token: owner.token });
      assert.deepEqual(
        expectOk(response).map((member: { user_id: string }) => member.user_id),
        [admin.id],
      );
      assert.deepEqual(response.body.pagination, {
        page: 2,
        limit: 1,
        total: 3,
        has_next: true,
        has_prev: true,
        next_page: 3,
        prev_page: 1,
      });
    });

    it('refuses a non-member (403), an unknown event (404) and bad paging or ids (400)', async () => {
      expectError(await t.get(`/events/${live.id}/members`, { token: outsider.token }), 403, 'FORBIDDEN');
      expectError(await t.get(`/events/${UNKNOWN_ID}/members`, { token: owner.token }), 404, 'NOT_FOUND');
      expectInvalid(
        await t.get(`/events/${draft.id}/members?page=0`, { token: owner.token }),
        'page=0',
        'query.page',
      );
      expectInvalid(
        await t.get(`/events/${draft.id}/members?limit=101`, { token: owner.token }),
        'limit=101',
        'query.limit',
      );
      expectInvalid(await t.get('/events/x/members', { token: owner.token }), 'malformed', 'params.event_id');
    });
  });

  describe('POST /events/{event_id}/members', () => {
    it('adds an existing actor by e-mail, case-insensitively, with the given role', async () => {
      const event = await createEvent(owner);
      const newcomer = await t.actor('newcomer');
      const response = await t.post(`/events/${event.id}/members`, {
        token: owner.token,
        body: { email: newcomer.email.toUpperCase(), role: 'staff' },
      });
      const member = expectOk(response, 201, 'events');
      assert.deepEqual(Object.keys(member).sort(), MEMBER_KEYS);
      assert.equal(member.user_id, newcomer.id);
      assert.equal(member.email, newcomer.email);
      assert.equal(member.role, 'staff');
      assert.match(member.created_at, ISO);

      // Side effects: listed, sees the event in their events and can read the draft.
      assert.deepEqual((await listMembers(owner, event.id)).at(-1), member);
      const mine = await myEvents(newcomer);
      assert.deepEqual(
        mine.map((item: { id: string; role: string }) => [item.id, item.role]),
        [[event.id, 'staff']],
      );
      expectOk(await t.get(`/events/${event.id}`, { token: newcomer.token }));
    });

    it('lets the owner add an admin, who can then manage the event', async () => {
      const event = await createEvent(owner);
      const promoted = await t.actor('promoted');
      assert.equal((await addMember(owner, event.id, promoted, 'admin')).role, 'admin');
      expectOk(await t.patch(`/events/${event.id}`, { token: promoted.token, body: { name: 'By admin' } }));
    });

    it('lets an admin add staff but not another admin (403)', async () => {
      const event = await createEvent(owner);
      await addMember(owner, event.id, admin, 'admin');
      const helper = await t.actor('helper');
      const candidate = await t.actor('candidate');
      assert.equal((await addMember(admin, event.id, helper, 'staff')).role, 'staff');
      expectError(
        await t.post(`/events/${event.id}/members`, {
          token: admin.token,
          body: { email: candidate.email, role: 'admin' },
        }),
        403,
        'FORBIDDEN',
      );
      const ids = (await listMembers(owner, event.id)).map((member: { user_id: string }) => member.user_id);
      assert.deepEqual(ids, [owner.id, admin.id, helper.id]);
    });

    it('refuses staff on a draft or published event, and non-members of a published one (403)', async () => {
      const candidate = await t.actor('candidate');
      for (const [caller, target] of [
        [staff, draft],
        [staff, live],
        [outsider, live],
      ] as const) {
        for (const role of ['staff', 'admin']) {
          expectError(
            await t.post(`/events/${target.id}/members`, {
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

    it('answers 404 for an e-mail no actor has, such as a user who never called the API', async () => {
      const stranger = await t.user('stranger');
      const response = await t.post(`/events/${draft.id}/members`, {
        token: owner.token,
        body: { email: stranger.email, role: 'staff' },
      });
      expectError(response, 404, 'NOT_FOUND');
      assert.equal(response.body.module, 'events');
      expectError(
        await t.post(`/events/${draft.id}/members`, {
          token: owner.token,
          body: { email: 'nobody-at-all@example.com', role: 'staff' },
        }),
        404,
        'NOT_FOUND',
      );
      // Once they have called the API, they can be added.
      expectOk(await t.get('/events/mine', { token: stranger.token }));
      const event = await createEvent(owner);
      assert.equal((await addMember(owner, event.id, stranger, 'staff')).user_id, stranger.id);
    });

    it('refuses someone who is already a member, whatever the role or case (409)', async () => {
      const cases: Array<[TestUser, string]> = [
        [staff, 'staff'],
        [staff, 'admin'],
        [admin, 'staff'],
        [owner, 'admin'],
      ];
      for (const [who, role] of cases) {
        expectError(
          await t.post(`/events/${draft.id}/members`, {
            token: owner.token,
            body: { email: who.email.toUpperCase(), role },
          }),
          409,
          'CONFLICT',
        );
      }
      const roles = (await listMembers(owner, draft.id)).map((member: { role: string }) => member.role);
      assert.deepEqual(roles, ['owner', 'admin', 'staff']);
    });

    it('refuses malformed JSON and invalid fields (400)', async () => {
      const url = `/events/${draft.id}/members`;
      const candidate = await t.actor('candidate');
      await expectMalformedJson(t, url, owner);
      const cases: Array<[string, unknown, string[]]> = [
        ['no body fields', {}, ['email', 'role']],
        ['the owner role', { email: candidate.email, role: 'owner' }, ['role']],
        ['an unknown role', { email: candidate.email, role: 'guest' }, ['role']],
        ['a boolean role', { email: candidate.email, role: true }, ['role']],
        ['a bad e-mail', { email: 'not-an-email', role: 'staff' }, ['email']],
        ['a number as e-mail', { email: 42, role: 'staff' }, ['email']],
        ['a NUL character', { email: `x\u0000${candidate.email}`, role: 'staff' }, ['email']],
        ['an unknown field', { email: candidate.email, role: 'staff', user_id: candidate.id }, ['user_id']],
      ];
      for (const [label, body, fields] of cases) {
        expectInvalid(await t.post(url, { token: owner.token, body }), label, ...fields);
      }
      assert.deepEqual(await myEvents(candidate), []);
    });

    it('answers 404 for an unknown event and 400 for a malformed id', async () => {
      const candidate = await t.actor('candidate');
      const body = { email: candidate.email, role: 'staff' };
      expectError(
        await t.post(`/events/${UNKNOWN_ID}/members`, { token: owner.token, body }),
        404,
        'NOT_FOUND',
      );
      expectInvalid(
        await t.post('/events/nope/members', { token: owner.token, body }),
        'malformed',
        'params.event_id',
      );
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
