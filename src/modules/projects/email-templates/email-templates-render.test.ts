/**
 * Rendering of e-mail templates: each default renders with its sample values, contains its
 * variables, and has a text alternative (the rendered HTML of each default is written to
 * docs/emails/<kind>.html for readers); the text derivation; `renderEmail` for other modules.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { expectOk } from '../../../../test/assertions.ts';
import { AppError } from '../../../kernel/http/errors.ts';
import { htmlToText, renderTemplate, validateTemplate } from '../../../kernel/mail-templates/liquid.ts';
import { renderEmail } from '../index.ts';
import { DEFAULT_TEMPLATES, sampleValues } from './email-templates.defaults.ts';
import { useTemplateTeam } from './email-templates.fixtures.ts';
import type { EmailTemplate } from './email-templates.schemas.ts';
import { EMAIL_TEMPLATE_KINDS } from './email-templates.table.ts';

const DOCS = new URL('../../../../docs/emails/', import.meta.url);

describe('default e-mail templates', () => {
  for (const kind of EMAIL_TEMPLATE_KINDS) {
    it(`${kind}: validates, renders its sample values accessibly, with a text alternative (docs/emails/${kind}.html)`, async () => {
      const template = DEFAULT_TEMPLATES[kind];
      await validateTemplate(template, template);
      const samples = sampleValues(kind);
      const rendered = await renderTemplate(template, template, samples);
      const url = String(samples.action_url);
      const escapedUrl = url.replaceAll('&', '&amp;');
      assert.ok(rendered.html.includes(`href="${escapedUrl}"`), 'the button links action_url');
      for (const variable of template.variables) {
        assert.ok(
          rendered.html.includes(String(variable.example).replaceAll('&', '&amp;')),
          `the HTML shows ${variable.name}`,
        );
      }
      assert.doesNotMatch(rendered.html, /\{\{|\{%/, 'no Liquid left');
      assert.match(rendered.html, /<html lang="en"/);
      assert.match(rendered.html, /role="presentation"/);
      assert.doesNotMatch(rendered.html, /<img|<link|url\(/i, 'no external resources');
      assert.match(rendered.html, /<h1/);
      assert.ok(rendered.subject.length > 0 && !rendered.subject.includes('\n'));
      assert.ok(rendered.subject.includes(String(samples.project_name)));
      assert.ok(rendered.text.length > 0);
      assert.ok(rendered.text.includes(url), 'the text alternative carries the URL');
      assert.doesNotMatch(rendered.text, /<|&amp;/);
      assert.ok(
        !rendered.text.includes('One click') && !rendered.text.includes('requested for'),
        'no preheader',
      );
      if (kind === 'invite') assert.ok(rendered.text.includes(String(samples.inviter_email)));
      mkdirSync(DOCS, { recursive: true });
      writeFileSync(new URL(`${kind}.html`, DOCS), rendered.html);
    });
  }
});

describe('htmlToText', () => {
  it('keeps links as "text (url)", drops head, style, script and preheader, decodes entities', () => {
    const html =
      '<html><head><title>T</title><style>p{}</style></head><body><div data-preheader>hidden</div>' +
      '<h1>Title</h1><p>A &amp; B <a href="https://a.example/?x=1&amp;y=2">open</a></p>' +
      '<script>bad()</script><p><a href="https://b.example">https://b.example</a><br>next&#33;</p></body></html>';
    assert.equal(
      htmlToText(html),
      'Title\n\nA & B open (https://a.example/?x=1&y=2)\n\nhttps://b.example\nnext!',
    );
  });

  it('survives hostile markup: 50,000 nested links and 200,000 stray brackets', () => {
    const text = htmlToText(`${'<a href="x">'.repeat(50_000)}${'<'.repeat(200_000)}`);
    assert.equal(typeof text, 'string');
  });
});

describe('renderEmail', () => {
  const team = useTemplateTeam();

  it('renders the default, then the override, with the project name filled in', async () => {
    const { t, projectId } = team;
    const first = await renderEmail(t.db, 'verify', projectId, {
      action_url: 'https://app.example/v?t=1',
      email: 'ana@example.com',
      expires_in_minutes: 15,
    });
    assert.equal(first.subject, 'Confirm your e-mail address for Rust Conf');
    assert.ok(first.html.includes('https://app.example/v?t=1'));
    assert.ok(first.text.includes('This link expires in 15 minutes.'));
    expectOk(
      await t.put<EmailTemplate>(`/projects/${projectId}/email-templates/verify`, {
        token: team.owner.token,
        body: { subject: '{{ project_name }}!', body: '<a href="{{ action_url }}">{{ email }}</a>' },
      }),
    );
    const second = await renderEmail(t.db, 'verify', projectId, {
      action_url: 'https://app.example/v?t=2',
      email: '<b>ana</b>',
    });
    assert.deepEqual(second, {
      subject: 'Rust Conf!',
      html: '<a href="https://app.example/v?t=2">&lt;b&gt;ana&lt;/b&gt;</a>',
      text: '<b>ana</b> (https://app.example/v?t=2)',
    });
  });

  it('refuses an unknown project, an undeclared variable and a missing action_url', async () => {
    const { t, projectId } = team;
    await assert.rejects(
      renderEmail(t.db, 'reset', '01937a4e-0000-7000-8000-0000000000ff', { action_url: 'https://x' }),
      (error) => error instanceof AppError && error.code === 'NOT_FOUND',
    );
    await assert.rejects(
      renderEmail(t.db, 'reset', projectId, { action_url: 'https://x', password: 'p' }),
      (error) => error instanceof AppError && error.code === 'VALIDATION_ERROR',
    );
    await assert.rejects(renderEmail(t.db, 'reset', projectId, { email: 'a@b.c' }), TypeError);
  });
});
