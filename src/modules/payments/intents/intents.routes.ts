/**
 * Routes of docs/reference/payments.md outside test mode: the wallet's intents, one intent,
 * cancellation (an intent's refund: `checkout/refunds.routes.ts`).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { ok, pageWindow, paginated } from '../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  withReasons,
} from '../../../kernel/http/schemas.ts';
import type { PaymentsDeps } from '../deps.ts';
import { INTENT_EXAMPLE, Intent, IntentListQuery } from './intents.schemas.ts';
import * as intents from './intents.service.ts';

const tags = ['Intents'];

export const intentRoutes: FastifyPluginAsyncTypebox<PaymentsDeps> = async (app, { db, outbox }) => {
  app.get(
    '/wallets/:wallet_id/intents',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listIntents',
        summary: 'List the wallet’s intents',
        description:
          'The wallet owner only (anyone else gets the 404 of an unknown id). Newest first; `status` ' +
          'filters by one status.',
        params: idParams('wallet_id'),
        querystring: IntentListQuery,
        response: {
          200: listEnvelope(Intent, INTENT_EXAMPLE, 'payments'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await intents.listIntents(
          db,
          request.params.wallet_id,
          actorOf(request),
          request.query.status,
          pageWindow(request.query),
        ),
      ),
  );

  app.get(
    '/intents/:intent_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getIntent',
        summary: 'Read an intent',
        description:
          'The owner of its wallet only; anyone else gets the 404 of an unknown id, so its existence is ' +
          'not revealed.',
        params: idParams('intent_id'),
        response: {
          200: envelope(Intent, INTENT_EXAMPLE, 'payments'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => ok(request, await intents.getIntent(db, request.params.intent_id, actorOf(request))),
  );

  app.post(
    '/intents/:intent_id/cancel',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'cancelIntent',
        summary: 'Cancel an intent',
        description:
          'The owner of its wallet only (anyone else gets the 404 of an unknown id, before the status is ' +
          'looked at). Only from `pending` or `processing` (409 otherwise, with `meta: {from, to}`); ' +
          'records a `payment.cancelled` event.',
        params: idParams('intent_id'),
        response: {
          200: envelope(Intent, { ...INTENT_EXAMPLE, status: 'cancelled' }, 'payments'),
          ...errorResponses(400, 401, 404, withReasons(409, 'invalid_transition')),
        },
      },
    },
    async (request) =>
      ok(request, await intents.cancelIntent(db, outbox, request.params.intent_id, actorOf(request))),
  );
};
