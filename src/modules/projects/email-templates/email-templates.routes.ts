/** Routes of docs/reference/projects.md: the e-mail templates of a project (list, read, override, restore, preview). */
import { templateFamilyRoutes } from '../../../kernel/mail-templates/overrides.routes.ts';
import * as schemas from './email-templates.schemas.ts';
import { projectTemplates } from './email-templates.service.ts';

export const emailTemplateRoutes = templateFamilyRoutes({
  overrides: projectTemplates,
  schemas: {
    Params: schemas.TemplateParams,
    EmailTemplate: schemas.EmailTemplate,
    PutBody: schemas.PutBody,
    PreviewBody: schemas.PreviewBody,
  },
  module: 'projects',
  prefix: '/projects/:project_id',
  param: 'project_id',
  tag: 'E-mail templates',
  operation: 'EmailTemplate',
  access: 'Owner or admin of the project (a plain member gets 403, a non-member 404).',
  kinds: 'Kinds: `verify`, `reset`, `invite`, `magic_link`; any other kind is 404 `NOT_FOUND`.',
  rules:
    'Templates are Liquid: output `{{ name }}`, `if`/`unless`/`case`/`for` (bounded), filters; no `include`, ' +
    '`render` or `layout`. A template that does not parse, uses a variable the kind does not declare, lacks ' +
    '`{{ action_url }}` in the body, or cannot render its sample values within the limits (500 ms, allocation ' +
    'budget) is a 400 `VALIDATION_ERROR` naming `subject` or `body`.',
  listed:
    'The effective template of every kind (four items, in the order verify, reset, invite, magic_link): the ' +
    "project's override when it has one, otherwise the built-in default, tagged with `source`.",
  languages: '',
  examples: {
    template: schemas.TEMPLATE_EXAMPLE,
    override: schemas.OVERRIDE_TEMPLATE_EXAMPLE,
    rendered: schemas.RENDERED_EXAMPLE,
  },
});
