/** Routes of docs/reference/tickets.md, second half: badge templates, emissions, print data, a user's badges. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { created, ok, pageWindow, paginated, sendPdf } from '../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  PageQuerySchema,
  pdfResponse,
  withReasons,
} from '../../../kernel/http/schemas.ts';
import { pickLanguage, prefersHtml } from '../../../kernel/pages/language.ts';
import { sendHtml } from '../../../kernel/pages/layout.ts';
import { asBuffer } from '../../../kernel/workers/pool.ts';
import type { EventsDeps } from '../deps.ts';
import type { BadgeCodes } from './badge-codes.ts';
import * as emissions from './badge-emissions.service.ts';
import type { BadgesPdfRenderer } from './badges.pdf.ts';
import {
  BADGE_TEMPLATE_EXAMPLE,
  BadgeEmission,
  BadgePrintItem,
  BadgeTemplate,
  CreateBadgeTemplateBody,
  EMISSION_EXAMPLE,
  EmissionListQuery,
  PRINT_ITEM_EXAMPLE,
  PrintQuery,
  UpdateBadgeTemplateBody,
  USER_BADGES_EXAMPLE,
  UserBadges,
} from './badges.schemas.ts';
import * as badges from './badges.service.ts';
import { userBadgesPage } from './user-badges.page.ts';

const tags = ['Badges'];

export const PRINT_SELECTION_RULES =
  '`emission_ids` selects emissions, comma-separated or repeated (each a UUID, else 400 ' +
  '`query.emission_ids`; at most 1000); without it, every active emission of the edition in emission ' +
  'order. A selected id that is not an emission of this edition is 404 (`error.meta.emission_ids` lists ' +
  'them); a selected revoked emission is left out: only active emissions are printed.';

/** What the badges' routes are given (index.ts): the badge codes and the thread that renders their PDF. */
export interface BadgesContext extends EventsDeps {
  badgeCodes: BadgeCodes;
  documents: BadgesPdfRenderer;
}

