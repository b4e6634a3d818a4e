/** Routes of docs/reference/events.md: events (their members: members.routes.ts). Handlers: authorize via service, envelope. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { created, ok, pageWindow, paginated } from '../../../kernel/http/respond.ts';
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
  CreateEventBody,
  EVENT_EXAMPLE,
  Event,
  EventSlugParams,
  MyEvent,
  UpdateEventBody,
} from './events.schemas.ts';
import * as events from './events.service.ts';

const tags = ['Events'];

export const eventRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db }) => {
  app.post(
    '/events',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'createEvent',
        summary: 'Create an event',
        description:
          'Creates a draft event; the caller becomes its owner. `slug` is unique across events (409).',
        body: CreateEventBody,
        response: {
          201: envelope(Event, EVENT_EXAMPLE, 'events', 201),
          ...errorResponses(400, 401, withReasons(409, 'slug_taken')),
        },
      },
    },
    async (request, reply) =>
      created(request, reply, await events.createEvent(db, actorOf(request), request.body)),
  );

  app.get(
    '/events',
    {
      schema: {
        tags,
        operationId: 'listEvents',
        summary: 'List published events',
        description: 'Public. Published (`active`) events, newest first.',
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(Event, { ...EVENT_EXAMPLE, status: 'active' }, 'events'),
          ...errorResponses(400),
        },
      },
    },
    async (request) => paginated(request, await events.listPublishedEvents(db, pageWindow(request.query))),
  );

  app.get(
    '/events/mine',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listMyEvents',
        summary: 'List my events',
        description: 'Events where the caller holds any role, drafts included, each with the caller `role`.',
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(MyEvent, { ...EVENT_EXAMPLE, role: 'owner' }, 'events'),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) =>
      paginated(request, await events.listMyEvents(db, actorOf(request), pageWindow(request.query))),
  );

  app.get(
    '/events/:event_slug(^[^/:]+)::by-slug',
    {
      config: { publicCache: true },
      schema: {
        tags,
        operationId: 'getEventBySlug',
        summary: 'Read a published event by slug',
        description:
          'Public. The path is the slug followed by the literal `:by-slug`, e.g. `/events/rustconf:by-slug`.',
        params: EventSlugParams,
        response: {
          200: envelope(Event, { ...EVENT_EXAMPLE, status: 'active' }, 'events'),
          ...errorResponses(400, 404),
        },
      },
    },
    async (request) => ok(request, await events.getPublishedEventBySlug(db, request.params.event_slug)),
  );

  app.get(
    '/events/:event_id',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        operationId: 'getEvent',
        summary: 'Read an event',
        description: 'Public when published; members see drafts too. A draft is 404 for everyone else.',
        params: idParams('event_id'),
        response: { 200: envelope(Event, EVENT_EXAMPLE, 'events'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ok(request, await events.getEvent(db, request.params.event_id, request.actor)),
  );

  app.patch(
    '/events/:event_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'updateEvent',
        summary: 'Update an event',
        description: 'Owner or admin. Any of the create fields; optional fields accept `null` to clear them.',
        params: idParams('event_id'),
        body: UpdateEventBody,
        response: {
          200: envelope(Event, EVENT_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404, withReasons(409, 'slug_taken')),
        },
      },
    },
    async (request) =>
      ok(request, await events.updateEvent(db, request.params.event_id, actorOf(request), request.body)),
  );

  app.post(
    '/events/:event_id/publish',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'publishEvent',
        summary: 'Publish an event',
        description: 'Owner or admin. Moves a draft event to `active`; 409 when it is not a draft.',
        params: idParams('event_id'),
        response: {
          200: envelope(Event, { ...EVENT_EXAMPLE, status: 'active' }, 'events'),
          ...errorResponses(400, 401, 403, 404, withReasons(409, 'already_published')),
        },
      },
    },
    async (request) => ok(request, await events.publishEvent(db, request.params.event_id, actorOf(request))),
  );
};
