/** Routes of docs/reference/webhooks.md for webhook endpoints (subscribers of a wallet). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../../kernel/auth/plugin.ts';
import { accepted, created, ok, pageWindow, paginated } from '../../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  PageQuerySchema,
  withReasons,
} from '../../../../kernel/http/schemas.ts';
import type { PaymentsDeps } from '../../deps.ts';
import { TEST_DELIVERY_EXAMPLE, WebhookDelivery } from '../delivery/deliveries.schemas.ts';
import {
  CreateEndpointBody,
  ENDPOINT_EXAMPLE,
  ENDPOINT_WITH_HEALTH_EXAMPLE,
  ENDPOINT_WITH_SECRET_EXAMPLE,
  UpdateEndpointBody,
  WebhookEndpoint,
  WebhookEndpointWithHealth,
  WebhookEndpointWithSecret,
} from './endpoints.schemas.ts';
import * as endpoints from './endpoints.service.ts';

const tags = ['Webhook endpoints'];
const walletParams = idParams('wallet_id');
const endpointParams = idParams('endpoint_id');

export const endpointRoutes: FastifyPluginAsyncTypebox<PaymentsDeps> = async (app, deps) => {
  app.post(
    '/wallets/:wallet_id/webhooks/endpoints',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'createWebhookEndpoint',
        summary: 'Register a webhook endpoint',
        description:
          'The owner of the wallet only (anyone else gets the 404 of an unknown id). `event_types` ' +
          'absent means every type. Answers the endpoint with its signing `secret` (`whsec_…`), shown ' +
          'this once. When private targets are not allowed, a URL whose host is or resolves to anything ' +
          'but a public unicast address (loopback, private, link-local, multicast or another ' +
          'special-purpose range, also inside an IPv6 form) is a 400 naming `url`.',
        params: walletParams,
        body: CreateEndpointBody,
        response: {
          201: envelope(WebhookEndpointWithSecret, ENDPOINT_WITH_SECRET_EXAMPLE, 'payments', 201),
          ...errorResponses(400, 401, 404, 503),
        },
      },
    },
    async (request, reply) =>
      created(
        request,
        reply,
        await endpoints.createEndpoint(deps, request.params.wallet_id, actorOf(request), request.body),
      ),
  );

  app.get(
    '/wallets/:wallet_id/webhooks/endpoints',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listWebhookEndpoints',
        summary: 'List the wallet’s webhook endpoints',
        description:
          'The owner of the wallet only (anyone else gets the 404 of an unknown id). Newest first; ' +
          'secrets never shown.',
        params: walletParams,
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(WebhookEndpoint, ENDPOINT_EXAMPLE, 'payments'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await endpoints.listEndpoints(
          deps,
          request.params.wallet_id,
          actorOf(request),
          pageWindow(request.query),
        ),
      ),
  );

  app.get(
    '/webhooks/endpoints/:endpoint_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getWebhookEndpoint',
        summary: 'Read a webhook endpoint',
        description:
          'The owner of the endpoint’s wallet only (anyone else gets the 404 of an unknown id). No ' +
          'secret. With its `health`: the recent success rate, the failed attempts in a row and whether ' +
          'its circuit breaker has paused it.',
        params: endpointParams,
        response: {
          200: envelope(WebhookEndpointWithHealth, ENDPOINT_WITH_HEALTH_EXAMPLE, 'payments'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      ok(request, await endpoints.getEndpoint(deps, request.params.endpoint_id, actorOf(request))),
  );

  app.patch(
    '/webhooks/endpoints/:endpoint_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'updateWebhookEndpoint',
        summary: 'Change a webhook endpoint',
        description:
          'The owner of the endpoint’s wallet only (anyone else gets the 404 of an unknown id). At least ' +
          'one field; `event_types: null` means every type; a new `url` is checked like on creation; ' +
          'enabling clears `disabled_reason`.',
        params: endpointParams,
        body: UpdateEndpointBody,
        response: {
          200: envelope(WebhookEndpoint, { ...ENDPOINT_EXAMPLE, enabled: false }, 'payments'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await endpoints.updateEndpoint(deps, request.params.endpoint_id, actorOf(request), request.body),
      ),
  );

  app.delete(
    '/webhooks/endpoints/:endpoint_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint',
        description:
          'The owner of the endpoint’s wallet only (anyone else gets the 404 of an unknown id). Answers ' +
          'the deleted endpoint.',
        params: endpointParams,
        response: {
          200: envelope(WebhookEndpoint, ENDPOINT_EXAMPLE, 'payments'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      ok(request, await endpoints.deleteEndpoint(deps, request.params.endpoint_id, actorOf(request))),
  );

  app.post(
    '/webhooks/endpoints/:endpoint_id/rotate-secret',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'rotateWebhookEndpointSecret',
        summary: 'Rotate a webhook endpoint’s secret',
        description:
          'The owner of the endpoint’s wallet only (anyone else gets the 404 of an unknown id). Answers ' +
          'the endpoint with the new `secret`, shown once; the old secret keeps signing alongside for 24 ' +
          'hours.',
        params: endpointParams,
        response: {
          200: envelope(WebhookEndpointWithSecret, ENDPOINT_WITH_SECRET_EXAMPLE, 'payments'),
          ...errorResponses(400, 401, 404, 503),
        },
      },
    },
    async (request) =>
      ok(request, await endpoints.rotateSecret(deps, request.params.endpoint_id, actorOf(request))),
  );

  app.post(
    '/webhooks/endpoints/:endpoint_id/test',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'sendTestWebhook',
        summary: 'Send a test event to a webhook endpoint',
        description:
          'The owner of the endpoint’s wallet only (anyone else gets the 404 of an unknown id). Sends a ' +
          '`webhook.test` event (see the `webhooks` section), signed with the endpoint’s secret, through ' +
          'the normal delivery path: stored, attempted at once, retried on the schedule, recorded. ' +
          'Sent whatever the endpoint’s `event_types`; a disabled endpoint is 409. Answers the delivery ' +
          '(202, `pending`); `GET /webhooks/deliveries/{delivery_id}` shows how it went.',
        params: endpointParams,
        response: {
          202: envelope(WebhookDelivery, TEST_DELIVERY_EXAMPLE, 'payments', 202),
          ...errorResponses(400, 401, 404, withReasons(409, 'endpoint_disabled')),
        },
      },
    },
    async (request, reply) =>
      accepted(
        request,
        reply,
        await endpoints.sendTestEvent(deps, request.params.endpoint_id, actorOf(request)),
      ),
  );
};
