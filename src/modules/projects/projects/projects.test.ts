/**
 * Projects (docs/reference/projects.md): creation, the caller's projects, read and update. Every route is
 * checked for success and its side effects, bad input, authentication (the shared table), the wrong role and
 * unknown ids. Members: members.test.ts.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { ProjectMember } from '../members/members.schemas.ts';
import {
  expectInvalid,
  expectMalformedJson,
  ISO,
  MEMBER_KEYS,
  newSlug,
  PROJECT_KEYS,
  projectFixtures,
  UNKNOWN_ID,
  UUID_V7,
  useProjectTeam,
} from '../projects.fixtures.ts';
import type { MyProject, Project } from './projects.schemas.ts';

describe('projects', () => {
  const team = useProjectTeam();
  const { createProject, createTeamProject, listMembers, myProjects } = projectFixtures(team);
  let project: Project;

  before(async () => {
    project = await createTeamProject('Shared project');
  });

  // GET /projects/{id} is open to every member: its wrong role is an outsider, who gets 404 (below).
  checkAuth(
    'protected project routes',
    () => team().t,
    () => [
      { method: 'POST', url: '/projects', body: { name: 'Nobody', slug: newSlug() } },
      { method: 'GET', url: '/projects' },
      { method: 'GET', url: `/projects/${project.id}` },
      {
        method: 'PATCH',
        url: `/projects/${project.id}`,
        body: { name: 'By a member' },
        forbidden: team().member,
      },
    ],
  );

  describe('POST /projects', () => {
    it('creates a project owned by the caller, who becomes its owner member', async () => {
      const { t } = team();
      const creator = await t.actor('creator');
      const slug = newSlug('full');
      const response = await t.post<Project>('/projects', {
        token: creator.token,
        body: { name: 'Acme Identity', slug },
      });
      const created = expectOk(response, 201, 'projects');
      assert.equal(response.body.message, 'Created');
      assert.equal(response.body.pagination, undefined);
      assert.deepEqual(Object.keys(created).sort(), PROJECT_KEYS);
      assert.match(created.id, UUID_V7);
      assert.equal(created.name, 'Acme Identity');
      assert.equal(created.slug, slug);
      assert.equal(created.owner_id, creator.id);
      assert.match(created.created_at, ISO);
      assert.match(created.updated_at, ISO);

      // Side effects: readable, in the caller's projects with role owner, and the owner is a member.
      assert.deepEqual(
        expectOk(await t.get<Project>(`/projects/${created.id}`, { token: creator.token })),
        created,
      );
      assert.deepEqual(await myProjects(creator), [{ ...created, role: 'owner' }]);
      const members = await listMembers(creator, created.id);
      assert.equal(members.length, 1);
      assert.deepEqual(Object.keys(members[0]).sort(), MEMBER_KEYS);
      assert.deepEqual(
        [members[0].user_id, members[0].email, members[0].role],
        [creator.id, creator.email, 'owner'],
      );
    });

    it('accepts a caller not yet in the actor directory (the request records them)', async () => {
      const { t } = team();
      const fresh = await t.user('fresh');
      const created = expectOk(
        await t.post<Project>('/projects', {
          token: fresh.token,
          body: { name: 'First call', slug: newSlug() },
        }),
        201,
        'projects',
      );
      assert.equal((await listMembers(fresh, created.id))[0].email, fresh.email);
    });

    it('refuses a slug already taken (409, naming slug), creating nothing', async () => {
      const { t } = team();
      const other = await t.actor('other');
      const response = await t.post<Project>('/projects', {
        token: other.token,
        body: { name: 'Copy', slug: project.slug },
      });
      const error = expectError(response, 409, 'CONFLICT');
      assert.equal(error.reason, 'slug_taken');
      assert.equal(response.body.module, 'projects');
      assert.deepEqual(error.fields, [
        { field: 'slug', message: 'slug is already taken by another project' },
      ]);
      assert.deepEqual(await myProjects(other), []);
    });

    it('refuses malformed JSON (400 BAD_REQUEST) and invalid fields (400 VALIDATION_ERROR)', async () => {
      const { t, owner } = team();
      await expectMalformedJson(t, 'POST', '/projects', owner);
      const cases: Array<[string, unknown, string[]]> = [
        ['no fields', {}, ['name', 'slug']],
        ['a short name', { name: 'x', slug: newSlug() }, ['name']],
        ['a long name', { name: 'x'.repeat(201), slug: newSlug() }, ['name']],
        ['a number as name', { name: 12, slug: newSlug() }, ['name']],
        ['a NUL character', { name: 'Bad\u0000name', slug: newSlug() }, ['name']],
        ['an upper-case slug', { name: 'Fine', slug: 'Not-A-Slug' }, ['slug']],
        ['a slug with a leading hyphen', { name: 'Fine', slug: '-abc' }, ['slug']],
        ['a one-letter slug', { name: 'Fine', slug: 'a' }, ['slug']],
        ['a long slug', { name: 'Fine', slug: 'a'.repeat(65) }, ['slug']],
        ['an unknown field', { name: 'Fine', slug: newSlug(), owner_id: UNKNOWN_ID }, ['owner_id']],
      ];
      for (const [label, body, fields] of cases) {
        expectInvalid(await t.post<Project>('/projects', { token: owner.token, body }), label, ...fields);
      }
      expectError(
        await t.post<Project>('/projects', { token: owner.token, body: ['not', 'an', 'object'] }),
        400,
        'VALIDATION_ERROR',
      );
    });
  });

  describe('GET /projects', () => {
    it("lists the caller's projects, newest first, each with the caller's role", async () => {
      const { t, owner, admin, member, outsider } = team();
      const viewer = await t.actor('viewer');
      const first = await createProject(owner, { name: 'First' });
      const second = await createProject(admin, { name: 'Second' });
      for (const [by, projectId] of [
        [owner, first.id],
        [admin, second.id],
      ] as const) {
        expectOk(
          await t.post<ProjectMember>(`/projects/${projectId}/members`, {
            token: by.token,
            body: { actor_email: viewer.email, role: 'member' },
          }),
          201,
        );
      }
      expectOk(
        await t.post<ProjectMember>(`/projects/${second.id}/members`, {
          token: admin.token,
          body: { actor_email: owner.email, role: 'member' },
        }),
        201,
      );
      const response = await t.get<MyProject[]>('/projects', { token: viewer.token });
      const listed = expectOk(response, 200, 'projects');
      assert.deepEqual(listed, [
        { ...second, role: 'member' },
        { ...first, role: 'member' },
      ]);
      assert.deepEqual(response.body.pagination, {
        page: 1,
        limit: 20,
        total: 2,
        has_next: false,
        has_prev: false,
        next_page: null,
        prev_page: null,
      });
      const mine = await myProjects(owner);
      assert.deepEqual(
        mine.slice(0, 2).map((item) => [item.id, item.role]),
        [
          [second.id, 'member'],
          [first.id, 'owner'],
        ],
      );
      assert.ok(mine.some((item) => item.id === project.id && item.role === 'owner'));
      assert.ok((await myProjects(member)).some((item) => item.id === project.id && item.role === 'member'));
      assert.deepEqual(await myProjects(outsider), []);
    });

    it('paginates', async () => {
      const { t } = team();
      const solo = await t.actor('solo');
      const made = [];
      for (const name of ['One', 'Two', 'Three']) made.push(await createProject(solo, { name }));
      const response = await t.get<MyProject[]>('/projects?page=2&limit=1', { token: solo.token });
      assert.deepEqual(
        expectOk(response, 200, 'projects').map((item) => item.id),
        [made[1].id],
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
      const past = await t.get<MyProject[]>('/projects?page=9', { token: solo.token });
      assert.deepEqual(expectOk(past), []);
      assert.equal(past.body.pagination.total, 3);
    });

    it('refuses page or limit out of range and unknown query parameters (400)', async () => {
      const { t, owner } = team();
      for (const [query, field] of [
        ['page=0', 'query.page'],
        ['page=x', 'query.page'],
        ['limit=0', 'query.limit'],
        ['limit=101', 'query.limit'],
        ['limit=1.5', 'query.limit'],
        ['sort=name', 'query.sort'],
      ]) {
        expectInvalid(await t.get<MyProject[]>(`/projects?${query}`, { token: owner.token }), query!, field!);
      }
    });
  });

  describe('GET /projects/{project_id}', () => {
    it('shows the project to every member', async () => {
      const { t, owner, admin, member } = team();
      for (const caller of [owner, admin, member]) {
        assert.deepEqual(
          expectOk(await t.get<Project>(`/projects/${project.id}`, { token: caller.token }), 200, 'projects'),
          project,
        );
      }
    });

    it('answers an outsider exactly as for an unknown project (404)', async () => {
      const { t, outsider } = team();
      const hidden = await t.get<Project>(`/projects/${project.id}`, { token: outsider.token });
      const unknown = await t.get<Project>(`/projects/${UNKNOWN_ID}`, { token: outsider.token });
      expectError(hidden, 404, 'NOT_FOUND');
      expectError(unknown, 404, 'NOT_FOUND');
      assert.equal(hidden.body.module, 'projects');
      assert.deepEqual({ ...hidden.body, timestamp: 0 }, { ...unknown.body, timestamp: 0 });
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      const { t, owner } = team();
      expectError(await t.get<Project>(`/projects/${UNKNOWN_ID}`, { token: owner.token }), 404, 'NOT_FOUND');
      expectInvalid(
        await t.get<Project>('/projects/not-a-uuid', { token: owner.token }),
        'malformed',
        'params.project_id',
      );
    });
  });

  describe('PATCH /projects/{project_id}', () => {
    it('lets the owner and an admin rename the project and change its slug', async () => {
      const { t, owner, admin, member } = team();
      const target = await createTeamProject('Before');
      const slug = newSlug('renamed');
      const byOwner = expectOk(
        await t.patch<Project>(`/projects/${target.id}`, {
          token: owner.token,
          body: { name: 'After', slug },
        }),
        200,
        'projects',
      );
      assert.deepEqual(Object.keys(byOwner).sort(), PROJECT_KEYS);
      assert.equal(byOwner.name, 'After');
      assert.equal(byOwner.slug, slug);
      assert.equal(byOwner.id, target.id);
      assert.equal(byOwner.owner_id, owner.id);
      assert.equal(byOwner.created_at, target.created_at);
      assert.ok(byOwner.updated_at >= target.updated_at);

      const byAdmin = expectOk(
        await t.patch<Project>(`/projects/${target.id}`, { token: admin.token, body: { name: 'By admin' } }),
      );
      assert.deepEqual({ ...byAdmin, updated_at: 0 }, { ...byOwner, name: 'By admin', updated_at: 0 });
      // Side effect: every member reads the new values.
      assert.deepEqual(
        expectOk(await t.get<Project>(`/projects/${target.id}`, { token: member.token })),
        byAdmin,
      );
      // The same slug again is not a clash with itself.
      expectOk(await t.patch<Project>(`/projects/${target.id}`, { token: owner.token, body: { slug } }));
    });

    it('refuses a plain member (403) and an outsider (404), changing nothing', async () => {
      const { t, member, outsider, owner } = team();
      expectError(
        await t.patch<Project>(`/projects/${project.id}`, { token: member.token, body: { name: 'Nope' } }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await t.patch<Project>(`/projects/${project.id}`, { token: outsider.token, body: { name: 'Nope' } }),
        404,
        'NOT_FOUND',
      );
      assert.deepEqual(
        expectOk(await t.get<Project>(`/projects/${project.id}`, { token: owner.token })),
        project,
      );
    });

    it('refuses a slug taken by another project (409)', async () => {
      const { t, owner } = team();
      const other = await createProject(owner);
      const error = expectError(
        await t.patch<Project>(`/projects/${other.id}`, { token: owner.token, body: { slug: project.slug } }),
        409,
        'CONFLICT',
      );
      assert.equal(error.fields?.[0]?.field, 'slug');
      assert.equal(
        expectOk(await t.get<Project>(`/projects/${other.id}`, { token: owner.token })).slug,
        other.slug,
      );
    });

    it('refuses malformed JSON and invalid fields (400), and unknown or malformed ids', async () => {
      const { t, owner } = team();
      const url = `/projects/${project.id}`;
      await expectMalformedJson(t, 'PATCH', url, owner);
      const cases: Array<[string, unknown, string[]]> = [
        ['an empty body', {}, ['body']],
        ['an unknown field', { colour: 'red' }, ['colour']],
        ['an owner_id', { owner_id: owner.id }, ['owner_id']],
        ['a null name', { name: null }, ['name']],
        ['a number as name', { name: 1 }, ['name']],
        ['a short name', { name: 'x' }, ['name']],
        ['a bad slug', { slug: 'Not A Slug' }, ['slug']],
        ['a NUL character', { name: 'Bad\u0000' }, ['name']],
      ];
      for (const [label, body, fields] of cases) {
        expectInvalid(await t.patch<Project>(url, { token: owner.token, body }), label, ...fields);
      }
      expectError(
        await t.patch<Project>(`/projects/${UNKNOWN_ID}`, { token: owner.token, body: { name: 'Ghost' } }),
        404,
        'NOT_FOUND',
      );
      expectInvalid(
        await t.patch<Project>('/projects/123', { token: owner.token, body: { name: 'Ghost' } }),
        'malformed',
        'params.project_id',
      );
      assert.deepEqual(expectOk(await t.get<Project>(url, { token: owner.token })), project);
    });
  });
});
