/** Routes of docs/reference/events.md: editions. */
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
  CreateEditionBody,
  EDITION_EXAMPLE,
  Edition,
  EditionSlugParams,
  UpdateEditionBody,
} from './editions.schemas.ts';
import * as editions from './editions.service.ts';

const tags = ['Editions'];
const PUBLISHED = { ...EDITION_EXAMPLE, is_draft: false };

/** The editions' routes are given what publishing does to staff badges (badges/, wired in index.ts). */
export interface EditionsContext extends ModuleDeps {
  publishBadges: editions.PublishStaffBadges;
}

export const editionRoutes: FastifyPluginAsyncTypebox<EditionsContext> = async (
  app,
  { db, publishBadges },
) => {
  app.post(
    '/events/:event_id/editions',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'createEdition',
        summary: 'Create an edition',
        description:
          'Owner or admin. Created as a draft. `ends_at` after `starts_at`, `registration_opens_at` not after ' +
          '`starts_at` (400); `slug` unique in the event and no overlap in time with another edition (409).',
        params: idParams('event_id'),
        body: CreateEditionBody,
        response: {
          201: envelope(Edition, EDITION_EXAMPLE, 'events', 201),
          ...errorResponses(
            withReasons(400, 'ends_before_start', 'registration_opens_after_start'),
            401,
            403,
            404,
            withReasons(409, 'slug_taken', 'edition_overlap'),
          ),
        },
      },
    },
    async (request, reply) =>
      created(
        request,
        reply,
        await editions.createEdition(db, request.params.event_id, actorOf(request), request.body),
      ),
  );

  app.get(
    '/events/:event_id/editions',
    {
      config: { publicCache: true, auth: 'optional' },
      schema: {
        tags,
        operationId: 'listEditions',
        summary: 'List published editions',
        description:
          'Public (the event must be published; members see a draft event too). Ordered by `starts_at`.',
        params: idParams('event_id'),
        querystring: PageQuerySchema,
        response: { 200: listEnvelope(Edition, PUBLISHED, 'events'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) =>
      sendPage(
        request,
        reply,
        await editions.listPublishedEditions(
          db,
          request.params.event_id,
          request.actor,
          pageWindow(request.query),
        ),
      ),
  );

  app.get(
    '/events/:event_id/editions/drafts',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listDraftEditions',
        summary: 'List draft editions',
        description: 'Staff or above. Draft editions ordered by `starts_at`.',
        params: idParams('event_id'),
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(Edition, EDITION_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await editions.listDraftEditions(
          db,
          request.params.event_id,
          actorOf(request),
          pageWindow(request.query),
        ),
      ),
  );

  app.get(
    '/events/:event_slug(^[^/:]+)::by-slug/editions/:edition_slug(^[^/:]+)::by-slug',
    {
      config: { publicCache: true },
      schema: {
        tags,
        operationId: 'getEditionBySlugs',
        summary: 'Read a published edition by slugs',
        description:
          'Public. Both segments end with the literal `:by-slug`, e.g. ' +
          '`/events/rustconf:by-slug/editions/2027:by-slug`. 404 unless the event and the edition are published.',
        params: EditionSlugParams,
        response: { 200: envelope(Edition, PUBLISHED, 'events'), ...errorResponses(400, 404) },
      },
    },
    async (request) =>
      ok(
        request,
        await editions.getPublishedEditionBySlugs(db, request.params.event_slug, request.params.edition_slug),
      ),
  );

  app.get(
    '/editions/:edition_id',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        operationId: 'getEdition',
        summary: 'Read an edition',
        description: 'Public when the edition and its event are published; members of the event see drafts.',
        params: idParams('edition_id'),
        response: { 200: envelope(Edition, PUBLISHED, 'events'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ok(request, await editions.getEdition(db, request.params.edition_id, request.actor)),
  );

  app.patch(
    '/events/:event_id/editions/:edition_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'updateEdition',
        summary: 'Update an edition',
        description:
          'Owner or admin. Partial update; optional fields accept `null`. The date rules and the ' +
          'overlap rule are checked against the resulting values. 404 if the edition is not of that event.',
        params: idParams('event_id', 'edition_id'),
        body: UpdateEditionBody,
        response: {
          200: envelope(Edition, EDITION_EXAMPLE, 'events'),
          ...errorResponses(
            withReasons(400, 'ends_before_start', 'registration_opens_after_start'),
            401,
            403,
            404,
            withReasons(409, 'slug_taken', 'edition_overlap'),
          ),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await editions.updateEdition(
          db,
          request.params.event_id,
          request.params.edition_id,
          actorOf(request),
          request.body,
        ),
      ),
  );

  app.post(
    '/events/:event_id/editions/:edition_id/publish',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'publishEdition',
        summary: 'Publish an edition',
        description: 'Owner or admin. Sets `is_draft` to false; 409 when already published.',
        params: idParams('event_id', 'edition_id'),
        response: {
          200: envelope(Edition, PUBLISHED, 'events'),
          ...errorResponses(400, 401, 403, 404, withReasons(409, 'already_published')),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await editions.publishEdition(
          db,
          publishBadges,
          request.params.event_id,
          request.params.edition_id,
          actorOf(request),
        ),
      ),
  );

  app.delete(
    '/events/:event_id/editions/:edition_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'deleteEdition',
        summary: 'Delete an edition',
        description: 'Owner only. Soft delete: sets `deleted_at`; the edition disappears from every read.',
        params: idParams('event_id', 'edition_id'),
        response: {
          200: envelope(Edition, { ...EDITION_EXAMPLE, deleted_at: '2026-11-23T10:00:00.000Z' }, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await editions.deleteEdition(
          db,
          request.params.event_id,
          request.params.edition_id,
          actorOf(request),
        ),
      ),
  );
};
