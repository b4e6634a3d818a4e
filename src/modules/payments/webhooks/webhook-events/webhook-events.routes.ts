/** Routes of docs/reference/webhooks.md for the stored normalized payment events of a wallet. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../../kernel/auth/plugin.ts';
import { ok, pageWindow, paginated } from '../../../../kernel/http/respond.ts';
import { envelope, errorResponses, idParams, listEnvelope } from '../../../../kernel/http/schemas.ts';
import type { PaymentsDeps } from '../../deps.ts';
import { EventListQuery, PAYMENT_EVENT_EXAMPLE, PaymentEvent } from './webhook-events.schemas.ts';
import * as events from './webhook-events.service.ts';

const tags = ['Webhook events'];

export const webhookEventRoutes: FastifyPluginAsyncTypebox<PaymentsDeps> = async (app, { db }) => {
  app.get(
    '/wallets/:wallet_id/webhooks/events',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listWebhookEvents',
        summary: 'List the wallet’s payment events',
        description:
          'The owner of the wallet only (anyone else gets the 404 of an unknown id). The normalized ' +
          'events (`payment.<status>`) recorded for the wallet’s intents, newest first, whether or not ' +
          'any endpoint took them. `type` filters by one event type, `intent_id` by one intent. ' +
          '`payload` is the `data` object subscribers receive.',
        params: idParams('wallet_id'),
        querystring: EventListQuery,
        response: {
          200: listEnvelope(PaymentEvent, PAYMENT_EVENT_EXAMPLE, 'payments'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => {
      const { type, intent_id } = request.query;
      return paginated(
        request,
        await events.listEvents(
          db,
          request.params.wallet_id,
          actorOf(request),
          { type, intentId: intent_id },
          pageWindow(request.query),
        ),
      );
    },
  );

  app.get(
    '/webhooks/events/:event_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getWebhookEvent',
        summary: 'Read a payment event',
        description:
          'The owner of the event’s wallet only; anyone else gets the 404 of an unknown id, so its ' +
          'existence is not revealed.',
        params: idParams('event_id'),
        response: {
          200: envelope(PaymentEvent, PAYMENT_EVENT_EXAMPLE, 'payments'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => ok(request, await events.getEvent(db, request.params.event_id, actorOf(request))),
  );
};
