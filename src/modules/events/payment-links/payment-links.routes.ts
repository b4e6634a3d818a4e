/** Routes of docs/reference/checkout.md, events side: the event's payment link. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { ok } from '../../../kernel/http/respond.ts';
import { envelope, errorResponses, idParams, withReasons } from '../../../kernel/http/schemas.ts';
import type { EventsDeps } from '../deps.ts';
import { PAYMENT_LINK_EXAMPLE, PaymentLink, PutPaymentLinkBody } from './payment-links.schemas.ts';
import * as links from './payment-links.service.ts';

const tags = ['Paid tickets'];

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
};
