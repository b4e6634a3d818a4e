/**
 * Links of certification templates to programs (docs/reference/events.md): linking (the kind, edition and
 * liveness rules, duplicates), unlinking, the public list of links (deleted programs never,
 * `staff_only` ones to members only, drafts 404 to the public); bad input (never a 5xx),
 * authentication and roles, unknown ids. Templates themselves: certifications.test.ts.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import { at, expectInvalid, ISO, MALFORMED_JSON, UNKNOWN_ID, useTeam } from '../events.fixtures.ts';
import type { Program } from '../programs/programs.schemas.ts';
import { certificationFixtures } from './certification-templates.fixtures.ts';
import type { CertificationTemplate, LinkedProgram } from './certification-templates.schemas.ts';

describe('certification template links', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  let edition: Edition;
  /** A program_attendance template of `edition`. */
  let template: CertificationTemplate;
  let program: Program;
  const { freshEdition, templateUrl, createTemplate, createProgram, link, unlink, setupCertification } =
    certificationFixtures(
      () => team,
      () => ({ edition, template }),
    );
  const links = async (templateId: string, token?: string, query = 'limit=100') =>
    expectOk(
      await t.get<LinkedProgram[]>(`${templateUrl(templateId)}/links?${query}`, { token }),
      200,
      'events',
    );

  before(async () => {
    ({ edition, template, program } = await setupCertification());
  });

  checkAuth(
    'protected link routes',
    () => t,
    () => [
      { method: 'POST', url: `${templateUrl()}/link`, body: { program_id: program.id }, forbidden: staff },
      { method: 'DELETE', url: `${templateUrl()}/link`, body: { program_id: program.id }, forbidden: staff },
    ],
  );

  describe('links', () => {
    it('links a program (201), refuses a second link (409), lists and unlinks it', async () => {
      const target = await createTemplate();
      const first = await createProgram();
      const second = await createProgram(edition.id, { starts_at: at(2) });
      const response = await link(target.id, first.id, admin);
      const created = expectOk(response, 201, 'events');
      assert.deepEqual(Object.keys(created).sort(), ['created_at', 'program_id', 'template_id']);
      assert.deepEqual(
        { ...created, created_at: undefined },
        {
          template_id: target.id,
          program_id: first.id,
          created_at: undefined,
        },
      );
      assert.match(created.created_at, ISO);
      expectError(await link(target.id, first.id), 409, 'CONFLICT');
      expectOk(await link(target.id, second.id), 201);

      const listed = await links(target.id);
      assert.deepEqual(listed[0], { program_id: first.id, created_at: created.created_at });
      assert.deepEqual(
        listed.map((item: { program_id: string }) => item.program_id),
        [first.id, second.id],
      );
      const page = await t.get<LinkedProgram[]>(`${templateUrl(target.id)}/links?limit=1&page=2`, {
        token: outsider.token,
      });
      assert.deepEqual(
        expectOk(page).map((item: { program_id: string }) => item.program_id),
        [second.id],
      );
      assert.equal(page.body.pagination.total, 2);

      const removed = expectOk(await unlink(target.id, first.id, admin), 200, 'events');
      assert.deepEqual(removed, created);
      expectError(await unlink(target.id, first.id), 404, 'NOT_FOUND');
      assert.deepEqual(
        (await links(target.id)).map((item: { program_id: string }) => item.program_id),
        [second.id],
      );
    });

    it('refuses an edition_attendance template, another edition or a deleted program (400), unknown ones (404)', async () => {
      const editionWide = await createTemplate({ kind: 'edition_attendance' });
      expectError(await link(editionWide.id, program.id), 400, 'BAD_REQUEST');
      const elsewhere = await createProgram((await freshEdition()).id);
      const error = expectError(await link(template.id, elsewhere.id), 400, 'BAD_REQUEST');
      assert.equal(error.fields?.[0]?.field, 'program_id');
      const gone = await createProgram();
      expectOk(await t.delete<Program>(`/programs/${gone.id}`, { token: owner.token }));
      expectError(await link(template.id, gone.id), 400, 'BAD_REQUEST');
      expectError(await link(template.id, UNKNOWN_ID), 404, 'NOT_FOUND');
      expectError(await link(UNKNOWN_ID, program.id), 404, 'NOT_FOUND');
      expectError(await unlink(UNKNOWN_ID, program.id), 404, 'NOT_FOUND');
      expectError(await unlink(template.id, UNKNOWN_ID), 404, 'NOT_FOUND');
      expectError(await link(template.id, program.id, outsider), 403, 'FORBIDDEN');
    });

    it('refuses bad link bodies and ids with 400 naming the field', async () => {
      for (const [method, send] of [
        ['POST', t.post],
        ['DELETE', t.delete],
      ] as const) {
        const url = `${templateUrl()}/link`;
        const cases: Array<[string, unknown, string]> = [
          ['missing program_id', {}, 'program_id'],
          ['malformed program_id', { program_id: 'nope' }, 'program_id'],
          ['number program_id', { program_id: 7 }, 'program_id'],
          ['unknown field', { program_id: program.id, primary: true }, 'primary'],
        ];
        for (const [label, body, field] of cases) {
          expectInvalid(await send(url, { token: owner.token, body }), `${method} ${label}`, field);
        }
        expectError(
          await send(url, { token: owner.token, payload: MALFORMED_JSON, contentType: 'application/json' }),
          400,
          'BAD_REQUEST',
        );
        expectInvalid(
          await send('/certifications/templates/x/link', {
            token: owner.token,
            body: { program_id: program.id },
          }),
          `${method} malformed id`,
          'params.template_id',
        );
      }
    });

    it('lists live programs only, staff_only ones to members only; drafts are 404 to the public', async () => {
      const target = await createTemplate();
      const open = await createProgram();
      const backstage = await createProgram(edition.id, { staff_only: true });
      const doomed = await createProgram();
      for (const linked of [open, backstage, doomed]) expectOk(await link(target.id, linked.id), 201);
      expectOk(await t.delete<Program>(`/programs/${doomed.id}`, { token: owner.token }));
      const ids = (items: Array<{ program_id: string }>) => items.map((item) => item.program_id);
      for (const token of [undefined, outsider.token])
        assert.deepEqual(ids(await links(target.id, token)), [open.id]);
      assert.deepEqual(ids(await links(target.id, staff.token)), [open.id, backstage.id]);
      expectError(await unlink(target.id, doomed.id), 404, 'NOT_FOUND');

      const draft = await freshEdition({ isDraft: true });
      const hidden = await createTemplate({}, draft.id);
      expectOk(await link(hidden.id, (await createProgram(draft.id)).id), 201);
      expectError(await t.get<LinkedProgram[]>(`${templateUrl(hidden.id)}/links`), 404, 'NOT_FOUND');
      assert.equal((await links(hidden.id, staff.token)).length, 1);
    });

    it('refuses bad queries and ids on the list (400) and unknown templates (404)', async () => {
      const url = `${templateUrl()}/links`;
      expectInvalid(await t.get(`${url}?page=0`), 'page=0', 'query.page');
      expectInvalid(await t.get(`${url}?limit=500`), 'limit=500', 'query.limit');
      expectInvalid(await t.get(`${url}?program_id=${program.id}`), 'unknown param', 'query.program_id');
      expectInvalid(
        await t.get<LinkedProgram[]>('/certifications/templates/x/links'),
        'malformed id',
        'params.template_id',
      );
      expectError(await t.get<LinkedProgram[]>(`${templateUrl(UNKNOWN_ID)}/links`), 404, 'NOT_FOUND');
      assert.deepEqual(await links(template.id), []);
    });
  });
});
