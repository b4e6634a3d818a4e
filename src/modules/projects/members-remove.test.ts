/**
 * Project members (contract 6, interface operation 5): removal by e-mail, answered with `data` `{}`;
 * who may remove whom, the owner who stays, authorization before any state, bad input and the
 * shared auth table.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../test/assertions.ts';
import { checkAuth } from '../../../test/auth-check.ts';
import {
  type Data,
  expectInvalid,
  expectMalformedJson,
  projectFixtures,
  UNKNOWN_ID,
  useProjectTeam,
} from './projects.fixtures.ts';

describe('project members: remove', () => {
  const team = useProjectTeam();
  const { createProject, addMember, createTeamProject, listMembers, myProjects } = projectFixtures(team);
  /** A project of the team owner with the team admin and member. */
  let project: Data;
  const memberIds = async (projectId: string) =>
    (await listMembers(team().owner, projectId)).map((member: Data) => member.user_id);

  before(async () => {
    project = await createTeamProject('Removal project');
  });

  checkAuth(
    'protected member route: remove',
    () => team().t,
    () => [
      {
        method: 'DELETE',
        url: `/projects/${project.id}/members`,
        body: { actor_email: team().member.email },
        forbidden: team().member,
      },
    ],
  );

  describe('DELETE /projects/{project_id}/members', () => {
    /** A project of the owner with a fresh admin and two fresh members. */
    const crew = async () => {
      const { t, owner } = team();
      const target = await createProject(owner);
      const [crewAdmin, first, second] = [await t.actor('ad'), await t.actor('m1'), await t.actor('m2')];
      await addMember(owner, target.id, crewAdmin, 'admin');
      await addMember(owner, target.id, first, 'member');
      await addMember(owner, target.id, second, 'member');
      return { target, crewAdmin, first, second };
    };

    it('removes the member named by e-mail (case-insensitive) and answers data {}', async () => {
      const { t, owner } = team();
      const { target, crewAdmin, first, second } = await crew();
      const response = await t.delete(`/projects/${target.id}/members`, {
        token: owner.token,
        body: { actor_email: first.email.toUpperCase() },
      });
      assert.deepEqual(expectOk(response, 200, 'projects'), {});
      assert.equal(response.body.message, 'OK');
      assert.equal(response.body.pagination, undefined);

      // Side effects: gone from the list and their projects; the project is now unknown to them.
      assert.deepEqual(await memberIds(target.id), [owner.id, crewAdmin.id, second.id]);
      assert.deepEqual(await myProjects(first), []);
      expectError(await t.get(`/projects/${target.id}`, { token: first.token }), 404, 'NOT_FOUND');
      expectError(await t.get(`/projects/${target.id}/members`, { token: first.token }), 404, 'NOT_FOUND');
      // A second removal finds nobody (404); they can be added again.
      expectError(
        await t.delete(`/projects/${target.id}/members`, {
          token: owner.token,
          body: { actor_email: first.email },
        }),
        404,
        'NOT_FOUND',
      );
      assert.equal((await addMember(owner, target.id, first, 'member')).user_id, first.id);
    });

    it('lets an admin remove a member, and the owner remove an admin', async () => {
      const { t, owner } = team();
      const { target, crewAdmin, first, second } = await crew();
      expectOk(
        await t.delete(`/projects/${target.id}/members`, {
          token: crewAdmin.token,
          body: { actor_email: first.email },
        }),
      );
      expectOk(
        await t.delete(`/projects/${target.id}/members`, {
          token: owner.token,
          body: { actor_email: crewAdmin.email },
        }),
      );
      assert.deepEqual(await memberIds(target.id), [owner.id, second.id]);
      // The removed admin has lost the right to manage the project.
      expectError(
        await t.patch(`/projects/${target.id}`, { token: crewAdmin.token, body: { name: 'Gone' } }),
        404,
        'NOT_FOUND',
      );
    });

    it('refuses an admin removing an admin, themselves included (403)', async () => {
      const { t, owner } = team();
      const { target, crewAdmin } = await crew();
      const other = await t.actor('other-admin');
      await addMember(owner, target.id, other, 'admin');
      for (const who of [other, crewAdmin]) {
        const response = await t.delete(`/projects/${target.id}/members`, {
          token: crewAdmin.token,
          body: { actor_email: who.email },
        });
        expectError(response, 403, 'FORBIDDEN');
      }
      assert.deepEqual((await memberIds(target.id)).slice(0, 3), [owner.id, crewAdmin.id, other.id]);
    });

    it('never removes the owner (409), whoever asks', async () => {
      const { t, owner } = team();
      const { target, crewAdmin } = await crew();
      for (const caller of [owner, crewAdmin]) {
        const response = await t.delete(`/projects/${target.id}/members`, {
          token: caller.token,
          body: { actor_email: owner.email.toUpperCase() },
        });
        expectError(response, 409, 'CONFLICT');
        assert.equal(response.body.module, 'projects');
      }
      assert.equal((await memberIds(target.id))[0], owner.id);
    });

    it('answers 404 for an e-mail that is not a member, whether or not an actor has it', async () => {
      const { t, owner, outsider } = team();
      const { target } = await crew();
      for (const email of [outsider.email, 'nobody-at-all@example.com']) {
        expectError(
          await t.delete(`/projects/${target.id}/members`, {
            token: owner.token,
            body: { actor_email: email },
          }),
          404,
          'NOT_FOUND',
        );
      }
    });

    it('decides authorization first: a member gets 403 and an outsider 404, whatever the e-mail', async () => {
      const { t, owner, admin, member, outsider } = team();
      const url = `/projects/${project.id}/members`;
      for (const email of [owner.email, admin.email, member.email, 'nobody@example.com']) {
        const body = { actor_email: email };
        expectError(await t.delete(url, { token: member.token, body }), 403, 'FORBIDDEN');
        const hidden = await t.delete(url, { token: outsider.token, body });
        const unknown = await t.delete(`/projects/${UNKNOWN_ID}/members`, { token: outsider.token, body });
        expectError(hidden, 404, 'NOT_FOUND');
        assert.deepEqual({ ...hidden.body, timestamp: 0 }, { ...unknown.body, timestamp: 0 });
      }
      assert.deepEqual(await memberIds(project.id), [owner.id, admin.id, member.id]);
    });

    it('refuses malformed JSON, a missing body and invalid fields (400), unknown and malformed ids', async () => {
      const { t, owner, member } = team();
      const url = `/projects/${project.id}/members`;
      await expectMalformedJson(t, 'DELETE', url, owner);
      const cases: Array<[string, unknown, string[]]> = [
        ['no fields', {}, ['actor_email']],
        ['a bad e-mail', { actor_email: 'nope' }, ['actor_email']],
        ['a number as e-mail', { actor_email: 7 }, ['actor_email']],
        ['a NUL character', { actor_email: `x\u0000${member.email}` }, ['actor_email']],
        ['an unknown field', { actor_email: member.email, user_id: member.id }, ['user_id']],
      ];
      for (const [label, body, fields] of cases) {
        expectInvalid(await t.delete(url, { token: owner.token, body }), label, ...fields);
      }
      const noBody = await t.delete(url, { token: owner.token });
      assert.equal(noBody.status, 400, noBody.text);
      const body = { actor_email: member.email };
      expectError(
        await t.delete(`/projects/${UNKNOWN_ID}/members`, { token: owner.token, body }),
        404,
        'NOT_FOUND',
      );
      expectInvalid(
        await t.delete('/projects/zz/members', { token: owner.token, body }),
        'malformed',
        'params.project_id',
      );
      assert.deepEqual(await memberIds(project.id), [owner.id, team().admin.id, member.id]);
    });
  });
});
