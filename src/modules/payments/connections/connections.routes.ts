/** Routes of docs/reference/payments.md for provider connections: OAuth connect and callback, collectors, revoke. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { ok, pageWindow, paginated } from '../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  listEnvelope,
  PageQuerySchema,
  withReasons,
} from '../../../kernel/http/schemas.ts';
import type { PaymentsDeps } from '../deps.ts';
import {
  CallbackQuery,
  COLLECTOR_EXAMPLE,
  CONNECT_EXAMPLE,
  Collector,
  ConnectBody,
  ConnectResult,
  ProviderParams,
  REVOKE_EXAMPLE,
  RevokeBody,
  RevokeResult,
} from './connections.schemas.ts';
import * as connections from './connections.service.ts';

const tags = ['Provider connections'];

export const connectionRoutes: FastifyPluginAsyncTypebox<PaymentsDeps> = async (app, { db, config }) => {
  app.post(
    '/providers/:provider/connect',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'connectProvider',
        summary: 'Start a provider OAuth connection',
        description:
          'Returns the provider consent URL (PKCE S256, a single-use `state` valid for 10 minutes; the ' +
          'redirect URI is `PUBLIC_BASE_URL/providers/{provider}/callback`). `flow: seller` needs ' +
          '`wallet_id` of a wallet the caller owns (someone else’s is the 404 of an unknown one). ' +
          'Provider slug: `mercadopago` (other: 404). 503 when the OAuth application is not configured.',
        params: ProviderParams,
        body: ConnectBody,
        response: {
          200: envelope(ConnectResult, CONNECT_EXAMPLE, 'payments'),
          ...errorResponses(400, 401, 404, 503),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await connections.connect(db, config, request.params.provider, actorOf(request), request.body),
      ),
  );

  app.get(
    '/providers/:provider/callback',
    {
      schema: {
        tags,
        operationId: 'completeProviderConnection',
        summary: 'Provider OAuth callback',
        description:
          'Public: the provider sends the user here. Exchanges the code, stores the collector or seller ' +
          '(credentials encrypted) and answers 302 to `final_redirect_url` with ' +
          '`status=connected&flow=…&credential_id=…` appended, or `status=error&error=…` ' +
          '(`access_denied`, `invalid_request`, `provider_error`). An unknown, used or expired state is ' +
          'a 400 envelope with no redirect. Unknown query parameters are ignored, as OAuth 2.0 asks of ' +
          'a client (RFC 6749, 4.1.2): the provider writes this query, not an API client.',
        params: ProviderParams,
        querystring: CallbackQuery,
        response: {
          302: Type.Null({
            description: 'Redirect to the caller `final_redirect_url` (no body)',
            examples: [null],
          }),
          ...errorResponses(withReasons(400, 'oauth_state_invalid'), 404, 503),
        },
      },
    },
    async (request, reply) => {
      const location = await connections.completeCallback(db, config, request.params.provider, request.query);
      return reply.redirect(location, 302);
    },
  );

  app.get(
    '/collectors',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listMyCollectors',
        summary: 'List my collectors',
        description:
          'The caller collectors, newest first, revoked ones included. Credentials are never shown.',
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(Collector, COLLECTOR_EXAMPLE, 'payments'),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) =>
      paginated(request, await connections.listCollectors(db, actorOf(request), pageWindow(request.query))),
  );

  app.post(
    '/providers/:provider/revoke',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'revokeProviderConnection',
        summary: 'Revoke a collector or seller',
        description:
          'The collector owner, or for a seller the wallet owner; anyone else gets the 404 of an unknown id. ' +
          'Sets `revoked_at` and erases the stored credentials; 409 when already revoked.',
        params: ProviderParams,
        body: RevokeBody,
        response: {
          200: envelope(RevokeResult, REVOKE_EXAMPLE, 'payments'),
          ...errorResponses(400, 401, 404, withReasons(409, 'already_revoked')),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await connections.revoke(db, config, request.params.provider, actorOf(request), request.body),
      ),
  );
};
