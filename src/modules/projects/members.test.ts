/**
 * Project members (contract 6): the member list and adding an existing actor by e-mail: who may
 * add whom, duplicates, unknown people, bad input and the shared auth table. Removal (interface
 * operation 5): members-remove.test.ts.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../test/assertions.ts';
import { checkAuth } from '../../../test/auth-check.ts';
import type { TestUser } from '../../../test/harness.ts';
import {
  type Data,
  expectInvalid,
  expectMalformedJson,
  ISO,
  MEMBER_KEYS,
  projectFixtures,
  UNKNOWN_ID,
  useProjectTeam,
} from './projects.fixtures.ts';

describe('project members: list and add', () => {
  const team = useProjectTeam();
  const { createProject, addMember, createTeamProject, listMembers, myProjects } = projectFixtures(team);
  /** A project of the team owner with the team admin and member. */
  let project: Data;
  const memberIds = async (projectId: string) =>
    (await listMembers(team().owner, projectId)).map((member: Data) => member.user_id);

  before(async () => {
    project = await createTeamProject('Members project');
  });

  // The member list is open to every member: its wrong role is an outsider, who gets 404 (below).
  checkAuth(
    'protected member routes',
    () => team().t,
    () => [
      { method: 'GET', url: `/projects/${project.id}/members` },
      {
        method: 'POST',
        url: `/projects/${project.id}/members`,
        body: { actor_email: team().outsider.email, role: 'member' },
        forbidden: team().member,
      },
    ],
  );

  describe('GET /projects/{project_id}/members', () => {
    it('lists the members to every member: the owner, then admins, then members', async () => {
      const { t, owner, admin, member } = team();
      for (const caller of [owner, admin, member]) {
        const response = await t.get(`/projects/${project.id}/members`, { token: caller.token });
        const members = expectOk(response, 200, 'projects');
        assert.deepEqual(
          members.map((entry: Data) => [entry.user_id, entry.email, entry.role]),
          [
            [owner.id, owner.email, 'owner'],
            [admin.id, admin.email, 'admin'],
            [member.id, member.email, 'member'],
          ],
        );
        for (const entry of members) {
          assert.deepEqual(Object.keys(entry).sort(), MEMBER_KEYS);
          assert.match(entry.created_at, ISO);
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

    it('orders by role before joining order, and paginates', async () => {
      const { t, owner, admin, member } = team();
      const target = await createProject(owner);
      await addMember(owner, target.id, member, 'member');
      await addMember(owner, target.id, admin, 'admin');
      assert.deepEqual(await memberIds(target.id), [owner.id, admin.id, member.id]);
      const response = await t.get(`/projects/${target.id}/members?page=2&limit=1`, { token: member.token });
      assert.deepEqual(
        expectOk(response).map((entry: Data) => entry.user_id),
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

    it('answers an outsider exactly as for an unknown project (404)', async () => {
      const { t, outsider } = team();
      const hidden = await t.get(`/projects/${project.id}/members`, { token: outsider.token });
      const unknown = await t.get(`/projects/${UNKNOWN_ID}/members`, { token: outsider.token });
      expectError(hidden, 404, 'NOT_FOUND');
      expectError(unknown, 404, 'NOT_FOUND');
      assert.deepEqual({ ...hidden.body, timestamp: 0 }, { ...unknown.body, timestamp: 0 });
    });

    it('refuses bad paging and a malformed id (400)', async () => {
      const { t, owner } = team();
      const url = `/projects/${project.id}/members`;
      expectInvalid(await t.get(`${url}?page=0`, { token: owner.token }), 'page=0', 'query.page');
      expectInvalid(await t.get(`${url}?limit=101`, { token: owner.token }), 'limit=101', 'query.limit');
      expectInvalid(await t.get(`${url}?limit=zero`, { token: owner.token }), 'limit=zero', 'query.limit');
      expectInvalid(
        await t.get('/projects/x/members', { token: owner.token }),
        'malformed',
        'params.project_id',
      );
    });
  });

  describe('POST /projects/{project_id}/members', () => {
    it('adds an existing actor by e-mail, case-insensitively, with the given role', async () => {
      const { t, owner } = team();
      const target = await createProject(owner);
      const newcomer = await t.actor('newcomer');
      const response = await t.post(`/projects/${target.id}/members`, {
        token: owner.token,
        body: { actor_email: newcomer.email.toUpperCase(), role: 'member' },
      });
      const added = expectOk(response, 201, 'projects');
      assert.equal(response.body.message, 'Created');
      assert.deepEqual(Object.keys(added).sort(), MEMBER_KEYS);
      assert.deepEqual([added.user_id, added.email, added.role], [newcomer.id, newcomer.email, 'member']);
      assert.match(added.created_at, ISO);

      // Side effects: listed, in the newcomer's projects, and the project is now readable to them.
      assert.deepEqual((await listMembers(owner, target.id)).at(-1), added);
      assert.deepEqual(
        (await myProjects(newcomer)).map((item: Data) => [item.id, item.role]),
        [[target.id, 'member']],
      );
      expectOk(await t.get(`/projects/${target.id}`, { token: newcomer.token }));
    });

    it('lets the owner add an admin, who can then manage the project', async () => {
      const { t, owner } = team();
      const target = await createProject(owner);
      const promoted = await t.actor('promoted');
      assert.equal((await addMember(owner, target.id, promoted, 'admin')).role, 'admin');
      expectOk(
        await t.patch(`/projects/${target.id}`, { token: promoted.token, body: { name: 'By admin' } }),
      );
    });

    it('lets an admin add a member but not another admin (403)', async () => {
      const { t, owner, admin } = team();
      const target = await createProject(owner);
      await addMember(owner, target.id, admin, 'admin');
      const helper = await t.actor('helper');
      const candidate = await t.actor('candidate');
      assert.equal((await addMember(admin, target.id, helper, 'member')).role, 'member');
      const response = await t.post(`/projects/${target.id}/members`, {
        token: admin.token,
        body: { actor_email: candidate.email, role: 'admin' },
      });
      expectError(response, 403, 'FORBIDDEN');
      assert.equal(response.body.module, 'projects');
      assert.deepEqual(await memberIds(target.id), [owner.id, admin.id, helper.id]);
      assert.deepEqual(await myProjects(candidate), []);
    });

    it('refuses a plain member (403) and an outsider (404) whatever the role asked', async () => {
      const { t, member, outsider } = team();
      const candidate = await t.actor('candidate');
      for (const role of ['member', 'admin']) {
        const body = { actor_email: candidate.email, role };
        const url = `/projects/${project.id}/members`;
        expectError(await t.post(url, { token: member.token, body }), 403, 'FORBIDDEN');
        expectError(await t.post(url, { token: outsider.token, body }), 404, 'NOT_FOUND');
      }
      assert.deepEqual(await myProjects(candidate), []);
    });

    it('answers 404 for an e-mail no actor has, such as a user who never called the API', async () => {
      const { t, owner } = team();
      const target = await createProject(owner);
      const stranger = await t.user('stranger');
      const url = `/projects/${target.id}/members`;
      const response = await t.post(url, {
        token: owner.token,
        body: { actor_email: stranger.email, role: 'member' },
      });
      expectError(response, 404, 'NOT_FOUND');
      assert.equal(response.body.module, 'projects');
      expectError(
        await t.post(url, {
          token: owner.token,
          body: { actor_email: 'nobody@example.com', role: 'member' },
        }),
        404,
        'NOT_FOUND',
      );
      // Once they have called the API, they can be added.
      expectOk(await t.get('/projects', { token: stranger.token }));
      assert.equal((await addMember(owner, target.id, stranger, 'member')).user_id, stranger.id);
    });

    it('refuses someone who is already a member, whatever the role or case (409)', async () => {
      const { t, owner, admin, member } = team();
      const cases: Array<[TestUser, string]> = [
        [member, 'member'],
        [member, 'admin'],
        [admin, 'member'],
        [owner, 'admin'],
      ];
      for (const [who, role] of cases) {
        const response = await t.post(`/projects/${project.id}/members`, {
          token: owner.token,
          body: { actor_email: who.email.toUpperCase(), role },
        });
        expectError(response, 409, 'CONFLICT');
      }
      assert.deepEqual(
        (await listMembers(owner, project.id)).map((entry: Data) => entry.role),
        ['owner', 'admin', 'member'],
      );
    });

    it('refuses malformed JSON and invalid fields (400), unknown (404) and malformed ids (400)', async () => {
      const { t, owner } = team();
      const candidate = await t.actor('candidate');
      const url = `/projects/${project.id}/members`;
      await expectMalformedJson(t, 'POST', url, owner);
      const cases: Array<[string, unknown, string[]]> = [
        ['no fields', {}, ['actor_email', 'role']],
        ['the owner role', { actor_email: candidate.email, role: 'owner' }, ['role']],
        ['an unknown role', { actor_email: candidate.email, role: 'guest' }, ['role']],
        ['a boolean role', { actor_email: candidate.email, role: true }, ['role']],
        ['a bad e-mail', { actor_email: 'not-an-email', role: 'member' }, ['actor_email']],
        ['a number as e-mail', { actor_email: 42, role: 'member' }, ['actor_email']],
        ['a NUL character', { actor_email: `x\u0000${candidate.email}`, role: 'member' }, ['actor_email']],
        ['the events field name', { email: candidate.email, role: 'member' }, ['email', 'actor_email']],
        [
          'an unknown field',
          { actor_email: candidate.email, role: 'member', user_id: candidate.id },
          ['user_id'],
        ],
      ];
      for (const [label, body, fields] of cases) {
        expectInvalid(await t.post(url, { token: owner.token, body }), label, ...fields);
      }
      const body = { actor_email: candidate.email, role: 'member' };
      expectError(
        await t.post(`/projects/${UNKNOWN_ID}/members`, { token: owner.token, body }),
        404,
        'NOT_FOUND',
      );
      expectInvalid(
        await t.post('/projects/nope/members', { token: owner.token, body }),
        'malformed',
        'params.project_id',
      );
      assert.deepEqual(await myProjects(candidate), []);
    });
  });
});
