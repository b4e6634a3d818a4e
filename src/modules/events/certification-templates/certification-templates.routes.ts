/** Routes of docs/reference/events.md: certification templates of an edition and their links to programs. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { created, ok, pageWindow, paginated, sendPage } from '../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  PageQuerySchema,
  withReasons,
} from '../../../kernel/http/schemas.ts';
import type { ModuleDeps } from '../../../kernel/module.ts';
import {
  CERTIFICATION_TEMPLATE_EXAMPLE,
  CertificationTemplate,
  CreateCertificationTemplateBody,
  LINK_EXAMPLE,
  LinkBody,
  LinkedProgram,
  TemplateLink,
  UpdateCertificationTemplateBody,
} from './certification-templates.schemas.ts';
import * as certifications from './certification-templates.service.ts';

const tags = ['Certification templates'];
const PUBLIC_READ =
  'Public when the edition and its event are published; members of the event (staff and up) see drafts.';
const DESIGN = '`design_data` is a JSON object of at most 256 KiB (its JSON text in UTF-8; larger is 400).';
const { template_id: _template, ...LISTED_LINK_EXAMPLE } = LINK_EXAMPLE;

export const certificationRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db }) => {
  app.post(
    '/editions/:edition_id/certifications/templates',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'createCertificationTemplate',
        summary: 'Create a certification template',
        description: `Owner or admin of the event. ${DESIGN} \`design_data\` defaults to \`{}\`. A \`program_attendance\` template is linked to programs afterwards.`,
        params: idParams('edition_id'),
        body: CreateCertificationTemplateBody,
        response: {
          201: envelope(CertificationTemplate, CERTIFICATION_TEMPLATE_EXAMPLE, 'events', 201),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) =>
      created(
        request,
        reply,
        await certifications.createTemplate(db, request.params.edition_id, actorOf(request), request.body),
      ),
  );

  app.get(
    '/editions/:edition_id/certifications/templates',
    {
      config: { publicCache: true, auth: 'optional' },
      schema: {
        tags,
        operationId: 'listCertificationTemplates',
        summary: 'List the certification templates of an edition',
        description: `${PUBLIC_READ} Oldest first. Deleted templates are never listed.`,
        params: idParams('edition_id'),
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(CertificationTemplate, CERTIFICATION_TEMPLATE_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request, reply) =>
      sendPage(
        request,
        reply,
        await certifications.listTemplates(
          db,
          request.params.edition_id,
          request.actor,
          pageWindow(request.query),
        ),
      ),
  );

  app.get(
    '/certifications/templates/:template_id',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        operationId: 'getCertificationTemplate',
        summary: 'Read a certification template',
        description: `${PUBLIC_READ} A deleted template is 404.`,
        params: idParams('template_id'),
        response: {
          200: envelope(CertificationTemplate, CERTIFICATION_TEMPLATE_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      ok(request, await certifications.getTemplate(db, request.params.template_id, request.actor)),
  );

  app.patch(
    '/certifications/templates/:template_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'updateCertificationTemplate',
        summary: 'Update a certification template',
        description:
          `Owner or admin of the event. Partial update; \`description\` accepts \`null\`, \`design_data\` is ` +
          `replaced whole. ${DESIGN} Changing \`kind\` to \`edition_attendance\` while programs are linked is 409.`,
        params: idParams('template_id'),
        body: UpdateCertificationTemplateBody,
        response: {
          200: envelope(CertificationTemplate, CERTIFICATION_TEMPLATE_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404, withReasons(409, 'template_linked')),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await certifications.updateTemplate(db, request.params.template_id, actorOf(request), request.body),
      ),
  );

  app.delete(
    '/certifications/templates/:template_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'deleteCertificationTemplate',
        summary: 'Delete a certification template',
        description:
          'Owner or admin of the event. Soft delete: sets `deleted_at` and answers the deleted template, which ' +
          'then vanishes from every read.',
        params: idParams('template_id'),
        response: {
          200: envelope(
            CertificationTemplate,
            { ...CERTIFICATION_TEMPLATE_EXAMPLE, deleted_at: '2026-11-23T10:00:00.000Z' },
            'events',
          ),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(request, await certifications.deleteTemplate(db, request.params.template_id, actorOf(request))),
  );

  app.post(
    '/certifications/templates/:template_id/link',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'linkCertificationProgram',
        summary: 'Link a program to a certification template',
        description:
          'Owner or admin of the event. Only a `program_attendance` template (400 `BAD_REQUEST` otherwise), only ' +
          'a live program of the same edition (400 otherwise; an unknown program is 404); 409 if already linked.',
        params: idParams('template_id'),
        body: LinkBody,
        response: {
          201: envelope(TemplateLink, LINK_EXAMPLE, 'events', 201),
          ...errorResponses(
            withReasons(400, 'not_program_attendance', 'program_not_linkable'),
            401,
            403,
            404,
            withReasons(409, 'already_linked'),
          ),
        },
      },
    },
    async (request, reply) =>
      created(
        request,
        reply,
        await certifications.linkProgram(
          db,
          request.params.template_id,
          actorOf(request),
          request.body.program_id,
        ),
      ),
  );

  app.delete(
    '/certifications/templates/:template_id/link',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'unlinkCertificationProgram',
        summary: 'Unlink a program from a certification template',
        description:
          'Owner or admin of the event. The program is named by `program_id` in the body. Answers the removed ' +
          'link; 404 if the program is not linked (a deleted program counts as not linked).',
        params: idParams('template_id'),
        body: LinkBody,
        response: {
          200: envelope(TemplateLink, LINK_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await certifications.unlinkProgram(
          db,
          request.params.template_id,
          actorOf(request),
          request.body.program_id,
        ),
      ),
  );

  app.get(
    '/certifications/templates/:template_id/links',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        operationId: 'listCertificationLinks',
        summary: 'List the programs linked to a certification template',
        description:
          `${PUBLIC_READ} Oldest link first. Deleted programs are never listed; links to \`staff_only\` ` +
          'programs are listed to members of the event only, like the programs themselves.',
        params: idParams('template_id'),
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(LinkedProgram, LISTED_LINK_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await certifications.listLinks(
          db,
          request.params.template_id,
          request.actor,
          pageWindow(request.query),
        ),
      ),
  );
};
