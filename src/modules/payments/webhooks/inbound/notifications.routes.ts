/** Route of docs/reference/webhooks.md for inbound provider notifications. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../../../kernel/http/respond.ts';
import { ErrorEnvelope, envelope, errorResponses } from '../../../../kernel/http/schemas.ts';
import { ProviderParams } from '../../connections/index.ts';
import type { PaymentsDeps } from '../../deps.ts';
import {
  NOTIFICATION_RECEIPT_EXAMPLE,
  NotificationBody,
  NotificationHeaders,
  NotificationQuery,
  NotificationReceipt,
} from './notifications.schemas.ts';
import * as notifications from './notifications.service.ts';

const tags = ['Provider notifications'];

export const notificationRoutes: FastifyPluginAsyncTypebox<PaymentsDeps> = async (
  app,
  { db, config, outbox },
) => {
  app.post(
    '/webhooks/:provider',
    {
      // The legacy form carries everything in the query string: no body reads as `{}`.
      config: { bodyOptional: true },
      schema: {
        tags,
        operationId: 'receiveProviderNotification',
        summary: 'Receive a provider notification',
        description:
          'Public: the provider calls it, authenticated by its signature, not a bearer token. Provider ' +
          'slug: `mercadopago` (other: 404). The `x-signature` (`ts=…,v1=…`) must be the hex ' +
          'HMAC-SHA256, keyed with `MERCADOPAGO_WEBHOOK_SECRET`, of ' +
          '`id:<data.id>;request-id:<x-request-id>;ts:<ts>;` (`data.id` from the query string, else ' +
          'the body; an alphanumeric id lower-cased, or as sent as the official SDK signs it), with ' +
          '`ts` (seconds or milliseconds) within 5 minutes of now: 401 otherwise. Without ' +
          '`MERCADOPAGO_WEBHOOK_SECRET` the route answers 503 (fail closed: nothing is accepted ' +
          'unverified). Only `type: payment` is processed: the ' +
          'payment is fetched from the provider with the seller’s token, its status mapped and the ' +
          'intent moved by the transition rule, with its event and deliveries. The answer is 200 with ' +
          'the `outcome`; a duplicate (the intent already has that status) creates nothing. 502 when ' +
          'the provider fails, so that it retries; nothing is recorded then. Unknown fields and query ' +
          'parameters are accepted; no body (the legacy query-only form) reads as `{}`.',
        params: ProviderParams,
        querystring: NotificationQuery,
        headers: NotificationHeaders,
        body: NotificationBody,
        response: {
          200: envelope(NotificationReceipt, NOTIFICATION_RECEIPT_EXAMPLE, 'payments'),
          ...errorResponses(400, 404, 502, 503),
          401: {
            ...ErrorEnvelope,
            description: 'Missing, malformed or wrong `x-signature`, or `ts` more than 5 minutes from now',
          },
        },
      },
    },
    async (request) =>
      ok(
        request,
        await notifications.receiveNotification(db, config, outbox, request.params.provider, {
          headers: request.headers,
          query: request.query,
          body: request.body,
        }),
      ),
  );
};
