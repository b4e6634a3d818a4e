/**
 * Project members under concurrency (docs/reference/projects.md). A member add or removal is one statement
 * and nothing locks the project row (a member insert only takes the KEY SHARE lock of its foreign key), so
 * concurrent changes of one project never wait on each other, let alone deadlock, as event member adds once
 * did. This guards that: should a project lock ever be added, it must come before the insert, as `lockEvent`
 * does in the events module.
 *
 * Only a PostgreSQL server (`TEST_DATABASE_URL`) runs the requests truly in parallel; the embedded
 * database runs one statement at a time.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_DATABASE_URL } from '../../../../test/database.ts';
import type { ApiResponse, TestUser } from '../../../../test/harness.ts';
import { projectFixtures, useProjectTeam } from '../projects.fixtures.ts';
import type { Empty, ProjectMember } from './members.schemas.ts';

const skip = TEST_DATABASE_URL
  ? false
  : 'needs a PostgreSQL server (set TEST_DATABASE_URL): the embedded database runs one statement at a time, so nothing can race';

const ROUNDS = 3;
const PER_ROUND = 8;

/** Asserts every response has `status`; the message lists what the others answered. */
function expectAll(responses: ApiResponse[], status: number, label: string): void {
  const failed = responses.filter((response) => response.status !== status);
  assert.deepEqual(
    failed.map((response) => `${response.status} ${response.body?.error?.message}`),
    [],
    label,
  );
}

describe('project members under concurrency (PostgreSQL)', { skip }, () => {
  const team = useProjectTeam();
  const { createProject, addMember, listMembers } = projectFixtures(team);

  const post = (projectId: string, who: TestUser) =>
    team().t.post<ProjectMember>(`/projects/${projectId}/members`, {
      token: team().owner.token,
      body: { actor_email: who.email, role: 'member' },
    });
  const remove = (projectId: string, who: TestUser) =>
    team().t.delete<Empty>(`/projects/${projectId}/members`, {
      token: team().owner.token,
      body: { actor_email: who.email },
    });
  const people = async (count: number, name: string) => {
    const made: TestUser[] = [];
    for (let index = 0; index < count; index++) made.push(await team().t.actor(`${name}${index}`));
    return made;
  };
  const memberIds = async (projectId: string) =>
    new Set<string>((await listMembers(team().owner, projectId)).map((member) => member.user_id));

  it(`adds ${PER_ROUND} members at once, ${ROUNDS} rounds`, async () => {
    const project = await createProject(team().owner);
    const added: TestUser[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const batch = await people(PER_ROUND, `p${round}-`);
      expectAll(await Promise.all(batch.map((person) => post(project.id, person))), 201, `round ${round}`);
      added.push(...batch);
    }
    const members = await memberIds(project.id);
    assert.equal(members.size, 1 + ROUNDS * PER_ROUND);
    for (const person of added) assert.ok(members.has(person.id), `${person.email} is a member`);
  });

  it('adds and removes members at once', async () => {
    const project = await createProject(team().owner);
    for (let round = 1; round <= ROUNDS; round++) {
      const leaving = await people(PER_ROUND / 2, `out${round}-`);
      for (const person of leaving) await addMember(team().owner, project.id, person, 'member');
      const joining = await people(PER_ROUND / 2, `in${round}-`);
      const [added, removed] = await Promise.all([
        Promise.all(joining.map((person) => post(project.id, person))),
        Promise.all(leaving.map((person) => remove(project.id, person))),
      ]);
      expectAll(added, 201, `round ${round}: adds`);
      expectAll(removed, 200, `round ${round}: removals`);
      const members = await memberIds(project.id);
      for (const person of joining) assert.ok(members.has(person.id));
      for (const person of leaving) assert.ok(!members.has(person.id));
    }
  });
});
