/**
 * E-mail templates (docs/reference/projects.md): list, read, override, restore and preview; the override
 * lifecycle; validation of overrides; hostile templates; escaping; bad input (never a 5xx);
 * authentication and roles; unknown projects and kinds.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectFields, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { ApiResponse } from '../../../../test/harness.ts';
import { DEFAULT_TEMPLATES } from './email-templates.defaults.ts';
import { useTemplateTeam } from './email-templates.fixtures.ts';
import { type EmailTemplate, MAX_BODY, type RenderedEmail } from './email-templates.schemas.ts';

const UNKNOWN_ID = '01937a4e-0000-7000-8000-0000000000ff';
const KINDS = ['verify', 'reset', 'invite', 'magic_link'];
const TEMPLATE_KEYS = ['body', 'kind', 'source', 'subject', 'variables'];
const GOOD = {
  subject: 'Hello {{ email }}',
  body: '<p>Hi {{ email }}, <a href="{{ action_url }}">continue</a></p>',
};

describe('e-mail templates', () => {
  const team = useTemplateTeam();
  const url = (kind = 'verify', projectId = team.projectId) =>
    `/projects/${projectId}/email-templates/${kind}`;
  const listUrl = (projectId = team.projectId) => `/projects/${projectId}/email-templates`;
  let owner: typeof team.owner;

  before(() => {
    owner = team.owner;
  });

  checkAuth(
    'e-mail template routes',
    () => team.t,
    () => [
      { method: 'GET', url: listUrl(), forbidden: team.member },
      { method: 'GET', url: url(), forbidden: team.member },
      { method: 'PUT', url: url(), body: GOOD, forbidden: team.member },
      { method: 'DELETE', url: url(), forbidden: team.member },
      { method: 'POST', url: `${url()}/preview`, body: {}, forbidden: team.member },
    ],
  );

  it('hides the project from outsiders (404) on every route', async () => {
    const { t, outsider } = team;
    const token = outsider.token;
    expectError(await t.get<EmailTemplate[]>(listUrl(), { token }), 404, 'NOT_FOUND');
    expectError(await t.get<EmailTemplate>(url(), { token }), 404, 'NOT_FOUND');
    expectError(await t.put<EmailTemplate>(url(), { token, body: GOOD }), 404, 'NOT_FOUND');
    expectError(await t.delete<EmailTemplate>(url(), { token }), 404, 'NOT_FOUND');
    expectError(await t.post<RenderedEmail>(`${url()}/preview`, { token, body: {} }), 404, 'NOT_FOUND');
  });

  it('answers 404 for an unknown project and an unknown kind on every route', async () => {
    const { t } = team;
    const token = owner.token;
    expectError(await t.get<EmailTemplate[]>(listUrl(UNKNOWN_ID), { token }), 404, 'NOT_FOUND');
    for (const kind of ['verify', 'welcome']) {
      const projectId = kind === 'verify' ? UNKNOWN_ID : team.projectId;
      expectError(await t.get<EmailTemplate>(url(kind, projectId), { token }), 404, 'NOT_FOUND');
      expectError(await t.put<EmailTemplate>(url(kind, projectId), { token, body: GOOD }), 404, 'NOT_FOUND');
      expectError(await t.delete<EmailTemplate>(url(kind, projectId), { token }), 404, 'NOT_FOUND');
      expectError(
        await t.post<RenderedEmail>(`${url(kind, projectId)}/preview`, { token, body: {} }),
        404,
        'NOT_FOUND',
      );
    }
  });

  it('refuses a malformed project id naming params.project_id', async () => {
    const { t } = team;
    expectFields(await t.get<EmailTemplate[]>(listUrl('nope'), { token: owner.token }), 'params.project_id');
    expectFields(
      await t.get<EmailTemplate>(url('verify', 'nope'), { token: owner.token }),
      'params.project_id',
    );
    expectFields(
      await t.put<EmailTemplate>(url('verify', 'nope'), { token: owner.token, body: GOOD }),
      'params.project_id',
    );
    expectFields(
      await t.delete<EmailTemplate>(url('verify', 'nope'), { token: owner.token }),
      'params.project_id',
    );
    expectFields(
      await t.post<RenderedEmail>(`${url('verify', 'nope')}/preview`, { token: owner.token, body: {} }),
      'params.project_id',
    );
  });

  describe('GET (list and read)', () => {
    it('lists the four defaults with their variables, paginated', async () => {
      const response = await team.t.get<EmailTemplate[]>(listUrl(), { token: team.admin.token });
      const data = expectOk(response, 200, 'projects');
      assert.deepEqual(
        data.map((item: { kind: string }) => item.kind),
        KINDS,
      );
      for (const item of data) {
        assert.deepEqual(Object.keys(item).sort(), TEMPLATE_KEYS);
        assert.equal(item.source, 'default');
        const names = item.variables.map((v: { name: string }) => v.name);
        assert.ok(names.includes('action_url'));
        assert.equal(names.includes('inviter_email'), item.kind === 'invite');
      }
      assert.equal(response.body.pagination.total, 4);
      const second = await team.t.get<EmailTemplate[]>(`${listUrl()}?page=2&limit=3`, { token: owner.token });
      assert.deepEqual(
        expectOk(second).map((item: { kind: string }) => item.kind),
        ['magic_link'],
      );
      assert.equal(second.body.pagination.has_prev, true);
    });

    it('refuses bad paging and unknown query parameters', async () => {
      expectFields(
        await team.t.get<EmailTemplate[]>(`${listUrl()}?limit=0`, { token: owner.token }),
        'query.limit',
      );
      expectFields(
        await team.t.get<EmailTemplate[]>(`${listUrl()}?page=x`, { token: owner.token }),
        'query.page',
      );
      expectError(
        await team.t.get<EmailTemplate[]>(`${listUrl()}?kind=verify`, { token: owner.token }),
        400,
        'VALIDATION_ERROR',
      );
      expectError(
        await team.t.get<EmailTemplate>(`${url()}?x=1`, { token: owner.token }),
        400,
        'VALIDATION_ERROR',
      );
    });

    it('reads the effective template of each kind (docs/reference/projects.md)', async () => {
      for (const kind of KINDS) {
        const data = expectOk(
          await team.t.get<EmailTemplate>(url(kind), { token: owner.token }),
          200,
          'projects',
        );
        assert.equal(data.kind, kind);
        assert.equal(data.source, 'default');
        assert.equal(data.body, DEFAULT_TEMPLATES[kind as 'verify'].body);
        assert.equal(data.subject, DEFAULT_TEMPLATES[kind as 'verify'].subject);
      }
    });
  });

  describe('override lifecycle', () => {
    it('PUT stores an override, GET shows it, DELETE restores the default, DELETE again is a no-op', async () => {
      const { t, admin } = team;
      const put = expectOk(
        await t.put<EmailTemplate>(url('reset'), { token: admin.token, body: GOOD }),
        200,
        'projects',
      );
      assert.deepEqual(
        { ...put, variables: undefined },
        { kind: 'reset', ...GOOD, source: 'override', variables: undefined },
      );
      const read = expectOk(await t.get<EmailTemplate>(url('reset'), { token: owner.token }));
      assert.equal(read.source, 'override');
      assert.equal(read.body, GOOD.body);
      const list = expectOk(await t.get<EmailTemplate[]>(listUrl(), { token: owner.token }));
      assert.deepEqual(
        list.map((item: { source: string }) => item.source),
        ['default', 'override', 'default', 'default'],
      );
      const replaced = expectOk(
        await t.put<EmailTemplate>(url('reset'), { token: owner.token, body: { ...GOOD, subject: 'New' } }),
      );
      assert.equal(replaced.subject, 'New');
      const deleted = expectOk(
        await t.delete<EmailTemplate>(url('reset'), { token: admin.token }),
        200,
        'projects',
      );
      assert.equal(deleted.source, 'default');
      assert.equal(deleted.body, DEFAULT_TEMPLATES.reset.body);
      assert.equal(
        expectOk(await t.get<EmailTemplate>(url('reset'), { token: owner.token })).source,
        'default',
      );
      const again = expectOk(
        await t.delete<EmailTemplate>(url('reset'), { token: admin.token }),
        200,
        'projects',
      );
      assert.equal(again.source, 'default');
    });
  });

  describe('PUT validation', () => {
    const put = (body: unknown) => team.t.put<EmailTemplate>(url('invite'), { token: owner.token, body });
    const fieldMessage = (response: ApiResponse<unknown>, field: string) =>
      (response.body.error?.fields ?? []).find((entry) => entry.field === field)?.message ?? '';

    it('refuses malformed JSON, unknown fields, wrong types, missing fields and sizes', async () => {
      const malformed = await team.t.put<EmailTemplate>(url(), {
        token: owner.token,
        payload: '{"subject": ',
        contentType: 'application/json',
      });
      expectError(malformed, 400, 'BAD_REQUEST');
      expectFields(await put({ ...GOOD, extra: 1 }), 'extra');
      expectFields(await put({ ...GOOD, subject: 5 }), 'subject');
      expectFields(await put({ body: GOOD.body }), 'subject');
      expectFields(await put({ ...GOOD, subject: '' }), 'subject');
      expectFields(await put({ ...GOOD, subject: 'x'.repeat(201) }), 'subject');
      expectFields(await put({ ...GOOD, body: `{{ action_url }}${'x'.repeat(MAX_BODY)}` }), 'body');
      expectError(await put([GOOD]), 400, 'VALIDATION_ERROR');
    });

    it('refuses a parse error, an unknown variable and a missing action_url, naming the problem', async () => {
      const parse = await put({ ...GOOD, body: '<p>{{ action_url </p>' });
      expectFields(parse, 'body');
      assert.match(fieldMessage(parse, 'body'), /does not parse/);
      const unknown = await put({ ...GOOD, body: '{{ action_url }} {{ password }}' });
      expectFields(unknown, 'body');
      assert.match(fieldMessage(unknown, 'body'), /unknown variable password/);
      const inSubject = await put({ ...GOOD, subject: 'Hi {{ user.name }}' });
      expectFields(inSubject, 'subject');
      assert.match(fieldMessage(inSubject, 'subject'), /unknown variable user/);
      const missing = await put({ ...GOOD, body: '<p>Hello {{ email }}</p>' });
      expectFields(missing, 'body');
      assert.match(fieldMessage(missing, 'body'), /action_url/);
      const tag = await put({ ...GOOD, body: '{{ action_url }}{% include "secrets" %}' });
      expectFields(tag, 'body');
      assert.match(fieldMessage(tag, 'body'), /include/);
      const filter = await put({ ...GOOD, body: '{{ action_url | shell }}' });
      expectFields(filter, 'body');
      // inviter_email is declared for invite only
      const wrongKind = await team.t.put<EmailTemplate>(url('verify'), {
        token: owner.token,
        body: { ...GOOD, subject: '{{ inviter_email }}' },
      });
      expectFields(wrongKind, 'subject');
      // nothing was stored
      assert.equal(
        expectOk(await team.t.get<EmailTemplate>(url('invite'), { token: owner.token })).source,
        'default',
      );
    });

    // The render limits (kernel/mail-templates/liquid.ts) stop these: they answer at all, and with a
    // field error, instead of hanging the request or exhausting memory.
    it('refuses hostile templates (huge loops, nested loops, huge output)', async () => {
      const hostile = [
        '{% for i in (1..100000000) %}x{% endfor %}{{ action_url }}',
        '{% for a in (1..1000) %}{% for b in (1..1000) %}{% for c in (1..1000) %}{{ action_url }}{% endfor %}{% endfor %}{% endfor %}',
        '{% assign s = action_url %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s }}',
      ];
      for (const body of hostile) expectFields(await put({ subject: 'x', body }), 'body');
    });
  });

  describe('POST preview', () => {
    const preview = (body: unknown, kind = 'invite') =>
      team.t.post<RenderedEmail>(`${url(kind)}/preview`, { token: owner.token, body });

    it('renders the effective template with the sample values', async () => {
      const data = expectOk(await preview({}), 200, 'projects');
      assert.deepEqual(Object.keys(data).sort(), ['html', 'subject', 'text']);
      assert.equal(data.subject, 'marc@example.com invited you to Rust Conf');
      assert.match(data.html, /^<!DOCTYPE html>/);
      assert.ok(data.html.includes('https://app.example.com/actions/01937a4e-8f2b-7c3d?token=abc123'));
      assert.ok(data.text.includes('(https://app.example.com/actions/01937a4e-8f2b-7c3d?token=abc123)'));
      assert.ok(!data.text.includes('<'));
      // The body may be left out entirely (the document marks it optional): the same rendering.
      const bare = expectOk(
        await team.t.post<RenderedEmail>(`${url('invite')}/preview`, { token: owner.token }),
        200,
        'projects',
      );
      assert.deepEqual(bare, data);
    });

    it('renders a given template with given values and escapes HTML in the values', async () => {
      const data = expectOk(
        await preview(
          {
            subject: 'For {{ email }}\nnow',
            body: '<p>{{ email }}</p><a href="{{ action_url }}">go</a> {{ expires_in_minutes | times: 2 }}',
            variables: {
              email: '<script>alert(1)</script>',
              action_url: 'https://x.example/a?b=1&c=2',
              expires_in_minutes: 5,
            },
          },
          'verify',
        ),
      );
      assert.ok(!data.html.includes('<script>'));
      assert.ok(data.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
      assert.ok(data.html.includes('href="https://x.example/a?b=1&amp;c=2"'));
      assert.ok(data.html.endsWith(' 10'));
      assert.equal(data.subject, 'For <script>alert(1)</script> now');
      assert.match(data.text, /<script>alert\(1\)<\/script>\n\ngo \(https:\/\/x\.example\/a\?b=1&c=2\) 10/);
    });

    it('uses the override when there is one', async () => {
      expectOk(await team.t.put<EmailTemplate>(url('magic_link'), { token: owner.token, body: GOOD }));
      const data = expectOk(await preview({ variables: { email: 'lea@example.com' } }, 'magic_link'));
      assert.equal(data.subject, 'Hello lea@example.com');
      assert.equal(
        data.text,
        'Hi lea@example.com, continue (https://app.example.com/actions/01937a4e-8f2b-7c3d?token=abc123)',
      );
      expectOk(await team.t.delete<EmailTemplate>(url('magic_link'), { token: owner.token }));
    });

    it('refuses bad input: unknown variables and fields, wrong types, invalid templates', async () => {
      const malformed = await team.t.post<RenderedEmail>(`${url()}/preview`, {
        token: owner.token,
        payload: '{',
        contentType: 'application/json',
      });
      expectError(malformed, 400, 'BAD_REQUEST');
      expectFields(await preview({ variables: { password: 'x' } }), 'variables.password');
      expectFields(await preview({ variables: { inviter_email: 'x' } }, 'verify'), 'variables.inviter_email');
      expectError(await preview({ variables: { email: true } }), 400, 'VALIDATION_ERROR');
      expectError(await preview({ variables: 'x' }), 400, 'VALIDATION_ERROR');
      expectFields(await preview({ other: 1 }), 'other');
      expectFields(await preview({ subject: 'x'.repeat(201) }), 'subject');
      expectFields(await preview({ body: '{{ email }}' }), 'body');
      expectFields(await preview({ body: '{{ action_url }}{% if %}' }), 'body');
    });

    it('stops a hostile template at preview within the limits', async () => {
      const response = await preview({
        body: '{% for a in (1..1000) %}{% for b in (1..1000) %}{% for c in (1..1000) %}{{ action_url }}{% endfor %}{% endfor %}{% endfor %}',
      });
      expectFields(response, 'body');
      assert.match(response.body.error?.fields?.[0]?.message ?? '', /limit/);
    });
  });
});
