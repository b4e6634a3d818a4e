/**
 * Programs (docs/reference/events.md): creation and its time rules, the public list (ordering, paging, the
 * `kind` filter, `staff_only` and draft visibility), reads by id, partial updates and soft
 * deletes; bad input (never a 5xx), authentication and roles, unknown ids.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import {
  at,
  eventFixtures,
  expectInvalid,
  ISO,
  idsOf,
  MALFORMED_JSON,
  UNKNOWN_ID,
  useTeam,
} from '../events.fixtures.ts';
import { PROGRAM_KEYS } from './programs.fixtures.ts';
import type { Program } from './programs.schemas.ts';

describe('programs', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  /** A published edition (hours 0..48) of a published event with admin and staff members. */
  let edition: Edition;
  let program: Program;
  const { freshEdition } = eventFixtures(() => team);

  const programsUrl = (editionId: string = edition.id) => `/editions/${editionId}/programs`;
  async function createProgram(fields: Record<string, unknown> = {}, editionId = edition.id, by = owner) {
    const response = await t.post<Program>(programsUrl(editionId), {
      token: by.token,
      body: { kind: 'activity', name: 'A talk', ...fields },
    });
    return expectOk(response, 201, 'events');
  }
  async function listPrograms(editionId: string, token?: string, query = 'limit=100') {
    return expectOk(await t.get<Program[]>(`${programsUrl(editionId)}?${query}`, { token }), 200, 'events');
  }

  before(async () => {
    edition = await freshEdition();
    program = await createProgram({ name: 'Fixture', starts_at: at(10), ends_at: at(12) });
  });

  checkAuth(
    'protected program routes',
    () => t,
    () => [
      { method: 'POST', url: programsUrl(), body: { kind: 'activity', name: 'Nope' }, forbidden: staff },
      { method: 'PATCH', url: `/programs/${program.id}`, body: { name: 'Nope' }, forbidden: staff },
      { method: 'DELETE', url: `/programs/${program.id}`, forbidden: staff },
    ],
  );

  describe('POST /editions/{edition_id}/programs', () => {
    it('creates a program with every field, readable afterwards', async () => {
      const body = {
        kind: 'checkpoint',
        name: 'Entrance',
        description: 'Main door',
        starts_at: '2030-01-01T10:00:00+02:00',
        ends_at: at(48),
        location: 'Lobby',
        min_access_level: 2,
        staff_only: false,
        price: 1500,
        banner_url: 'https://cdn.example/banner.png',
      };
      const response = await t.post<Program>(programsUrl(), { token: admin.token, body });
      const created = expectOk(response, 201, 'events');
      assert.equal(response.body.message, 'Created');
      assert.deepEqual(Object.keys(created).sort(), PROGRAM_KEYS);
      assert.match(created.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.deepEqual(
        { ...created, id: undefined, created_at: undefined, updated_at: undefined },
        {
          ...body,
          starts_at: at(8),
          edition_id: edition.id,
          max_participants: null,
          deleted_at: null,
          id: undefined,
          created_at: undefined,
          updated_at: undefined,
        },
      );
      assert.match(created.created_at, ISO);
      assert.equal(created.updated_at, created.created_at);
      assert.deepEqual(expectOk(await t.get<Program>(`/programs/${created.id}`)), created);
      assert.ok(idsOf(await listPrograms(edition.id)).includes(created.id));
    });

    it('applies the defaults and leaves the optional fields null', async () => {
      const created = await createProgram({ name: 'Bare' });
      assert.equal(created.kind, 'activity');
      assert.equal(created.min_access_level, 0);
      assert.equal(created.staff_only, false);
      assert.equal(created.price, 0);
      for (const field of ['description', 'starts_at', 'ends_at', 'location', 'banner_url']) {
        assert.equal((created as Record<string, unknown>)[field], null, field);
      }
    });

    it('accepts times on the edition bounds and only a start or only an end', async () => {
      const onBounds = await createProgram({ starts_at: at(0), ends_at: at(48) });
      assert.equal(onBounds.starts_at, at(0));
      assert.equal(onBounds.ends_at, at(48));
      assert.equal((await createProgram({ starts_at: at(47) })).ends_at, null);
      assert.equal((await createProgram({ ends_at: at(1) })).starts_at, null);
    });

    it('refuses times outside the edition and an end not after the start, naming the field', async () => {
      const send = (body: Record<string, unknown>) =>
        t.post<Program>(programsUrl(), {
          token: owner.token,
          body: { kind: 'activity', name: 'Late', ...body },
        });
      expectInvalid(await send({ starts_at: at(-1) }), 'start before', 'starts_at');
      expectInvalid(await send({ starts_at: at(49) }), 'start after', 'starts_at');
      expectInvalid(await send({ ends_at: at(48.5) }), 'end after', 'ends_at');
      expectInvalid(await send({ ends_at: at(-0.5) }), 'end before', 'ends_at');
      expectInvalid(await send({ starts_at: at(5), ends_at: at(5) }), 'end = start', 'ends_at');
      expectInvalid(await send({ starts_at: at(5), ends_at: at(4) }), 'end < start', 'ends_at');
      expectInvalid(await send({ starts_at: at(-5), ends_at: at(60) }), 'both', 'starts_at', 'ends_at');
      expectInvalid(await send({ starts_at: '2030-01-01T25:00:00Z' }), 'bad time', 'starts_at');
      expectInvalid(await send({ starts_at: '2030-06-30T23:59:60Z' }), 'leap second', 'starts_at');
    });

    it('refuses bad input with 400 naming each field', async () => {
      const send = (body: unknown) => t.post<Program>(programsUrl(), { token: owner.token, body });
      const cases: Array<[string, unknown, string[]]> = [
        ['missing fields', {}, ['kind', 'name']],
        ['unknown field', { kind: 'activity', name: 'X', capacity: 10 }, ['capacity']],
        ['unknown kind', { kind: 'talk', name: 'X' }, ['kind']],
        ['empty name', { kind: 'activity', name: '' }, ['name']],
        ['long name', { kind: 'activity', name: 'x'.repeat(201) }, ['name']],
        ['NUL in name', { kind: 'activity', name: 'a\u0000b' }, ['name']],
        ['string price', { kind: 'activity', name: 'X', price: '100' }, ['price']],
        ['negative price', { kind: 'activity', name: 'X', price: -1 }, ['price']],
        ['fractional price', { kind: 'activity', name: 'X', price: 1.5 }, ['price']],
        ['huge price', { kind: 'activity', name: 'X', price: 2 ** 31 }, ['price']],
        ['beyond 2^53', { kind: 'activity', name: 'X', price: 2 ** 60 }, ['price']],
        ['negative level', { kind: 'activity', name: 'X', min_access_level: -1 }, ['min_access_level']],
        ['huge level', { kind: 'activity', name: 'X', min_access_level: 2 ** 31 }, ['min_access_level']],
        ['string staff_only', { kind: 'activity', name: 'X', staff_only: 'yes' }, ['staff_only']],
        ['number time', { kind: 'activity', name: 'X', starts_at: 1_700_000_000 }, ['starts_at']],
        ['bad url', { kind: 'activity', name: 'X', banner_url: 'ftp://x.example/a.png' }, ['banner_url']],
        ['array body', [{ kind: 'activity', name: 'X' }], ['body']],
      ];
      for (const [label, body, fields] of cases) expectInvalid(await send(body), label, ...fields);
      const malformed = await t.post<Program>(programsUrl(), {
        token: owner.token,
        payload: MALFORMED_JSON,
        contentType: 'application/json',
      });
      expectError(malformed, 400, 'BAD_REQUEST');
      expectInvalid(
        await t.post<Program>('/editions/nope/programs', {
          token: owner.token,
          body: { kind: 'activity', name: 'X' },
        }),
        'malformed id',
        'params.edition_id',
      );
    });

    it('answers 404 for an unknown edition and, to an outsider, a draft event', async () => {
      const body = { kind: 'activity', name: 'X' };
      expectError(
        await t.post<Program>(programsUrl(UNKNOWN_ID), { token: owner.token, body }),
        404,
        'NOT_FOUND',
      );
      const hidden = await freshEdition({ isDraftEvent: true });
      expectError(
        await t.post<Program>(programsUrl(hidden.id), { token: outsider.token, body }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.post<Program>(programsUrl(edition.id), { token: outsider.token, body }),
        403,
        'FORBIDDEN',
      );
    });
  });

  describe('GET /editions/{edition_id}/programs', () => {
    it('orders by starts_at (unscheduled last), then created_at, page by page, to anyone', async () => {
      const host = await freshEdition();
      const late = await createProgram({ starts_at: at(30) }, host.id);
      const unscheduled = await createProgram({}, host.id);
      const early = await createProgram({ starts_at: at(2), ends_at: at(3) }, host.id);
      const sameStart = await createProgram({ starts_at: at(2) }, host.id);
      const alsoUnscheduled = await createProgram({ kind: 'checkpoint' }, host.id);
      const expected = [early, sameStart, late, unscheduled, alsoUnscheduled];
      assert.deepEqual(await listPrograms(host.id), expected);

      const page1 = await t.get<Program[]>(`${programsUrl(host.id)}?limit=2`);
      assert.deepEqual(expectOk(page1, 200, 'events'), [early, sameStart]);
      assert.deepEqual(page1.body.pagination, {
        page: 1,
        limit: 2,
        total: 5,
        has_next: true,
        has_prev: false,
        next_page: 2,
        prev_page: null,
      });
      const page3 = await t.get<Program[]>(`${programsUrl(host.id)}?page=3&limit=2`, {
        token: outsider.token,
      });
      assert.deepEqual(expectOk(page3), [alsoUnscheduled]);
      assert.equal(page3.body.pagination.has_next, false);
      assert.equal(page3.body.pagination.prev_page, 2);
      const past = await t.get<Program[]>(`${programsUrl(host.id)}?page=9`);
      assert.deepEqual(expectOk(past), []);
      assert.equal(past.body.pagination.total, 5);
      assert.equal((await t.get<Program[]>(programsUrl(host.id))).body.pagination.limit, 20);

      assert.deepEqual(await listPrograms(host.id, undefined, 'kind=checkpoint'), [alsoUnscheduled]);
      assert.deepEqual(idsOf(await listPrograms(host.id, undefined, 'kind=activity&limit=10')), [
        early.id,
        sameStart.id,
        late.id,
        unscheduled.id,
      ]);
    });

    it('lists staff_only programs to members only', async () => {
      const host = await freshEdition();
      const open = await createProgram({ starts_at: at(1) }, host.id);
      const backstage = await createProgram({ starts_at: at(2), staff_only: true }, host.id);
      for (const token of [undefined, outsider.token]) {
        const response = await t.get<Program[]>(programsUrl(host.id), { token });
        assert.deepEqual(expectOk(response), [open]);
        assert.equal(response.body.pagination.total, 1);
      }
      for (const member of [owner, admin, staff]) {
        assert.deepEqual(await listPrograms(host.id, member.token), [open, backstage]);
      }
    });

    it("hides a draft edition's programs from the public (404) and shows them to members", async () => {
      for (const options of [{ isDraft: true }, { isDraftEvent: true }]) {
        const host = await freshEdition(options);
        const created = await createProgram({}, host.id);
        expectError(await t.get<Program[]>(programsUrl(host.id)), 404, 'NOT_FOUND');
        expectError(
          await t.get<Program[]>(programsUrl(host.id), { token: outsider.token }),
          404,
          'NOT_FOUND',
        );
        assert.deepEqual(await listPrograms(host.id, staff.token), [created]);
      }
    });

    it('refuses bad queries and ids (400), unknown editions (404) and bad tokens (401)', async () => {
      const url = programsUrl();
      expectInvalid(await t.get(`${url}?page=0`), 'page=0', 'query.page');
      expectInvalid(await t.get(`${url}?limit=0`), 'limit=0', 'query.limit');
      expectInvalid(await t.get(`${url}?limit=101`), 'limit=101', 'query.limit');
      expectInvalid(await t.get(`${url}?page=x`), 'page=x', 'query.page');
      expectInvalid(await t.get(`${url}?kind=talk`), 'kind=talk', 'query.kind');
      expectInvalid(await t.get(`${url}?staff_only=true`), 'unknown param', 'query.staff_only');
      expectInvalid(await t.get<Program[]>('/editions/nope/programs'), 'malformed id', 'params.edition_id');
      expectError(await t.get<Program[]>(programsUrl(UNKNOWN_ID)), 404, 'NOT_FOUND');
      expectError(await t.get(url, { token: 'not-a-jwt' }), 401, 'UNAUTHORIZED');
    });
  });

  describe('GET /programs/{program_id}', () => {
    it('reads a program publicly, and staff_only or draft ones for members only', async () => {
      assert.deepEqual(expectOk(await t.get<Program>(`/programs/${program.id}`), 200, 'events'), program);
      const backstage = await createProgram({ staff_only: true });
      const draft = await createProgram({}, (await freshEdition({ isDraft: true })).id);
      for (const hidden of [backstage, draft]) {
        for (const token of [undefined, outsider.token]) {
          const response = await t.get<Program>(`/programs/${hidden.id}`, { token });
          assert.deepEqual(
            { ...expectError(response, 404, 'NOT_FOUND'), debug: undefined },
            {
              ...expectError(await t.get<Program>(`/programs/${UNKNOWN_ID}`), 404, 'NOT_FOUND'),
              debug: undefined,
            },
            'hidden answers like unknown',
          );
        }
        assert.deepEqual(
          expectOk(await t.get<Program>(`/programs/${hidden.id}`, { token: staff.token })),
          hidden,
        );
      }
    });

    it('refuses a malformed id (400), an unknown id (404) and a bad token (401)', async () => {
      expectInvalid(await t.get<Program>('/programs/123'), 'malformed', 'params.program_id');
      expectError(await t.get<Program>(`/programs/${UNKNOWN_ID}`), 404, 'NOT_FOUND');
      expectError(await t.get<Program>(`/programs/${program.id}`, { token: 'x.y.z' }), 401, 'UNAUTHORIZED');
    });
  });

  describe('PATCH /programs/{program_id}', () => {
    it('updates some fields, clears nullable ones, and the change is visible', async () => {
      const target = await createProgram({ description: 'Old', location: 'Room 1', starts_at: at(5) });
      const response = await t.patch<Program>(`/programs/${target.id}`, {
        token: admin.token,
        body: { name: 'Renamed', description: null, price: 900, staff_only: true, kind: 'checkpoint' },
      });
      const updated = expectOk(response, 200, 'events');
      assert.deepEqual(Object.keys(updated).sort(), PROGRAM_KEYS);
      assert.deepEqual(
        { ...updated, updated_at: undefined },
        {
          ...target,
          name: 'Renamed',
          description: null,
          price: 900,
          staff_only: true,
          kind: 'checkpoint',
          updated_at: undefined,
        },
      );
      assert.ok(updated.updated_at >= target.updated_at);
      assert.deepEqual(
        expectOk(await t.get<Program>(`/programs/${target.id}`, { token: staff.token })),
        updated,
      );
      expectError(await t.get<Program>(`/programs/${target.id}`), 404, 'NOT_FOUND');
    });

    it('checks the merged times against the edition', async () => {
      const target = await createProgram({ starts_at: at(10), ends_at: at(12) });
      const patch = (body: Record<string, unknown>) =>
        t.patch<Program>(`/programs/${target.id}`, { token: owner.token, body });
      expectInvalid(await patch({ ends_at: at(9) }), 'end before kept start', 'ends_at');
      expectInvalid(await patch({ starts_at: at(12) }), 'start at kept end', 'ends_at');
      expectInvalid(await patch({ starts_at: at(-1) }), 'start outside', 'starts_at');
      expectInvalid(await patch({ ends_at: at(49) }), 'end outside', 'ends_at');
      assert.equal(expectOk(await patch({ ends_at: null })).ends_at, null);
      const moved = expectOk(await patch({ starts_at: at(40), ends_at: at(48) }));
      assert.deepEqual([moved.starts_at, moved.ends_at], [at(40), at(48)]);
      assert.equal(expectOk(await patch({ starts_at: null })).starts_at, null);
    });

    it('refuses bad input with 400 naming each field', async () => {
      const url = `/programs/${program.id}`;
      const send = (body: unknown) => t.patch(url, { token: owner.token, body });
      const cases: Array<[string, unknown, string[]]> = [
        ['empty body', {}, ['body']],
        ['unknown field', { edition_id: UNKNOWN_ID }, ['edition_id']],
        ['null name', { name: null }, ['name']],
        ['null kind', { kind: null }, ['kind']],
        ['string level', { min_access_level: '1' }, ['min_access_level']],
        ['negative price', { price: -5 }, ['price']],
        ['huge level', { min_access_level: 2 ** 31 }, ['min_access_level']],
        ['null staff_only', { staff_only: null }, ['staff_only']],
        ['bad time', { ends_at: 'tomorrow' }, ['ends_at']],
      ];
      for (const [label, body, fields] of cases) expectInvalid(await send(body), label, ...fields);
      expectError(
        await t.patch(url, { token: owner.token, payload: '{"name":', contentType: 'application/json' }),
        400,
        'BAD_REQUEST',
      );
      expectInvalid(
        await t.patch<Program>('/programs/nope', { token: owner.token, body: { name: 'X' } }),
        'malformed id',
        'params.program_id',
      );
      assert.deepEqual(expectOk(await t.get(url)), program, 'unchanged');
    });

    it('answers 404 for an unknown program', async () => {
      const response = await t.patch<Program>(`/programs/${UNKNOWN_ID}`, {
        token: owner.token,
        body: { name: 'X' },
      });
      expectError(response, 404, 'NOT_FOUND');
    });
  });

  describe('DELETE /programs/{program_id}', () => {
    it('soft-deletes: answers the deleted program, which vanishes from every read', async () => {
      const host = await freshEdition();
      const kept = await createProgram({ starts_at: at(1) }, host.id);
      const doomed = await createProgram({ starts_at: at(2) }, host.id);
      const response = await t.delete<Program>(`/programs/${doomed.id}`, { token: admin.token });
      const deleted = expectOk(response, 200, 'events');
      assert.match(deleted.deleted_at ?? '', ISO);
      assert.deepEqual(
        { ...deleted, deleted_at: null, updated_at: undefined },
        {
          ...doomed,
          updated_at: undefined,
        },
      );
      for (const token of [undefined, owner.token]) {
        expectError(await t.get<Program>(`/programs/${doomed.id}`, { token }), 404, 'NOT_FOUND');
        assert.deepEqual(await listPrograms(host.id, token), [kept]);
      }
      expectError(
        await t.delete<Program>(`/programs/${doomed.id}`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.patch<Program>(`/programs/${doomed.id}`, { token: owner.token, body: { name: 'Back' } }),
        404,
        'NOT_FOUND',
      );
    });

    it('refuses a malformed id (400), a body (400), an unknown id (404)', async () => {
      expectInvalid(
        await t.delete<Program>('/programs/nope', { token: owner.token }),
        'malformed',
        'params.program_id',
      );
      expectInvalid(
        await t.delete<Program>(`/programs/${program.id}`, { token: owner.token, body: { force: true } }),
        'body',
        'body',
      );
      expectError(
        await t.delete<Program>(`/programs/${UNKNOWN_ID}`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectOk(await t.get<Program>(`/programs/${program.id}`));
    });
  });
});
