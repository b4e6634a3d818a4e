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
import type { EventsDeps } from '../deps.ts';
import {
  CANCELLED_EXAMPLE,
  CreateRegistrationBody,
  CreateTicketTypeBody,
  PENDING_PAYMENT_EXAMPLE,
  REGISTRATION_LIST_EXAMPLE,
  Registration,
  RegistrationListItem,
  RegistrationListQuery,
  TICKET_TYPE_EXAMPLE,
  TicketType,
} from './tickets.schemas.ts';
import * as tickets from './tickets.service.ts';

const tags = ['Tickets and registrations'];

export const ticketRoutes: FastifyPluginAsyncTypebox<EventsDeps> = async (app, deps) => {
  const { db } = deps;
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

  app.post(
    '/editions/:edition_id/registrations',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'createRegistration',
        summary: 'Register for an edition',
        description:
          'Any caller registers themselves: the edition and its event must be published (404 otherwise), ' +
          'registration open (`registration_opens_at` passed) and the edition not ended (409). A free ticket ' +
          'is `confirmed` at once and a participant badge is emitted (or re-activated) in the same ' +
          'transaction. A paid ticket (`price_cents` > 0) starts a Mercado Pago checkout (contract 8): 201 ' +
          'with the registration `pending_payment`, its `intent_id`, `checkout_url` (where the payer pays) ' +
          'and `hold_expires_at` (the seat is held until then, CHECKOUT_HOLD_MINUTES); it is confirmed when ' +
          'the payment succeeds. Registering again while pending answers 200 with the same registration and ' +
          'checkout (no second hold). 409 when the event has no payment link, the seller was revoked, or no ' +
          'seat is free counting holds; 502 when Mercado Pago fails (nothing is kept). With `email`, staff ' +
          'and above register that existing actor (403 for others, 404 for an unknown e-mail) with any ' +
          'ticket type free of charge, before the edition ends, also while it is a draft. The ticket type ' +
          'must be of this edition (404). One active registration per person and edition (409).',
        params: idParams('edition_id'),
        body: CreateRegistrationBody,
        response: {
          201: envelope(Registration, PENDING_PAYMENT_EXAMPLE, 'events', 201),
          200: envelope(Registration, PENDING_PAYMENT_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404, 409, 502),
        },
      },
    },
    async (request, reply) => {
      const outcome = await tickets.register(deps, request.params.edition_id, actorOf(request), request.body);
      return outcome.created
        ? created(request, reply, outcome.registration)
        : ok(request, outcome.registration);
    },
  );

  app.get(
    '/registrations/:registration_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getRegistration',
        summary: 'Read a registration',
        description:
          'The registrant, or staff and above of the event (403 for others; 404 when the event is a draft ' +
          'and the caller is neither). A paid registration carries `intent_id`, `hold_expires_at`, and ' +
          '`checkout_url` while `pending_payment`.',
        params: idParams('registration_id'),
        response: {
          200: envelope(Registration, PENDING_PAYMENT_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(request, await tickets.getRegistration(db, request.params.registration_id, actorOf(request))),
  );

  app.get(
    '/editions/:edition_id/registrations',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listRegistrations',
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
        operationId: 'cancelRegistration',
        summary: 'Cancel a registration',
        description:
          'The registrant, or an owner or admin of the event (403 for anyone else). Sets `cancelled`, frees ' +
          'the seat and revokes the participant badge (`status_reason` `registration_cancelled`) in one ' +
          'transaction. A `pending_payment` registration gives its held seat back (a payment that still ' +
          'succeeds is refunded). A confirmed paid registration is refunded in full at Mercado Pago first, ' +
          'then ends `cancelled` with `status_reason` `refunded`, its intent `refunded`, and ' +
          '`registration.refunded` is sent to the wallet’s webhook endpoints; while another refund of it ' +
          'is in flight this is a 409, and when Mercado Pago fails a 502 that leaves it confirmed with its ' +
          'seat (`refund_unconfirmed`: the refund is confirmed later by a job, which then ends it ' +
          '`cancelled`). Its registrant may cancel a confirmed paid registration only before the edition ' +
          'starts and before any check-in (409 `edition_started`, `checked_in`); an owner or admin at any ' +
          'time. 409 `test_mode_payment` for a payment simulated in test mode. 409 when already cancelled, ' +
          'expired or refunded. Takes no body.',
        params: idParams('registration_id'),
        response: {
          200: envelope(Registration, CANCELLED_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404, 409, 502),
        },
      },
    },
    async (request) =>
      ok(request, await tickets.cancelRegistration(deps, request.params.registration_id, actorOf(request))),
  );
};
