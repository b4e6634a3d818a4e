/** Routes of docs/reference/projects.md: the e-mail templates of a project (list, read, override, restore, preview). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { ok, pageWindow, paginated } from '../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  PageQuerySchema,
} from '../../../kernel/http/schemas.ts';
import type { ModuleDeps } from '../../../kernel/module.ts';
import {
  EmailTemplate,
  OVERRIDE_TEMPLATE_EXAMPLE,
  PreviewBody,
  PutTemplateBody,
  RENDERED_EXAMPLE,
  RenderedEmail,
  TEMPLATE_EXAMPLE,
  TemplateParams,
} from './email-templates.schemas.ts';
import * as templates from './email-templates.service.ts';

const tags = ['E-mail templates'];
const ACCESS = 'Owner or admin of the project (a plain member gets 403, a non-member 404).';
const KINDS = 'Kinds: `verify`, `reset`, `invite`, `magic_link`; any other kind is 404 `NOT_FOUND`.';
const RULES =
  'Templates are Liquid: output `{{ name }}`, `if`/`unless`/`case`/`for` (bounded), filters; no `include`, ' +
  '`render` or `layout`. A template that does not parse, uses a variable the kind does not declare, lacks ' +
  '`{{ action_url }}` in the body, or cannot render its sample values within the limits (500 ms, allocation ' +
  'budget) is a 400 `VALIDATION_ERROR` naming `subject` or `body`.';

export const emailTemplateRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db }) => {
  app.get(
    '/projects/:project_id/email-templates',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listEmailTemplates',
        summary: 'List the effective e-mail templates',
        description:
          `${ACCESS} The effective template of every kind (four items, in the order verify, reset, invite, ` +
          'magic_link): the override when the project has one, otherwise the built-in default, tagged with `source`.',
        params: idParams('project_id'),
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(EmailTemplate, TEMPLATE_EXAMPLE, 'projects'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await templates.listTemplates(
          db,
          request.params.project_id,
          actorOf(request),
          pageWindow(request.query),
        ),
      ),
  );

  app.get(
    '/projects/:project_id/email-templates/:kind',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getEmailTemplate',
        summary: 'Read the effective e-mail template of a kind',
        description: `${ACCESS} ${KINDS} \`variables\` lists what the kind declares.`,
        params: TemplateParams,
        response: {
          200: envelope(EmailTemplate, TEMPLATE_EXAMPLE, 'projects'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await templates.getTemplate(db, request.params.project_id, request.params.kind, actorOf(request)),
      ),
  );

  app.put(
    '/projects/:project_id/email-templates/:kind',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'overrideEmailTemplate',
        summary: 'Override the e-mail template of a kind',
        description: `${ACCESS} ${KINDS} Creates or replaces the project's override. ${RULES}`,
        params: TemplateParams,
        body: PutTemplateBody,
        response: {
          200: envelope(EmailTemplate, OVERRIDE_TEMPLATE_EXAMPLE, 'projects'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await templates.putTemplate(
          db,
          request.params.project_id,
          request.params.kind,
          actorOf(request),
          request.body,
        ),
      ),
  );

  app.delete(
    '/projects/:project_id/email-templates/:kind',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'restoreEmailTemplate',
        summary: 'Restore the default e-mail template of a kind',
        description:
          `${ACCESS} ${KINDS} Removes the project's override and answers the now-effective template ` +
          '(`source` `default`). Without an override it changes nothing and answers the same 200.',
        params: TemplateParams,
        response: {
          200: envelope(EmailTemplate, TEMPLATE_EXAMPLE, 'projects'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await templates.deleteTemplate(db, request.params.project_id, request.params.kind, actorOf(request)),
      ),
  );

  app.post(
    '/projects/:project_id/email-templates/:kind/preview',
    {
      config: { auth: 'required', bodyOptional: true },
      schema: {
        tags,
        operationId: 'previewEmailTemplate',
        summary: 'Preview an e-mail template',
        description:
          `${ACCESS} ${KINDS} Renders the subject, the HTML body (values HTML-escaped) and the plain-text ` +
          'alternative. `subject` and `body` default to the effective template; when given they are validated ' +
          `like an override. ${RULES} \`variables\` gives values of declared variables (an undeclared name is ` +
          '400 naming `variables.<name>`); the others take the sample values. Nothing is stored or sent.',
        params: TemplateParams,
        body: PreviewBody,
        response: {
          200: envelope(RenderedEmail, RENDERED_EXAMPLE, 'projects'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await templates.previewTemplate(
          db,
          request.params.project_id,
          request.params.kind,
          actorOf(request),
          request.body,
        ),
      ),
  );
};
