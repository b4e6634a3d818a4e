/** Routes of docs/reference/payments.md outside test mode: the wallet's intents, one intent, cancellation. */
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
import { INTENT_EXAMPLE, Intent, IntentListQuery, RefundIntentBody } from './intents.schemas.ts';
import * as intents from './intents.service.ts';

const tags = ['Intents'];

export const intentRoutes: FastifyPluginAsyncTypebox<PaymentsDeps> = async (app, { db, outbox, refunds }) => {
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

  app.post(
    '/intents/:intent_id/refund',
    {
      config: { auth: 'required', bodyOptional: true },
      schema: {
        tags,
        operationId: 'refundIntent',
        summary: 'Refund an intent',
        description:
          'The owner of its wallet only (404 for anyone else). Refunds a `succeeded` intent at Mercado Pago ' +
          'with the seller’s token and an idempotency key: all that is left by default, or `amount_cents`. A ' +
          'partial refund keeps `succeeded` and raises `refunded_cents`; refunding the rest moves it to ' +
          '`refunded` (a `payment.refunded` event; a paid registration becomes `refunded`); `refunded_cents` ' +
          'grows by what Mercado Pago answers it gave back. 409 for another status, more than is left, no ' +
          'provider payment (`no_provider_payment`), or while another refund of the intent is in flight or ' +
          'being confirmed (`refund_in_progress`; the provider is then not asked). 502 when the provider ' +
          'refuses (nothing changes), or with `error.reason` `refund_unconfirmed` when it fails without ' +
          'saying whether it refunded: the refund stays reserved and a job asks again with the same key until ' +
          'Mercado Pago answers (never refunding twice); read the intent again later.',
        params: idParams('intent_id'),
        body: RefundIntentBody,
        response: {
          200: envelope(Intent, { ...INTENT_EXAMPLE, status: 'succeeded', refunded_cents: 1000 }, 'payments'),
          ...errorResponses(
            400,
            401,
            404,
            withReasons(
              409,
              'no_seller_credentials',
              'not_refundable',
              'refund_in_progress',
              'refund_exceeds_amount',
              'no_provider_payment',
            ),
            withReasons(502, 'refund_unconfirmed'),
          ),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await intents.refund(refunds, request.params.intent_id, actorOf(request), request.body.amount_cents),
      ),
  );
};
