/**
 * Schemas of e-mail templates (docs/reference/projects.md): the effective template of a kind, the override
 * body, the preview body and its result. One source for validation, handler types and OpenAPI.
 */
import { type Static, Type } from 'typebox';
import { Uuid } from '../../../kernel/http/schemas.ts';
import { DEFAULT_TEMPLATES, sampleValues } from './email-templates.defaults.ts';
import { EMAIL_TEMPLATE_KINDS } from './email-templates.table.ts';

/** 100 KiB, in characters. */
export const MAX_BODY = 102_400;

export const TemplateParams = Type.Object(
  {
    project_id: Uuid(),
    kind: Type.String({
      maxLength: 64,
      description: `the template kind: ${EMAIL_TEMPLATE_KINDS.join(', ')} (any other value is 404)`,
      examples: ['verify'],
    }),
  },
  { additionalProperties: false },
);
export type TemplateParams = Static<typeof TemplateParams>;

export const TemplateVariable = Type.Object({
  name: Type.String(),
  description: Type.String(),
  required: Type.Boolean({ description: 'must appear in the body' }),
  example: Type.Union([Type.String(), Type.Number()], { description: 'the sample value used by previews' }),
});

export const EmailTemplate = Type.Object(
  {
    kind: Type.String({ description: EMAIL_TEMPLATE_KINDS.join(', ') }),
    subject: Type.String({ description: 'Liquid template' }),
    body: Type.String({ description: 'Liquid template of the HTML body' }),
    source: Type.Union([Type.Literal('default'), Type.Literal('override')]),
    variables: Type.Array(TemplateVariable, { description: 'the variables the kind declares' }),
  },
  { title: 'EmailTemplate' },
);
export type EmailTemplate = Static<typeof EmailTemplate>;

const Subject = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'Liquid template, 1..200 characters',
});
const Body = Type.String({
  minLength: 1,
  maxLength: MAX_BODY,
  description: 'Liquid template of the HTML body, 1..102400 characters; must use {{ action_url }}',
});

const OVERRIDE_EXAMPLE = {
  subject: 'Welcome to {{ project_name }}',
  body: '<p>Hello {{ email }},</p><p><a href="{{ action_url }}">Confirm your address</a> within {{ expires_in_minutes }} minutes.</p>',
};

export const PutTemplateBody = Type.Object(
  { subject: Subject, body: Body },
  { additionalProperties: false, examples: [OVERRIDE_EXAMPLE] },
);
export type PutTemplateBody = Static<typeof PutTemplateBody>;

export const PreviewBody = Type.Object(
  {
    subject: Type.Optional(Subject),
    body: Type.Optional(Body),
    variables: Type.Optional(
      Type.Record(
        Type.String({ maxLength: 64 }),
        Type.Union([Type.String({ maxLength: 2048 }), Type.Number()]),
        {
          maxProperties: 16,
          description:
            "values of the kind's declared variables (others are 400); missing ones take the sample values",
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ variables: { email: 'lea@example.com', project_name: 'Rust Conf' } }],
  },
);
export type PreviewBody = Static<typeof PreviewBody>;

export const RenderedEmail = Type.Object(
  {
    subject: Type.String({ description: 'rendered subject, one line, not HTML-escaped' }),
    html: Type.String({ description: 'rendered HTML body, values HTML-escaped' }),
    text: Type.String({ description: 'plain-text alternative derived from the HTML' }),
  },
  { title: 'RenderedEmail' },
);

const verify = DEFAULT_TEMPLATES.verify;
export const TEMPLATE_EXAMPLE = {
  kind: 'verify',
  subject: verify.subject,
  body: '<!DOCTYPE html><html lang="en">… <a href="{{ action_url }}">Confirm e-mail address</a> …</html>',
  source: 'default',
  variables: verify.variables,
};
export const OVERRIDE_TEMPLATE_EXAMPLE = { ...TEMPLATE_EXAMPLE, ...OVERRIDE_EXAMPLE, source: 'override' };
const samples = sampleValues('verify');
export const RENDERED_EXAMPLE = {
  subject: `Confirm your e-mail address for ${samples.project_name}`,
  html: `<!DOCTYPE html><html lang="en">… <a href="${samples.action_url}">Confirm e-mail address</a> …</html>`,
  text: `${samples.project_name}\n\nConfirm your e-mail address\n\n… Confirm e-mail address (${samples.action_url}) …`,
};

export type RenderedEmail = Static<typeof RenderedEmail>;
