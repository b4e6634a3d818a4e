/**
 * Project members (docs/reference/projects.md): removal by e-mail, answered with `data` `{}`;
 * who may remove whom, the owner who stays, authorization before any state, bad input and the
 * shared auth table.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { Project } from '../projects/projects.schemas.ts';
import { projectFixtures, UNKNOWN_ID, useProjectTeam } from '../projects.fixtures.ts';
import type { Empty } from './members.schemas.ts';

describe('project members: remove', () => {
  const team = useProjectTeam();
  const { createTeamProject, listMembers } = projectFixtures(team);
  /** A project of the team owner with the team admin and member. */
  let project: Project;
  const memberIds = async (projectId: string) =>
    (await listMembers(team().owner, projectId)).map((member) => member.user_id);

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
    it('decides authorization first: a member gets 403 and an outsider 404, whatever the e-mail', async () => {
      const { t, owner, admin, member, outsider } = team();
      const url = `/projects/${project.id}/members`;
      for (const email of [owner.email, admin.email, member.email, 'nobody@example.com']) {
        const body = { actor_email: email };
        expectError(await t.delete(url, { token: member.token, body }), 403, 'FORBIDDEN');
        const hidden = await t.delete(url, { token: outsider.token, body });
        const unknown = await t.delete<Empty>(`/projects/${UNKNOWN_ID}/members`, {
          token: outsider.token,
          body,
        });
        expectError(hidden, 404, 'NOT_FOUND');
        assert.deepEqual({ ...hidden.body, timestamp: 0 }, { ...unknown.body, timestamp: 0 });
      }
      assert.deepEqual(await memberIds(project.id), [owner.id, admin.id, member.id]);
    });
  });
});