export const badgeRoutes: FastifyPluginAsyncTypebox<BadgesContext> = async (
  app,
  { db, badgeCodes, documents },
) => {
  app.post(
    '/editions/:edition_id/badges',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'createBadgeTemplate',
        summary: 'Create a badge template',
        description:
          'Owner or admin. The scope follows from the body: `origin: "staff"` is the staff template, ' +
          '`ticket_type_id` (a ticket type of this edition, else 404) the template of that ticket type, ' +
          'neither the edition default; both at once is 400. One live template per scope (409). ' +
          '`design_data` is a JSON object of at most 256 KiB.',
        params: idParams('edition_id'),
        body: CreateBadgeTemplateBody,
        response: {
          201: envelope(BadgeTemplate, BADGE_TEMPLATE_EXAMPLE, 'events', 201),
          ...errorResponses(400, 401, 403, 404, withReasons(409, 'template_scope_taken')),
        },
      },
    },
    async (request, reply) =>
      created(
        request,
        reply,
        await badges.createTemplate(db, request.params.edition_id, actorOf(request), request.body),
      ),
  );

  app.get(
    '/editions/:edition_id/badges',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listBadgeTemplates',
        summary: 'List badge templates',
        description: 'Staff or above. The live templates of the edition, in creation order.',
        params: idParams('edition_id'),
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(BadgeTemplate, BADGE_TEMPLATE_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await badges.listTemplates(
          db,
          request.params.edition_id,
          actorOf(request),
          pageWindow(request.query),
        ),
      ),
  );

  app.get(
    '/badges/:template_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getBadgeTemplate',
        summary: 'Read a badge template',
        description: 'Staff or above of the event.',
        params: idParams('template_id'),
        response: {
          200: envelope(BadgeTemplate, BADGE_TEMPLATE_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(request, await badges.getTemplate(db, request.params.template_id, actorOf(request))),
  );

  app.patch(
    '/badges/:template_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'updateBadgeTemplate',
        summary: 'Update a badge template',
        description:
          'Owner or admin. `name` and/or `design_data` (replaced whole, at most 256 KiB); the scope is fixed.',
        params: idParams('template_id'),
        body: UpdateBadgeTemplateBody,
        response: {
          200: envelope(BadgeTemplate, BADGE_TEMPLATE_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await badges.updateTemplate(db, request.params.template_id, actorOf(request), request.body),
      ),
  );

  app.delete(
    '/badges/:template_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'deleteBadgeTemplate',
        summary: 'Delete a badge template',
        description:
          'Owner or admin. Soft delete (`deleted_at`): the template leaves every read and frees its scope; ' +
          'badges it applied to fall back to the edition default.',
        params: idParams('template_id'),
        response: {
          200: envelope(
            BadgeTemplate,
            { ...BADGE_TEMPLATE_EXAMPLE, deleted_at: '2026-11-23T10:00:00.000Z' },
            'events',
          ),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(request, await badges.deleteTemplate(db, request.params.template_id, actorOf(request))),
  );

  app.get(
    '/editions/:edition_id/badges/emissions',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listBadgeEmissions',
        summary: 'List badge emissions',
        description:
          'Owner or admin. Every emission of the edition, active and revoked, newest first; ' +
          '`status` filters. `template_id`/`template_name` are the template that applies now (ticket type or ' +
          'staff template, else the edition default, else null); `holder_email` is added for organizers.',
        params: idParams('edition_id'),
        querystring: EmissionListQuery,
        response: {
          200: listEnvelope(BadgeEmission, EMISSION_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await emissions.listEmissions(
          db,
          request.params.edition_id,
          actorOf(request),
          request.query.status,
          pageWindow(request.query),
        ),
      ),
  );

  app.get(
    '/editions/:edition_id/badges/print',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getBadgePrintData',
        summary: 'Badge print data',
        description: `Owner or admin. The design and variables of each badge to print. ${PRINT_SELECTION_RULES} Not paginated: a print run needs every badge.`,
        params: idParams('edition_id'),
        querystring: PrintQuery,
        response: {
          200: envelope(Type.Array(BadgePrintItem), [PRINT_ITEM_EXAMPLE], 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await emissions.printData(
          db,
          request.params.edition_id,
          actorOf(request),
          request.query.emission_ids,
          badgeCodes,
        ),
      ),
  );

  app.get(
    '/editions/:edition_id/badges/print.pdf',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getBadgesPdf',
        summary: 'Printable badges (PDF)',
        description:
          `Owner or admin. The print data of \`GET /editions/{edition_id}/badges/print\` rendered as a PDF, one ` +
          `page per active badge (a single explanatory page when there is none). ${PRINT_SELECTION_RULES} ` +
          'The success body is the PDF itself, not an envelope: `content-type: application/pdf`, ' +
          '`content-disposition: inline; filename="badges-<edition_id>.pdf"`. Errors are the usual JSON envelope; ' +
          '503 with `Retry-After` when too many documents are waiting to be rendered.',
        params: idParams('edition_id'),
        querystring: PrintQuery,
        response: {
          200: pdfResponse('The badges as a PDF document'),
          ...errorResponses(400, 401, 403, 404, 503),
        },
      },
    },
    async (request, reply) => {
      const items = await emissions.printData(
        db,
        request.params.edition_id,
        actorOf(request),
        request.query.emission_ids,
        badgeCodes,
      );
      // Rendered in a worker thread: a sheet of many badges would hold the event loop for seconds.
      const pdf = asBuffer(await documents.run('badgesPdf', items));
      return sendPdf(reply, `badges-${request.params.edition_id}.pdf`, pdf);
    },
  );

  app.get(
    '/users/:user_id/badges',
    {
      schema: {
        tags,
        operationId: 'listUserBadges',
        summary: "A user's badges",
        description:
          'Public. Active badges of published editions of published events, grouped by origin (`attendant` for ' +
          'participant badges, `staff`) and split into `current` (edition not yet ended) and `past`. No ' +
          'e-mails. An unknown user has empty groups (200). A browser (an `Accept` that ranks `text/html` above ' +
          '`application/json`) gets the same list as an HTML page in the language of `Accept-Language` ' +
          '(docs/reference/pages.md).',
        params: idParams('user_id'),
        response: { 200: envelope(UserBadges, USER_BADGES_EXAMPLE, 'events'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const badges = await emissions.listUserBadges(db, request.params.user_id);
      if (!prefersHtml(request.headers.accept)) return ok(request, badges);
      const language = pickLanguage(request.headers['accept-language']);
      return sendHtml(reply, 200, language, userBadgesPage(badges, language));
    },
  );
};
