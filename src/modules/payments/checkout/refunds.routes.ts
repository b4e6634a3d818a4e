/**
 * The refund route of docs/reference/checkout.md (`POST /intents/{intent_id}/refund`): a refund is
 * checkout's (`refunds.ts`), so is its route; it keeps its `Intents` tag and its place (registered
 * right after the intent routes).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { ok } from '../../../kernel/http/respond.ts';
import { envelope, errorResponses, idParams, withReasons } from '../../../kernel/http/schemas.ts';
import type { PaymentsDeps } from '../deps.ts';
import { INTENT_EXAMPLE, Intent, RefundIntentBody } from '../intents/index.ts';
import * as refunds from './refunds.ts';

const tags = ['Intents'];

/** What the refund route is given besides the module's deps: what a refund needs. */
export interface RefundRoutesDeps extends PaymentsDeps {
  refunds: refunds.RefundContext;
}

export const refundRoutes: FastifyPluginAsyncTypebox<RefundRoutesDeps> = async (
  app,
  { refunds: context },
) => {
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
        await refunds.refundAsOwner(
          context,
          request.params.intent_id,
          actorOf(request),
          request.body.amount_cents,
        ),
      ),
  );
};
