/**
 * The five routes of a family of e-mail templates under its owner (`/projects/{project_id}` or
 * `/events/{event_id}`): list, read, override, restore, preview. The family gives its schemas,
 * operation names and texts; the service (overrides.service.ts) does the work.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { actorOf } from '../auth/plugin.ts';
import type { Database } from '../db/client.ts';
import { ok, pageWindow, paginated } from '../http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  type ModuleName,
  PageQuerySchema,
} from '../http/schemas.ts';
import { type Language, pickLanguage } from '../pages/language.ts';
import { RenderedEmail, type templateSchemas } from './overrides.schemas.ts';
import type { TemplateOverrides } from './overrides.service.ts';

export interface FamilyRoutesOptions<P extends string> {
  overrides: TemplateOverrides<string>;
  schemas: ReturnType<typeof templateSchemas<P>>;
  module: ModuleName;
  /** `/projects/:project_id` or `/events/:event_id`. */
  prefix: string;
  param: P;
  tag: string;
  /** The word in operation ids (`EmailTemplate`, `EventEmailTemplate`). */
  operation: string;
  /** Who may call the routes. */
  access: string;
  /** The kinds, for descriptions. */
  kinds: string;
  /** The Liquid rules, for descriptions. */
  rules: string;
  /** What the list answers, for its description. */
  listed: string;
  /** How the built-in defaults pick their language, for descriptions ('' for a one-language family). */
  languages: string;
  examples: { template: unknown; override: unknown; rendered: unknown };
}

export function templateFamilyRoutes<P extends string>(
  options: FamilyRoutesOptions<P>,
): FastifyPluginAsyncTypebox<{ db: Database }> {
  const { overrides, schemas, module, prefix, param, tag, operation, examples } = options;
  const tags = [tag];
  const head = `${options.access} ${options.kinds}`;
  const ownerOf = (request: FastifyRequest) => (request.params as Record<P, string>)[param];
  const kindOf = (request: FastifyRequest) => (request.params as { kind: string }).kind;
  const languageOf = (request: FastifyRequest): Language => pickLanguage(request.headers['accept-language']);
  return async (app, { db }) => {
    app.get(
      `${prefix}/email-templates`,
      {
        config: { auth: 'required' },
        schema: {
          tags,
          operationId: `list${operation}s`,
          summary: 'List the effective e-mail templates',
          description: `${options.access} ${options.listed} ${options.languages}`,
          params: idParams(param),
          querystring: PageQuerySchema,
          response: {
            200: listEnvelope(schemas.EmailTemplate, examples.template, module),
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        paginated(
          request,
          await overrides.list(
            db,
            ownerOf(request),
            actorOf(request),
            pageWindow(request.query),
            languageOf(request),
          ),
        ),
    );

    app.get(
      `${prefix}/email-templates/:kind`,
      {
        config: { auth: 'required' },
        schema: {
          tags,
          operationId: `get${operation}`,
          summary: 'Read the effective e-mail template of a kind',
          description: `${head} \`variables\` lists what the kind declares. ${options.languages}`,
          params: schemas.Params,
          response: {
            200: envelope(schemas.EmailTemplate, examples.template, module),
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        ok(
          request,
          await overrides.get(db, ownerOf(request), kindOf(request), actorOf(request), languageOf(request)),
        ),
    );

    app.put(
      `${prefix}/email-templates/:kind`,
      {
        config: { auth: 'required' },
        schema: {
          tags,
          operationId: `override${operation}`,
          summary: 'Override the e-mail template of a kind',
          description: `${head} Creates or replaces the override. ${options.rules}`,
          params: schemas.Params,
          body: schemas.PutBody,
          response: {
            200: envelope(schemas.EmailTemplate, examples.override, module),
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        ok(
          request,
          await overrides.put(
            db,
            ownerOf(request),
            kindOf(request),
            actorOf(request),
            request.body as { subject: string; body: string },
            languageOf(request),
          ),
        ),
    );

    app.delete(
      `${prefix}/email-templates/:kind`,
      {
        config: { auth: 'required' },
        schema: {
          tags,
          operationId: `restore${operation}`,
          summary: 'Restore the default e-mail template of a kind',
          description:
            `${head} Removes the override and answers the now-effective template ` +
            '(`source` `default`). Without an override it changes nothing and answers the same 200.',
          params: schemas.Params,
          response: {
            200: envelope(schemas.EmailTemplate, examples.template, module),
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        ok(
          request,
          await overrides.remove(
            db,
            ownerOf(request),
            kindOf(request),
            actorOf(request),
            languageOf(request),
          ),
        ),
    );

    app.post(
      `${prefix}/email-templates/:kind/preview`,
      {
        config: { auth: 'required', bodyOptional: true },
        schema: {
          tags,
          operationId: `preview${operation}`,
          summary: 'Preview an e-mail template',
          description:
            `${head} Renders the subject, the HTML body (values HTML-escaped) and the plain-text ` +
            'alternative. `subject` and `body` default to the effective template; when given they are validated ' +
            `like an override. ${options.rules} \`variables\` gives values of declared variables (an undeclared ` +
            'name is 400 naming `variables.<name>`); the others take the sample values. Nothing is stored or sent.',
          params: schemas.Params,
          body: schemas.PreviewBody,
          response: {
            200: envelope(RenderedEmail, examples.rendered, module),
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        ok(
          request,
          await overrides.preview(
            db,
            ownerOf(request),
            kindOf(request),
            actorOf(request),
            (request.body ?? {}) as { subject?: string; body?: string; variables?: Record<string, string> },
            languageOf(request),
          ),
        ),
    );
  };
}
