/**
 * Shared helpers of the projects tests: a test app with four actors (owner, admin, member and an
 * outsider), project and member helpers going through the API, and input-error assertions.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { expectError, expectFields, expectOk } from '../../../test/assertions.ts';
import { type ApiResponse, createTestApp, type TestApp, type TestUser } from '../../../test/harness.ts';
import type { ProjectMember } from './members/members.schemas.ts';
import type { MyProject, Project } from './projects/projects.schemas.ts';

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const UNKNOWN_ID = '01937a4e-0000-7000-8000-0000000000ff';
export const MALFORMED_JSON = '{"name": "Broken", "slug": ';
export const PROJECT_KEYS = ['created_at', 'id', 'name', 'owner_id', 'slug', 'updated_at'];
export const MEMBER_KEYS = ['created_at', 'email', 'role', 'user_id'];

let slugCount = 0;
/** A slug no other test of this process uses. */
export const newSlug = (prefix = 'pr') =>
  `${prefix}-${process.pid.toString(36)}-${(slugCount++).toString(36)}`;

/** Asserts a 400 VALIDATION_ERROR naming `fields`, with the case in the failure message. */
export function expectInvalid(response: ApiResponse, label: string, ...fields: string[]): void {
  try {
    expectFields(response, ...fields);
  } catch (error) {
    throw new Error(`${label}: ${(error as Error).message}`);
  }
}

/** Asserts the 400 BAD_REQUEST of a body that is not JSON. */
export async function expectMalformedJson(
  t: TestApp,
  method: 'POST' | 'PATCH' | 'DELETE',
  url: string,
  by: TestUser,
): Promise<void> {
  const response = await t.request(method, url, {
    token: by.token,
    payload: MALFORMED_JSON,
    contentType: 'application/json',
  });
  expectError(response, 400, 'BAD_REQUEST');
  assert.equal(response.body.module, 'projects');
}

export interface ProjectTeam {
  t: TestApp;
  owner: TestUser;
  admin: TestUser;
  member: TestUser;
  /** Never a member of the projects the fixtures make. */
  outsider: TestUser;
}

/**
 * Starts a test app and its four actors in a `before` hook of the enclosing `describe` and closes
 * it after. Read the returned getter in hooks and tests only.
 */
export function useProjectTeam(): () => ProjectTeam {
  let team: ProjectTeam | undefined;
  before(async () => {
    const t = await createTestApp();
    team = {
      t,
      owner: await t.actor('owner'),
      admin: await t.actor('admin'),
      member: await t.actor('member'),
      outsider: await t.actor('outsider'),
    };
  });
  after(() => team?.t.close());
  return () => {
    if (team === undefined) throw new Error('the team starts in a before hook');
    return team;
  };
}

export function projectFixtures(team: () => ProjectTeam) {
  const t = () => team().t;
  const createProject = async (by: TestUser, fields: Record<string, unknown> = {}) =>
    expectOk(
      await t().post<Project>('/projects', {
        token: by.token,
        body: { name: 'Test project', slug: newSlug(), ...fields },
      }),
      201,
      'projects',
    );
  const addMember = async (by: TestUser, projectId: string, who: TestUser, role: 'admin' | 'member') =>
    expectOk(
      await t().post<ProjectMember>(`/projects/${projectId}/members`, {
        token: by.token,
        body: { actor_email: who.email, role },
      }),
      201,
      'projects',
    );
  return {
    createProject,
    addMember,
    /** A new project of the team owner with the team admin and member. */
    async createTeamProject(name = 'Team project') {
      const { owner, admin, member } = team();
      const project = await createProject(owner, { name });
      await addMember(owner, project.id, admin, 'admin');
      await addMember(owner, project.id, member, 'member');
      return project;
    },
    listMembers: async (by: TestUser, projectId: string) =>
      expectOk(
        await t().get<ProjectMember[]>(`/projects/${projectId}/members?limit=100`, { token: by.token }),
        200,
        'projects',
      ),
    myProjects: async (by: TestUser) =>
      expectOk(await t().get<MyProject[]>('/projects?limit=100', { token: by.token }), 200, 'projects'),
  };
}
