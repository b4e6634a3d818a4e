/**
 * Project members (docs/reference/projects.md): the member list and adding an existing actor by e-mail: who
 * may add whom, duplicates, unknown people, bad input and the shared auth table. Removal
 * (docs/reference/projects.md): members-remove.test.ts.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { Project } from '../projects/projects.schemas.ts';
import { projectFixtures, UNKNOWN_ID, useProjectTeam } from '../projects.fixtures.ts';
import type { ProjectMember } from './members.schemas.ts';

describe('project members: list and add', () => {
  const team = useProjectTeam();
  const { createTeamProject, listMembers, myProjects } = projectFixtures(team);
  /** A project of the team owner with the team admin and member. */
  let project: Project;
  const _memberIds = async (projectId: string) =>
    (await listMembers(team().owner, projectId)).map((member) => member.user_id);

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
    it('answers an outsider exactly as for an unknown project (404)', async () => {
      const { t, outsider } = team();
      const hidden = await t.get<ProjectMember[]>(`/projects/${project.id}/members`, {
        token: outsider.token,
      });
      const unknown = await t.get<ProjectMember[]>(`/projects/${UNKNOWN_ID}/members`, {
        token: outsider.token,
      });
      expectError(hidden, 404, 'NOT_FOUND');
      expectError(unknown, 404, 'NOT_FOUND');
      assert.deepEqual({ ...hidden.body, timestamp: 0 }, { ...unknown.body, timestamp: 0 });
    });
  });

  describe('POST /projects/{project_id}/members', () => {
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
  });
});
