/**
 * Routes of registrations (docs/reference/tickets.md and docs/reference/checkout.md): register, read, list,
 * cancel, and the organiser's refund of a paid one.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { created, ok, pageWindow, paginated } from '../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  withReasons,
} from '../../../kernel/http/schemas.ts';
import type { EventsDeps } from '../deps.ts';
import { type RegistrantCheckIns, refundRegistration } from './refunds.service.ts';
import {
  CANCELLED_EXAMPLE,
  CreateRegistrationBody,
  filterOf,
  PENDING_PAYMENT_EXAMPLE,
  REFUNDED_EXAMPLE,
  REGISTRATION_LIST_EXAMPLE,
  Registration,
  RegistrationListItem,
  RegistrationListQuery,
} from './registrations.schemas.ts';
import * as registrations from './registrations.service.ts';
import type { ParticipantBadges } from './registrations.transitions.ts';
import * as sales from './sales.service.ts';

const tags = ['Tickets and registrations'];

const RefundBody = Type.Object(
  {
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    amount_cents: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 2 ** 53 - 1,
        description:
          'a partial refund, in minor units of the payment’s currency (default: all that is left); ' +
          'the registration stays confirmed until all is given back',
      }),
    ),
  },
  {
    additionalProperties: false,
    // One example, as for every body (the document shows it as `example`): a partial refund, with
    // the field a full refund leaves out.
    examples: [{ reason: 'Lunch was not served', amount_cents: 1500 }],
  },
);

/** The 409 reasons of a full refund of a registration's payment, by a cancellation or a refund. */
const REFUND_REASONS = [
  'test_mode_payment',
  'no_seller_credentials',
  'not_refundable',
  'refund_in_progress',
  'refund_exceeds_amount',
] as const;

/**
 * The registrations' routes are given what their transitions and cancellations need of the features
 * above them: the participant badges (badges/) and the registrant's check-ins (check-ins/), wired in
 * the module's index.ts.
 */
export interface RegistrationsContext extends EventsDeps {
  participantBadges: ParticipantBadges;
  registrantCheckIns: RegistrantCheckIns;
}

export const registrationRoutes: FastifyPluginAsyncTypebox<RegistrationsContext> = async (app, deps) => {
  const { db } = deps;
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
          'transaction. A paid ticket (`price_cents` > 0) starts a Mercado Pago checkout (docs/reference/checkout.md): 201 ' +
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
          ...errorResponses(
            400,
            401,
            403,
            404,
            withReasons(
              409,
              'already_registered',
              'sold_out',
              'edition_ended',
              'edition_not_published',
              'registration_not_open',
              'checkout_in_progress',
              'no_currency',
              'payments_not_linked',
              'seller_revoked',
              'test_mode_seller',
              'wallet_gone',
              'seller_credentials_unreadable',
            ),
            502,
          ),
        },
      },
    },
    async (request, reply) => {
      const outcome = await registrations.register(
        deps,
        request.params.edition_id,
        actorOf(request),
        request.body,
      );
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
      ok(request, await registrations.getRegistration(db, request.params.registration_id, actorOf(request))),
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
          'Staff or above (403 for others; 404 for a draft event to a non-member). The registrations of the ' +
          'edition, newest first, paged, each with the holder’s e-mail and name and the ticket’s name; for ' +
          'owners and admins also its checkout’s money (`amount_cents`, `refunded_cents`, `currency`, ' +
          '`payment_status`; null for a free registration, and always null for staff, who see no money). ' +
          'Filters, combined: `q` (a part of the e-mail or name, any case), `status` (one or more, ' +
          'repeated), `ticket_type_id`, `paid` (`true`: made through a checkout; `false`: free). A bad ' +
          'filter is a 400 naming it (`query.status`, …). The same filters export as CSV: ' +
          '`GET /editions/{edition_id}/registrations.csv`.',
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
        await sales.listRegistrations(
          deps,
          request.params.edition_id,
          actorOf(request),
          filterOf(request.query),
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
          ...errorResponses(
            400,
            401,
            403,
            404,
            withReasons(
              409,
              'hold_expired',
              'already_cancelled',
              'already_refunded',
              'registration_changed',
              'edition_started',
              'checked_in',
              ...REFUND_REASONS,
            ),
            withReasons(502, 'refund_unconfirmed'),
          ),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await registrations.cancelRegistration(deps, request.params.registration_id, actorOf(request)),
      ),
  );
};

/**
 * The organiser's refund of a paid registration, in the "Paid tickets" group of the document and
 * registered after the event's payment link routes (`index.ts`), where it has always been listed.
 */
export const registrationRefundRoutes: FastifyPluginAsyncTypebox<EventsDeps> = async (
  app,
  { db, payments },
) => {
  app.post(
    '/registrations/:registration_id/refund',
    {
      config: { auth: 'required', bodyOptional: true },
      schema: {
        tags: ['Paid tickets'],
        operationId: 'refundRegistration',
        summary: 'Refund a paid registration',
        description:
          'Owner or admin of the event. Refunds the payment at Mercado Pago with the seller’s token (502 ' +
          'when the provider refuses: nothing changes; 502 `refund_unconfirmed` when it fails without saying ' +
          'whether it refunded: the refund stays reserved and is confirmed by a job, read the registration ' +
          'again later). All that is left by default: the registration is then `refunded`, its seat freed and ' +
          'its participant badge revoked (`status_reason` `refunded`, or `reason` when given), and ' +
          '`registration.refunded` goes to the wallet’s webhook endpoints. With `amount_cents`, a partial ' +
          'refund: the registration stays `confirmed` with its seat and badge, its intent `succeeded` with ' +
          '`refunded_cents` raised (the listing’s `refunded_cents`; 409 `refund_exceeds_amount` beyond what ' +
          'is left); the refund that gives back the rest ends it as a full one does. 409 unless the ' +
          'registration is confirmed and paid (`test_mode_payment` for a payment simulated in test mode), ' +
          'and while another refund of its intent is in flight or being confirmed (`refund_in_progress`; ' +
          'the provider is then not asked).',
        params: idParams('registration_id'),
        body: RefundBody,
        response: {
          200: envelope(Registration, REFUNDED_EXAMPLE, 'events'),
          ...errorResponses(
            400,
            401,
            403,
            404,
            withReasons(409, 'not_paid', 'not_confirmed', ...REFUND_REASONS),
            withReasons(502, 'refund_unconfirmed'),
          ),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await refundRegistration(db, payments, request.params.registration_id, actorOf(request), {
          reason: request.body.reason,
          amountCents: request.body.amount_cents,
        }),
      ),
  );
};
