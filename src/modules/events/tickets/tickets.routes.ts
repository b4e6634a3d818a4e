/** Routes of docs/reference/tickets.md, first half: ticket types. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { created, pageWindow, paginated } from '../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  PageQuerySchema,
} from '../../../kernel/http/schemas.ts';
import type { EventsDeps } from '../deps.ts';
import { CreateTicketTypeBody, TICKET_TYPE_EXAMPLE, TicketType } from './tickets.schemas.ts';
import * as tickets from './tickets.service.ts';

const tags = ['Tickets and registrations'];

export const ticketRoutes: FastifyPluginAsyncTypebox<EventsDeps> = async (app, { db }) => {
  app.post(
    '/editions/:edition_id/ticket-types',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'createTicketType',
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
        operationId: 'listTicketTypes',
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
};
