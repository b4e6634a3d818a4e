/**
 * Certification templates (docs/reference/events.md): creation with the `design_data` size rule, the public
 * list and reads, partial updates (the kind rule while linked) and soft deletes; bad input (never
 * a 5xx), authentication and roles, unknown ids, draft visibility. Links to programs:
 * certifications-links.test.ts.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import { expectInvalid, expectMalformedJson, ISO, idsOf, UNKNOWN_ID, useTeam } from '../events.fixtures.ts';
import type { Program } from '../programs/programs.schemas.ts';
import { certificationFixtures } from './certification-templates.fixtures.ts';
import type { CertificationTemplate, LinkedProgram } from './certification-templates.schemas.ts';

const TEMPLATE_KEYS = [
  'created_at',
  'deleted_at',
  'description',
  'design_data',
  'edition_id',
  'id',
  'kind',
  'name',
  'updated_at',
];
const MAX_DESIGN_BYTES = 256 * 1024;
/** A design whose JSON text is exactly `bytes` bytes of UTF-8 (`{"s":"…"}` is 8 bytes plus the text). */
const designOf = (bytes: number, char = 'x') => ({
  s: char.repeat((bytes - 8) / Buffer.byteLength(char)),
});

describe('certification templates', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  let edition: Edition;
  /** A program_attendance template of `edition`. */
  let template: CertificationTemplate;
  let program: Program;
  const {
    freshEdition,
    templatesUrl,
    templateUrl,
    createTemplate,
    createProgram,
    link,
    unlink,
    setupCertification,
  } = certificationFixtures(
    () => team,
    () => ({ edition, template }),
  );

  before(async () => {
    ({ edition, template, program } = await setupCertification());
  });

  checkAuth(
    'protected certification routes',
    () => t,
    () => [
      {
        method: 'POST',
        url: templatesUrl(),
        body: { kind: 'edition_attendance', name: 'Nope' },
        forbidden: staff,
      },
      { method: 'PATCH', url: templateUrl(), body: { name: 'Nope' }, forbidden: staff },
      { method: 'DELETE', url: templateUrl(), forbidden: staff },
    ],
  );

  describe('POST /editions/{edition_id}/certifications/templates', () => {
    it('creates a template with every field, readable afterwards', async () => {
      const design = {
        width: 842,
        elements: [{ type: 'text', value: 'Olá {{ name }}', x: 1.5 }],
        dark: true,
      };
      const body = {
        kind: 'edition_attendance',
        name: 'Attended',
        description: 'For all',
        design_data: design,
      };
      const response = await t.post<CertificationTemplate>(templatesUrl(), { token: admin.token, body });
      const created = expectOk(response, 201, 'events');
      assert.equal(response.body.message, 'Created');
      assert.deepEqual(Object.keys(created).sort(), TEMPLATE_KEYS);
      assert.deepEqual(
        { ...created, id: undefined, created_at: undefined, updated_at: undefined },
        {
          ...body,
          edition_id: edition.id,
          deleted_at: null,
          id: undefined,
          created_at: undefined,
          updated_at: undefined,
        },
      );
      assert.match(created.created_at, ISO);
      assert.deepEqual(expectOk(await t.get<CertificationTemplate>(templateUrl(created.id))), created);
    });

    it('defaults design_data to {} and description to null', async () => {
      const created = await createTemplate({ name: 'Bare' });
      assert.deepEqual(created.design_data, {});
      assert.equal(created.description, null);
      assert.equal(created.kind, 'program_attendance');
    });

    it('takes design_data up to 256 KiB of JSON (UTF-8 bytes) and refuses more', async () => {
      const send = (design_data: unknown) =>
        t.post<CertificationTemplate>(templatesUrl(), {
          token: owner.token,
          body: { kind: 'edition_attendance', name: 'Big', design_data },
        });
      const fits = expectOk(await send(designOf(MAX_DESIGN_BYTES)), 201);
      assert.equal(String(fits.design_data.s).length, MAX_DESIGN_BYTES - 8);
      expectInvalid(await send(designOf(MAX_DESIGN_BYTES + 1)), 'one byte over', 'design_data');
      // Two bytes per character: fewer than 256 Ki characters, more than 256 KiB.
      expectInvalid(await send(designOf(MAX_DESIGN_BYTES + 2, 'é')), 'multi-byte', 'design_data');
      expectInvalid(await send(designOf(900 * 1024)), 'near the body limit', 'design_data');
    });

    it('refuses bad input with 400 naming each field', async () => {
      const send = (body: unknown) => t.post(templatesUrl(), { token: owner.token, body });
      const cases: Array<[string, unknown, string[]]> = [
        ['missing fields', {}, ['kind', 'name']],
        ['unknown kind', { kind: 'attendance', name: 'X' }, ['kind']],
        ['unknown field', { kind: 'edition_attendance', name: 'X', program_id: UNKNOWN_ID }, ['program_id']],
        ['empty name', { kind: 'edition_attendance', name: '' }, ['name']],
        ['number name', { kind: 'edition_attendance', name: 5 }, ['name']],
        ['array design', { kind: 'edition_attendance', name: 'X', design_data: [1, 2] }, ['design_data']],
        ['string design', { kind: 'edition_attendance', name: 'X', design_data: '{}' }, ['design_data']],
        ['null design', { kind: 'edition_attendance', name: 'X', design_data: null }, ['design_data']],
        [
          'NUL inside design',
          { kind: 'edition_attendance', name: 'X', design_data: { a: '\u0000' } },
          ['design_data.a'],
        ],
        [
          'huge number in design',
          { kind: 'edition_attendance', name: 'X', design_data: { w: 2 ** 60 } },
          ['design_data.w'],
        ],
        ['array body', [], ['body']],
      ];
      for (const [label, body, fields] of cases) expectInvalid(await send(body), label, ...fields);
      await expectMalformedJson(t, templatesUrl(), owner);
      const body = { kind: 'edition_attendance', name: 'X' };
      expectInvalid(
        await t.post<CertificationTemplate>('/editions/nope/certifications/templates', {
          token: owner.token,
          body,
        }),
        'malformed id',
        'params.edition_id',
      );
      expectError(await t.post(templatesUrl(UNKNOWN_ID), { token: owner.token, body }), 404, 'NOT_FOUND');
      expectError(await t.post(templatesUrl(), { token: outsider.token, body }), 403, 'FORBIDDEN');
    });
  });

  describe('GET /editions/{edition_id}/certifications/templates', () => {
    it('lists live templates oldest first, page by page, to anyone', async () => {
      const host = await freshEdition();
      const first = await createTemplate({ name: 'First' }, host.id);
      const doomed = await createTemplate({ name: 'Doomed' }, host.id);
      const second = await createTemplate({ kind: 'edition_attendance', name: 'Second' }, host.id);
      expectOk(await t.delete(templateUrl(doomed.id), { token: owner.token }));
      assert.deepEqual(expectOk(await t.get(templatesUrl(host.id)), 200, 'events'), [first, second]);
      const page2 = await t.get(`${templatesUrl(host.id)}?page=2&limit=1`, { token: outsider.token });
      assert.deepEqual(expectOk(page2), [second]);
      assert.deepEqual(page2.body.pagination, {
        page: 2,
        limit: 1,
        total: 2,
        has_next: false,
        has_prev: true,
        next_page: null,
        prev_page: 1,
      });
    });

    it("hides a draft edition's templates from the public (404) and shows them to members", async () => {
      const host = await freshEdition({ isDraft: true });
      const created = await createTemplate({}, host.id);
      expectError(await t.get(templatesUrl(host.id)), 404, 'NOT_FOUND');
      expectError(await t.get(templatesUrl(host.id), { token: outsider.token }), 404, 'NOT_FOUND');
      assert.deepEqual(expectOk(await t.get(templatesUrl(host.id), { token: staff.token })), [created]);
      expectError(await t.get(templateUrl(created.id)), 404, 'NOT_FOUND');
      assert.deepEqual(expectOk(await t.get(templateUrl(created.id), { token: staff.token })), created);
    });

    it('refuses bad queries and ids (400), unknown editions (404)', async () => {
      expectInvalid(await t.get(`${templatesUrl()}?page=0`), 'page=0', 'query.page');
      expectInvalid(await t.get(`${templatesUrl()}?limit=101`), 'limit=101', 'query.limit');
      expectInvalid(await t.get(`${templatesUrl()}?kind=edition_attendance`), 'unknown param', 'query.kind');
      expectInvalid(
        await t.get<CertificationTemplate[]>('/editions/1/certifications/templates'),
        'malformed id',
        'params.edition_id',
      );
      expectError(await t.get(templatesUrl(UNKNOWN_ID)), 404, 'NOT_FOUND');
      expectError(await t.get(templatesUrl(), { token: 'bad' }), 401, 'UNAUTHORIZED');
    });
  });

  describe('GET, PATCH, DELETE /certifications/templates/{template_id}', () => {
    it('reads a template publicly; malformed (400) and unknown (404) ids', async () => {
      assert.deepEqual(expectOk(await t.get(templateUrl()), 200, 'events'), template);
      expectInvalid(
        await t.get<CertificationTemplate>('/certifications/templates/nope'),
        'malformed',
        'params.template_id',
      );
      expectError(await t.get(templateUrl(UNKNOWN_ID)), 404, 'NOT_FOUND');
    });

    it('updates some fields, replaces design_data whole, and the change is visible', async () => {
      const target = await createTemplate({ description: 'Old', design_data: { a: 1, b: 2 } });
      const response = await t.patch<CertificationTemplate>(templateUrl(target.id), {
        token: admin.token,
        body: { name: 'New', description: null, design_data: { c: 3 } },
      });
      const updated = expectOk(response, 200, 'events');
      assert.deepEqual(
        { ...updated, updated_at: undefined },
        { ...target, name: 'New', description: null, design_data: { c: 3 }, updated_at: undefined },
      );
      assert.deepEqual(expectOk(await t.get(templateUrl(target.id))), updated);
    });

    it('refuses leaving program_attendance while linked (409), allows it once unlinked', async () => {
      const target = await createTemplate();
      const linked = await createProgram();
      expectOk(await link(target.id, linked.id), 201);
      const toEdition = () =>
        t.patch<CertificationTemplate>(templateUrl(target.id), {
          token: owner.token,
          body: { kind: 'edition_attendance' },
        });
      const error = expectError(await toEdition(), 409, 'CONFLICT');
      assert.equal(error.meta?.linked_programs, 1);
      assert.equal(
        expectOk(await t.get<CertificationTemplate>(templateUrl(target.id))).kind,
        'program_attendance',
      );
      expectOk(await unlink(target.id, linked.id));
      assert.equal(expectOk(await toEdition()).kind, 'edition_attendance');
      const back = await t.patch<CertificationTemplate>(templateUrl(target.id), {
        token: owner.token,
        body: { kind: 'program_attendance' },
      });
      assert.equal(expectOk(back).kind, 'program_attendance');
    });

    it('refuses bad updates with 400 naming each field, and unknown ids (404)', async () => {
      const send = (body: unknown) => t.patch(templateUrl(), { token: owner.token, body });
      const cases: Array<[string, unknown, string[]]> = [
        ['empty body', {}, ['body']],
        ['unknown field', { edition_id: UNKNOWN_ID }, ['edition_id']],
        ['unknown kind', { kind: 'other' }, ['kind']],
        ['null name', { name: null }, ['name']],
        ['array design', { design_data: [] }, ['design_data']],
        ['oversized design', { design_data: designOf(MAX_DESIGN_BYTES + 1) }, ['design_data']],
      ];
      for (const [label, body, fields] of cases) expectInvalid(await send(body), label, ...fields);
      expectError(
        await t.patch(templateUrl(), { token: owner.token, payload: '{', contentType: 'application/json' }),
        400,
        'BAD_REQUEST',
      );
      expectInvalid(
        await t.patch<CertificationTemplate>('/certifications/templates/x', {
          token: owner.token,
          body: { name: 'X' },
        }),
        'malformed id',
        'params.template_id',
      );
      expectError(
        await t.patch(templateUrl(UNKNOWN_ID), { token: owner.token, body: { name: 'X' } }),
        404,
        'NOT_FOUND',
      );
      assert.deepEqual(expectOk(await t.get(templateUrl())), template, 'unchanged');
    });

    it('soft-deletes: answers the deleted template, which vanishes from every read', async () => {
      const doomed = await createTemplate();
      const deleted = expectOk(
        await t.delete<CertificationTemplate>(templateUrl(doomed.id), { token: admin.token }),
        200,
        'events',
      );
      assert.match(deleted.deleted_at ?? '', ISO);
      assert.deepEqual(
        { ...deleted, deleted_at: null, updated_at: undefined },
        { ...doomed, updated_at: undefined },
      );
      expectError(await t.get(templateUrl(doomed.id), { token: owner.token }), 404, 'NOT_FOUND');
      expectError(await t.get<LinkedProgram[]>(`${templateUrl(doomed.id)}/links`), 404, 'NOT_FOUND');
      assert.ok(!idsOf(expectOk(await t.get(`${templatesUrl()}?limit=100`))).includes(doomed.id));
      expectError(await t.delete(templateUrl(doomed.id), { token: owner.token }), 404, 'NOT_FOUND');
      expectError(await link(doomed.id, program.id), 404, 'NOT_FOUND');
      expectInvalid(
        await t.delete<CertificationTemplate>('/certifications/templates/x', { token: owner.token }),
        'malformed',
        'params.template_id',
      );
    });
  });
});
