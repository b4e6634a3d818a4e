/** Routes of contract 7.3 for webhook endpoints (subscribers of a wallet). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../../kernel/auth/plugin.ts';
import { created, ok, pageWindow, paginated } from '../../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  PageQuerySchema,
} from '../../../../kernel/http/schemas.ts';
import type { PaymentsDeps } from '../../deps.ts';
import {
  CreateEndpointBody,
  ENDPOINT_EXAMPLE,
  ENDPOINT_WITH_SECRET_EXAMPLE,
  UpdateEndpointBody,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from './endpoints.schemas.ts';
import * as endpoints from './endpoints.service.ts';

const tags = ['payments'];
const walletParams = idParams('wallet_id');
const endpointParams = idParams('endpoint_id');

export const endpointRoutes: FastifyPluginAsyncTypebox<PaymentsDeps> = async (app, deps) => {
  app.post(
    '/wallets/:wallet_id/webhooks/endpoints',
    {
      config: { auth: 'required' },
      schema: {
        tags,
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
        summary: 'Read a webhook endpoint',
        description:
          'The owner of the endpoint’s wallet only (anyone else gets the 404 of an unknown id). No ' +
          'secret.',
        params: endpointParams,
        response: {
          200: envelope(WebhookEndpoint, ENDPOINT_EXAMPLE, 'payments'),
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
};
