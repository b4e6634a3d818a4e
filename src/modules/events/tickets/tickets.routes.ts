/** Routes of contract 5.5, first half: ticket types and registrations. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { created, ok, pageWindow, paginated } from '../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  PageQuerySchema,
} from '../../../kernel/http/schemas.ts';
import type { ModuleDeps } from '../../../kernel/module.ts';
import {
  CANCELLED_EXAMPLE,
  CreateRegistrationBody,
  CreateTicketTypeBody,
  REGISTRATION_EXAMPLE,
  REGISTRATION_LIST_EXAMPLE,
  Registration,
  RegistrationListItem,
  RegistrationListQuery,
  TICKET_TYPE_EXAMPLE,
  TicketType,
} from './tickets.schemas.ts';
import * as tickets from './tickets.service.ts';

const tags = ['events'];

export const ticketRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db }) => {
  app.post(
    '/editions/:edition_id/ticket-types',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Create a ticket type',
        description:
          'Owner or admin of the event. `price_cents` and `access_level` are integers ≥ 0; `max_quantity` ' +
          '(≥ 1) caps the confirmed registrations, absent or null for unlimited.',
        params: idParams('edition_id'),
        body: CreateTicketTypeBody,
        response: {
          201: envelope(TicketType, TICKET_TYPE_EXAMPLE, 'events', 201),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) =>
      created(
        request,
        reply,
        await tickets.createTicketType(db, request.params.edition_id, actorOf(request), request.body),
      ),
  );

  app.get(
    '/editions/:edition_id/ticket-types',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'List ticket types',
        description:
          'Public when the edition and its event are published; members of the event see drafts too. In ' +
          'creation order, each with `confirmed_count` and `remaining` seats (null when unlimited).',
        params: idParams('edition_id'),
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(TicketType, TICKET_TYPE_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await tickets.listTicketTypes(
          db,
          request.params.edition_id,
          request.actor,
          pageWindow(request.query),
        ),
      ),
  );

  app.post(
    '/editions/:edition_id/registrations',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Register for an edition',
        description:
          'Any caller registers themselves: the edition and its event must be published (404 otherwise), the ' +
          'ticket type free (a paid one is 409: checkout does not exist yet), registration open ' +
          '(`registration_opens_at` passed) and the edition not ended (409). With `email`, staff and above ' +
          'register that existing actor (403 for others, 404 for an unknown e-mail) with any ticket type, ' +
          'before the edition ends, also while it is a draft. The ticket type must be of this edition (404). ' +
          'One active registration per person and edition (409); a sold-out ticket type is 409, also when ' +
          'requests race for the last seat. The registration is `confirmed` and a participant badge is emitted ' +
          '(or re-activated) in the same transaction.',
        params: idParams('edition_id'),
        body: CreateRegistrationBody,
        response: {
          201: envelope(Registration, REGISTRATION_EXAMPLE, 'events', 201),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) =>
      created(
        request,
        reply,
        await tickets.register(db, request.params.edition_id, actorOf(request), request.body),
      ),
  );

  app.get(
    '/editions/:edition_id/registrations',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'List registrations',
        description:
          'Staff or above. Every registration of the edition, newest first, with the holder e-mail and the ' +
          'ticket name; `status` filters (`confirmed` or `cancelled`).',
        params: idParams('edition_id'),
        querystring: RegistrationListQuery,
        response: {
          200: listEnvelope(RegistrationListItem, REGISTRATION_LIST_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await tickets.listRegistrations(
          db,
          request.params.edition_id,
          actorOf(request),
          request.query.status,
          pageWindow(request.query),
        ),
      ),
  );

  app.post(
    '/registrations/:registration_id/cancel',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Cancel a registration',
        description:
          'The registrant, or an owner or admin of the event (403 for anyone else). Sets `cancelled`, frees ' +
          'the seat and revokes the participant badge (`status_reason` `registration_cancelled`) in one ' +
          'transaction; 409 when already cancelled. Takes no body.',
        params: idParams('registration_id'),
        response: {
          200: envelope(Registration, CANCELLED_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) =>
      ok(request, await tickets.cancelRegistration(db, request.params.registration_id, actorOf(request))),
  );
};
