/**
 * Memberships (docs/reference/events.md event members, docs/reference/projects.md project members), one suite
 * run for each: the list, adding an existing actor by e-mail, removal by e-mail, who may add or remove whom,
 * the owner who stays, duplicates, unknown people and bad input. What only one module does (events: the path
 * user_id of a removal, draft events, staff badges; projects: outsiders get 404) is tested beside it, in
 * modules/events/members/ and modules/projects/members/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectFields, expectOk } from '../../../test/assertions.ts';
import { type ApiResponse, createTestApp, type TestApp, type TestUser } from '../../../test/harness.ts';
import type { Member } from '../../modules/events/members/members.schemas.ts';
import type { ProjectMember } from '../../modules/projects/members/members.schemas.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN_ID = '01937a4e-0000-7000-8000-0000000000ff';
const MEMBER_KEYS = ['created_at', 'email', 'role', 'user_id'];

type AnyMember = Member | ProjectMember;

interface MembershipCase {
  module: 'events' | 'projects';
  /** The role below admin. */
  lowest: 'staff' | 'member';
  /** The body field naming the person. */
  emailField: 'email' | 'actor_email';
  idParam: 'event_id' | 'project_id';
  /** The parent resource's path. */
  path(id: string): string;
  /** Creates a parent owned by `owner`; answers its id. */
  create(t: TestApp, owner: TestUser): Promise<string>;
  /** The ids of the parents `user` is a member of, with their role. */
  mine(t: TestApp, user: TestUser): Promise<Array<[string, string]>>;
  /** The removal route of `member` (events name them in the path too). */
  removeUrl(parentId: string, member: TestUser): string;
  /** What a removal answers. */
  removedAnswer(member: TestUser, role: string): unknown;
  /** A body field the other module uses, refused here (or undefined). */
  foreignField?: string;
}

