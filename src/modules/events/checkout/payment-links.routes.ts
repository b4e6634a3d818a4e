/** Routes of contract 8, events side: the event's payment link, a paid registration's refund. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { ok } from '../../../kernel/http/respond.ts';
import { envelope, errorResponses, idParams, withReasons } from '../../../kernel/http/schemas.ts';
import type { EventsDeps } from '../deps.ts';
import { REFUNDED_EXAMPLE, Registration } from '../tickets/tickets.schemas.ts';
import { refundRegistration } from './checkout.service.ts';
import { PAYMENT_LINK_EXAMPLE, PaymentLink, PutPaymentLinkBody } from './payment-links.schemas.ts';
import * as links from './payment-links.service.ts';

const tags = ['Paid tickets'];

const RefundBody = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) },
  { additionalProperties: false, examples: [{ reason: 'Speaker cancelled the workshop' }] },
);

export const paymentLinkRoutes: FastifyPluginAsyncTypebox<EventsDeps> = async (app, { db, payments }) => {
  app.put(
    '/events/:event_id/payments',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'linkEventPayments',
        summary: 'Link a wallet and seller to sell paid tickets',
        description:
          'The event’s owner, who must also own the wallet (a wallet that is not the caller’s is 404, as ' +
          'everywhere). `seller_id` must be a live seller of that wallet connected with the `seller` flow ' +
          '(404 unknown; 409 revoked or a test-mode seller). Creates or replaces the link; paid ' +
          'registrations then open a Mercado Pago checkout paid to that seller, with the wallet’s `fee_bps` ' +
          'taken as the marketplace fee.',
        params: idParams('event_id'),
        body: PutPaymentLinkBody,
        response: {
          200: envelope(PaymentLink, PAYMENT_LINK_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404, withReasons(409, 'seller_revoked', 'test_mode_seller')),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await links.linkPayments(db, payments, request.params.event_id, actorOf(request), request.body),
      ),
  );

  app.get(
    '/events/:event_id/payments',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getEventPayments',
        summary: 'Read the event’s payment link',
        description: 'Owner or admin of the event. 404 when the event sells no paid tickets (no link).',
        params: idParams('event_id'),
        response: {
          200: envelope(PaymentLink, PAYMENT_LINK_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(request, await links.getPaymentLink(db, payments, request.params.event_id, actorOf(request))),
  );

  app.delete(
    '/events/:event_id/payments',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'unlinkEventPayments',
        summary: 'Unlink the event’s wallet',
        description:
          'Owner only. Paid registrations are refused (409) until a wallet is linked again; registrations ' +
          'already paying keep their intent and are confirmed when paid. Answers the removed link; 404 ' +
          'when there was none.',
        params: idParams('event_id'),
        response: {
          200: envelope(PaymentLink, PAYMENT_LINK_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(request, await links.unlinkPayments(db, payments, request.params.event_id, actorOf(request))),
  );

  app.post(
    '/registrations/:registration_id/refund',
    {
      config: { auth: 'required', bodyOptional: true },
      schema: {
        tags,
        operationId: 'refundRegistration',
        summary: 'Refund a paid registration',
        description:
          'Owner or admin of the event. Refunds the whole payment at Mercado Pago with the seller’s token ' +
          '(502 when the provider refuses: nothing changes; 502 `refund_unconfirmed` when it fails without ' +
          'saying whether it refunded: the refund stays reserved and is confirmed by a job, read the ' +
          'registration again later), then the registration is `refunded`, its seat freed and its participant ' +
          'badge revoked (`status_reason` `refunded`), and `registration.refunded` goes to the wallet’s webhook ' +
          'endpoints. 409 unless the registration is confirmed and paid (`test_mode_payment` for a payment ' +
          'simulated in test mode), and while another refund of its intent is in flight or being confirmed ' +
          '(`refund_in_progress`; the provider is then not asked).',
        params: idParams('registration_id'),
        body: RefundBody,
        response: {
          200: envelope(Registration, REFUNDED_EXAMPLE, 'events'),
          ...errorResponses(
            400,
            401,
            403,
            404,
            withReasons(
              409,
              'not_paid',
              'not_confirmed',
              'test_mode_payment',
              'no_seller_credentials',
              'not_refundable',
              'refund_in_progress',
              'refund_exceeds_amount',
            ),
            withReasons(502, 'refund_unconfirmed'),
          ),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await refundRegistration(
          db,
          payments,
          request.params.registration_id,
          actorOf(request),
          request.body.reason,
        ),
      ),
  );
};
