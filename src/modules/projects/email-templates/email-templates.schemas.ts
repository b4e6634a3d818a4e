/**
 * Schemas of e-mail templates (docs/reference/projects.md): the effective template of a kind, the override
 * body, the preview body and its result. One source for validation, handler types and OpenAPI.
 */
import type { Static } from 'typebox';
import { templateSchemas } from '../../../kernel/mail-templates/overrides.schemas.ts';

export { MAX_BODY, type RenderedEmail } from '../../../kernel/mail-templates/overrides.schemas.ts';

import { DEFAULT_TEMPLATES, sampleValues } from './email-templates.defaults.ts';
import { EMAIL_TEMPLATE_KINDS } from './email-templates.table.ts';

const OVERRIDE_EXAMPLE = {
  subject: 'Welcome to {{ project_name }}',
  body: '<p>Hello {{ email }},</p><p><a href="{{ action_url }}">Confirm your address</a> within {{ expires_in_minutes }} minutes.</p>',
};

export const {
  Params: TemplateParams,
  EmailTemplate,
  PutBody,
  PreviewBody,
} = templateSchemas({
  param: 'project_id',
  kinds: EMAIL_TEMPLATE_KINDS,
  title: 'EmailTemplate',
  required: '{{ action_url }}',
  overrideExample: OVERRIDE_EXAMPLE,
  previewExample: { variables: { email: 'lea@example.com', project_name: 'Rust Conf' } },
});

export type EmailTemplate = Static<typeof EmailTemplate>;

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