let slugs = 0;
const slug = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${slugs++}`;

const CASES: MembershipCase[] = [
  {
    module: 'events',
    lowest: 'staff',
    emailField: 'email',
    idParam: 'event_id',
    path: (id) => `/events/${id}`,
    async create(t, owner) {
      const body = { name: 'Members event', slug: slug('mev') };
      return expectOk(await t.post<{ id: string }>('/events', { token: owner.token, body }), 201).id;
    },
    async mine(t, user) {
      const mine = expectOk(
        await t.get<Array<{ id: string; role: string }>>('/events/mine?limit=100', { token: user.token }),
      );
      return mine.map((item) => [item.id, item.role]);
    },
    removeUrl: (parentId, member) => `/events/${parentId}/members/${member.id}`,
    removedAnswer: (member, role) => ({ user_id: member.id, email: member.email, role }),
  },
  {
    module: 'projects',
    lowest: 'member',
    emailField: 'actor_email',
    idParam: 'project_id',
    path: (id) => `/projects/${id}`,
    async create(t, owner) {
      const body = { name: 'Members project', slug: slug('mpr') };
      return expectOk(await t.post<{ id: string }>('/projects', { token: owner.token, body }), 201).id;
    },
    async mine(t, user) {
      const mine = expectOk(
        await t.get<Array<{ id: string; role: string }>>('/projects?limit=100', { token: user.token }),
      );
      return mine.map((item) => [item.id, item.role]);
    },
    removeUrl: (parentId) => `/projects/${parentId}/members`,
    removedAnswer: () => ({}),
    foreignField: 'email',
  },
];

for (const c of CASES) {
  describe(`${c.module} members (kernel membership)`, () => {
    let t: TestApp;
    let owner: TestUser;
    let admin: TestUser;
    let low: TestUser;
    /** A parent of `owner` with `admin` and `low` (the lowest role) as members. */
    let parent: string;
    const members = (id: string) => `${c.path(id)}/members`;
    const body = (who: { email: string }, role?: string) =>
      role === undefined ? { [c.emailField]: who.email } : { [c.emailField]: who.email, role };
    const add = async (by: TestUser, id: string, who: TestUser, role: string) =>
      expectOk(
        await t.post<AnyMember>(members(id), { token: by.token, body: body(who, role) }),
        201,
        c.module,
      );
    const list = async (id: string, by = owner) =>
      expectOk(await t.get<AnyMember[]>(`${members(id)}?limit=100`, { token: by.token }), 200, c.module);
    const ids = async (id: string) => (await list(id)).map((member) => member.user_id);
    const remove = (by: TestUser, id: string, who: TestUser, email = who.email) =>
      t.delete<unknown>(c.removeUrl(id, who), { token: by.token, body: { [c.emailField]: email } });
    const invalid = (response: ApiResponse<unknown>, label: string, ...fields: string[]) => {
      try {
        expectFields(response, ...fields);
        assert.equal(response.body.module, c.module);
      } catch (error) {
        throw new Error(`${label}: ${(error as Error).message}`);
      }
    };
    /** A parent of `owner` with a fresh admin and two fresh members of the lowest role. */
    const crew = async () => {
      const id = await c.create(t, owner);
      const [crewAdmin, first, second] = [await t.actor('ad'), await t.actor('m1'), await t.actor('m2')];
      await add(owner, id, crewAdmin, 'admin');
      await add(owner, id, first, c.lowest);
      await add(owner, id, second, c.lowest);
      return { id, crewAdmin, first, second };
    };

    before(async () => {
      t = await createTestApp();
      [owner, admin, low] = [await t.actor('owner'), await t.actor('admin'), await t.actor('low')];
      parent = await c.create(t, owner);
      await add(owner, parent, admin, 'admin');
      await add(owner, parent, low, c.lowest);
    });
    after(() => t.close());

    describe('list', () => {
      it('lists the members to every member: the owner, then admins, then the rest', async () => {
        for (const caller of [owner, admin, low]) {
          const response = await t.get<AnyMember[]>(members(parent), { token: caller.token });
          const listed = expectOk(response, 200, c.module);
          assert.deepEqual(
            listed.map((member) => [member.user_id, member.email, member.role]),
            [
              [owner.id, owner.email, 'owner'],
              [admin.id, admin.email, 'admin'],
              [low.id, low.email, c.lowest],
            ],
          );
          for (const member of listed) {
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

      it('orders by role before joining order, and paginates', async () => {
        const id = await c.create(t, owner);
        await add(owner, id, low, c.lowest);
        await add(owner, id, admin, 'admin');
        assert.deepEqual(await ids(id), [owner.id, admin.id, low.id]);
        const response = await t.get<AnyMember[]>(`${members(id)}?page=2&limit=1`, { token: low.token });
        assert.deepEqual(
          expectOk(response).map((member) => member.user_id),
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

      it('refuses bad paging and a malformed id (400), and answers 404 for an unknown parent', async () => {
        const url = members(parent);
        invalid(await t.get(`${url}?page=0`, { token: owner.token }), 'page=0', 'query.page');
        invalid(await t.get(`${url}?limit=101`, { token: owner.token }), 'limit=101', 'query.limit');
        invalid(await t.get(`${url}?limit=zero`, { token: owner.token }), 'limit=zero', 'query.limit');
        invalid(await t.get(members('x'), { token: owner.token }), 'malformed', `params.${c.idParam}`);
        expectError(await t.get(members(UNKNOWN_ID), { token: owner.token }), 404, 'NOT_FOUND');
      });
    });

    describe('add', () => {
      it('adds an existing actor by e-mail, case-insensitively, with the given role', async () => {
        const id = await c.create(t, owner);
        const newcomer = await t.actor('newcomer');
        const response = await t.post<AnyMember>(members(id), {
          token: owner.token,
          body: { [c.emailField]: newcomer.email.toUpperCase(), role: c.lowest },
        });
        const added = expectOk(response, 201, c.module);
        assert.equal(response.body.message, 'Created');
        assert.deepEqual(Object.keys(added).sort(), MEMBER_KEYS);
        assert.deepEqual([added.user_id, added.email, added.role], [newcomer.id, newcomer.email, c.lowest]);
        assert.match(added.created_at, ISO);
        // Side effects: listed, among the newcomer's own, and readable to them.
        assert.deepEqual((await list(id)).at(-1), added);
        assert.deepEqual(await c.mine(t, newcomer), [[id, c.lowest]]);
        expectOk(await t.get(c.path(id), { token: newcomer.token }));
      });

      it('lets the owner add an admin, who can then manage the parent', async () => {
        const id = await c.create(t, owner);
        const promoted = await t.actor('promoted');
        assert.equal((await add(owner, id, promoted, 'admin')).role, 'admin');
        expectOk(await t.patch(c.path(id), { token: promoted.token, body: { name: 'By admin' } }));
      });

      it('lets an admin add the lowest role but not another admin (403)', async () => {
        const id = await c.create(t, owner);
        await add(owner, id, admin, 'admin');
        const helper = await t.actor('helper');
        const candidate = await t.actor('candidate');
        assert.equal((await add(admin, id, helper, c.lowest)).role, c.lowest);
        const response = await t.post(members(id), { token: admin.token, body: body(candidate, 'admin') });
        expectError(response, 403, 'FORBIDDEN');
        assert.equal(response.body.module, c.module);
        assert.deepEqual(await ids(id), [owner.id, admin.id, helper.id]);
        assert.deepEqual(await c.mine(t, candidate), []);
      });

      it('refuses the lowest role (403) whatever the role asked', async () => {
        const candidate = await t.actor('candidate');
        for (const role of [c.lowest, 'admin']) {
          expectError(
            await t.post(members(parent), { token: low.token, body: body(candidate, role) }),
            403,
            'FORBIDDEN',
          );
        }
        assert.deepEqual(await c.mine(t, candidate), []);
      });

      it('answers 404 for an e-mail no actor has, such as a user who never called the API', async () => {
        const id = await c.create(t, owner);
        const stranger = await t.user('stranger');
        const response = await t.post(members(id), { token: owner.token, body: body(stranger, c.lowest) });
        expectError(response, 404, 'NOT_FOUND');
        assert.equal(response.body.module, c.module);
        expectError(
          await t.post(members(id), {
            token: owner.token,
            body: body({ email: 'nobody-at-all@example.com' }, c.lowest),
          }),
          404,
          'NOT_FOUND',
        );
        // Once they have called the API, they can be added.
        assert.deepEqual(await c.mine(t, stranger), []);
        assert.equal((await add(owner, id, stranger, c.lowest)).user_id, stranger.id);
      });

      it('refuses someone who is already a member, whatever the role or case (409)', async () => {
        const cases: Array<[TestUser, string]> = [
          [low, c.lowest],
          [low, 'admin'],
          [admin, c.lowest],
          [owner, 'admin'],
        ];
        for (const [who, role] of cases) {
          const response = await t.post(members(parent), {
            token: owner.token,
            body: body({ email: who.email.toUpperCase() }, role),
          });
          const error = expectError(response, 409, 'CONFLICT');
          assert.equal(typeof error.meta?.role, 'string');
        }
        assert.deepEqual(
          (await list(parent)).map((member) => member.role),
          ['owner', 'admin', c.lowest],
        );
      });

      it('refuses malformed JSON and invalid fields (400), unknown (404) and malformed ids (400)', async () => {
        const candidate = await t.actor('candidate');
        const url = members(parent);
        const malformed = await t.post(url, {
          token: owner.token,
          payload: '{"name": "Broken", "slug": ',
          contentType: 'application/json',
        });
        expectError(malformed, 400, 'BAD_REQUEST');
        const field = c.emailField;
        const cases: Array<[string, unknown, string[]]> = [
          ['no fields', {}, [field, 'role']],
          ['the owner role', body(candidate, 'owner'), ['role']],
          ['an unknown role', body(candidate, 'guest'), ['role']],
          ['a boolean role', { [field]: candidate.email, role: true }, ['role']],
          ['a bad e-mail', { [field]: 'not-an-email', role: c.lowest }, [field]],
          ['a number as e-mail', { [field]: 42, role: c.lowest }, [field]],
          ['a NUL character', { [field]: `x\u0000${candidate.email}`, role: c.lowest }, [field]],
          ['an unknown field', { ...body(candidate, c.lowest), user_id: candidate.id }, ['user_id']],
        ];
        if (c.foreignField !== undefined) {
          cases.push([
            'the other module field name',
            { [c.foreignField]: candidate.email, role: c.lowest },
            [c.foreignField, field],
          ]);
        }
        for (const [label, sent, fields] of cases) {
          invalid(await t.post(url, { token: owner.token, body: sent }), label, ...fields);
        }
        const good = body(candidate, c.lowest);
        expectError(await t.post(members(UNKNOWN_ID), { token: owner.token, body: good }), 404, 'NOT_FOUND');
        invalid(
          await t.post(members('nope'), { token: owner.token, body: good }),
          'malformed',
          `params.${c.idParam}`,
        );
        assert.deepEqual(await c.mine(t, candidate), []);
      });
    });

    describe('remove', () => {
      it('removes the member named by e-mail (case-insensitive)', async () => {
        const { id, crewAdmin, first, second } = await crew();
        const response = await remove(owner, id, first, first.email.toUpperCase());
        const answer = expectOk(response, 200, c.module);
        assert.equal(response.body.message, 'OK');
        assert.equal(response.body.pagination, undefined);
        const { created_at: createdAt, ...rest } = answer as { created_at?: string };
        assert.deepEqual(rest, c.removedAnswer(first, c.lowest));
        if (createdAt !== undefined) assert.match(createdAt, ISO);
        // Side effects: gone from the list and from their own; the parent (a private project, a
        // draft event) and its member list are now as unknown to them (404) as to anyone outside.
        assert.deepEqual(await ids(id), [owner.id, crewAdmin.id, second.id]);
        assert.deepEqual(await c.mine(t, first), []);
        expectError(await t.get(c.path(id), { token: first.token }), 404, 'NOT_FOUND');
        expectError(await t.get(members(id), { token: first.token }), 404, 'NOT_FOUND');
        // A second removal finds nobody (404); they can be added again.
        expectError(await remove(owner, id, first), 404, 'NOT_FOUND');
        assert.equal((await add(owner, id, first, c.lowest)).user_id, first.id);
      });

      it('lets an admin remove the lowest role, and the owner remove an admin', async () => {
        const { id, crewAdmin, first, second } = await crew();
        expectOk(await remove(crewAdmin, id, first));
        expectOk(await remove(owner, id, crewAdmin));
        assert.deepEqual(await ids(id), [owner.id, second.id]);
        // The removed admin has lost the right to manage the parent (unknown to them now).
        expectError(
          await t.patch(c.path(id), { token: crewAdmin.token, body: { name: 'Gone' } }),
          404,
          'NOT_FOUND',
        );
      });

      it('refuses an admin removing an admin, themselves included (403)', async () => {
        const { id, crewAdmin } = await crew();
        const other = await t.actor('other-admin');
        await add(owner, id, other, 'admin');
        for (const who of [other, crewAdmin]) {
          expectError(await remove(crewAdmin, id, who), 403, 'FORBIDDEN');
        }
        assert.deepEqual((await ids(id)).slice(0, 3), [owner.id, crewAdmin.id, other.id]);
      });

      it('never removes the owner (409), whoever asks', async () => {
        const { id, crewAdmin } = await crew();
        for (const caller of [owner, crewAdmin]) {
          const response = await remove(caller, id, owner, owner.email.toUpperCase());
          expectError(response, 409, 'CONFLICT');
          assert.equal(response.body.module, c.module);
        }
        assert.equal((await ids(id))[0], owner.id);
        assert.equal(
          expectOk(await t.get<{ owner_id: string }>(c.path(id), { token: owner.token })).owner_id,
          owner.id,
        );
      });

      it('answers 404 for an e-mail that is not a member, whether or not an actor has it', async () => {
        const { id } = await crew();
        const outsider = await t.actor('outsider');
        for (const email of [outsider.email, 'nobody-at-all@example.com']) {
          expectError(await remove(owner, id, outsider, email), 404, 'NOT_FOUND');
        }
      });

      it('refuses the lowest role (403), whatever the e-mail', async () => {
        for (const who of [owner, admin, low]) {
          expectError(await remove(low, parent, who), 403, 'FORBIDDEN');
        }
        assert.deepEqual(await ids(parent), [owner.id, admin.id, low.id]);
      });

      it('refuses malformed JSON, a missing body and invalid fields (400), unknown and malformed ids', async () => {
        const url = c.removeUrl(parent, low);
        const malformed = await t.delete(url, {
          token: owner.token,
          payload: '{"name": "Broken", "slug": ',
          contentType: 'application/json',
        });
        expectError(malformed, 400, 'BAD_REQUEST');
        const field = c.emailField;
        const cases: Array<[string, unknown, string[]]> = [
          ['no fields', {}, [field]],
          ['a bad e-mail', { [field]: 'nope' }, [field]],
          ['a number as e-mail', { [field]: 7 }, [field]],
          ['a NUL character', { [field]: `x\u0000${low.email}` }, [field]],
          ['an unknown field', { [field]: low.email, user_id: low.id }, ['user_id']],
        ];
        for (const [label, sent, fields] of cases) {
          invalid(await t.delete(url, { token: owner.token, body: sent }), label, ...fields);
        }
        invalid(await t.delete(url, { token: owner.token }), 'no body', 'body');
        const good = body(low);
        const unknownUrl = c.removeUrl(UNKNOWN_ID, low);
        expectError(await t.delete(unknownUrl, { token: owner.token, body: good }), 404, 'NOT_FOUND');
        invalid(
          await t.delete(c.removeUrl('zz', low), { token: owner.token, body: good }),
          'malformed',
          `params.${c.idParam}`,
        );
        assert.deepEqual(await ids(parent), [owner.id, admin.id, low.id]);
      });
    });
  });
}
