/**
 * Shared setup of the e-mail template tests (not a test file itself): a test app and a project
 * with an owner, an admin, a plain member and an outsider, inserted directly so these tests do not
 * depend on the project routes.
 */
import { after, before } from 'node:test';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { projectMembers, projects } from '../projects/projects.table.ts';

export interface TemplateTeam {
  t: TestApp;
  owner: TestUser;
  admin: TestUser;
  member: TestUser;
  outsider: TestUser;
  projectId: string;
}

export function useTemplateTeam(): TemplateTeam {
  const team = {} as TemplateTeam;
  before(async () => {
    team.t = await createTestApp();
    const t = team.t;
    [team.owner, team.admin, team.member] = await Promise.all([
      t.actor('owner'),
      t.actor('admin'),
      t.actor('member'),
    ]);
    team.outsider = await t.actor('outsider');
    team.projectId = await createProject(team);
  });
  after(async () => {
    await team.t?.close();
  });
  return team;
}

let count = 0;
/** A project owned by the team's owner, with the admin and the plain member. */
export async function createProject(team: TemplateTeam, name = 'Rust Conf'): Promise<string> {
  const id = uuidv7();
  await team.t.db.insert(projects).values({
    id,
    name,
    slug: `et-${process.pid.toString(36)}-${(count++).toString(36)}`,
    owner_id: team.owner.id,
  });
  await team.t.db.insert(projectMembers).values([
    { project_id: id, user_id: team.owner.id, role: 'owner' },
    { project_id: id, user_id: team.admin.id, role: 'admin' },
    { project_id: id, user_id: team.member.id, role: 'member' },
  ]);
  return id;
}
