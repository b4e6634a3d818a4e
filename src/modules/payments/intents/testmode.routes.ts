/**
 * Test-mode routes (docs/reference/payments.md). With `TEST_MODE` off every `/testmode/*` route answers 503.
 * The check is this plugin's onRequest hook, which runs before the route's own authentication
 * hook and before validation: with test mode off the routes are simply unavailable, to anyone and
 * whatever the body (nothing is revealed, no token is verified).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { AppError } from '../../../kernel/http/errors.ts';
import { created, ok } from '../../../kernel/http/respond.ts';
import { envelope, errorResponses, idParams, withReasons } from '../../../kernel/http/schemas.ts';
import type { PaymentsDeps } from '../deps.ts';
import { SELLER_EXAMPLE, Seller } from '../wallets/index.ts';
import {
  CreateTestIntentBody,
  CreateTestSellerBody,
  INTENT_EXAMPLE,
  Intent,
  SimulateBody,
} from './intents.schemas.ts';
import * as testmode from './testmode.service.ts';

const tags = ['Test mode'];

export const testModeRoutes: FastifyPluginAsyncTypebox<PaymentsDeps> = async (
  app,
  { db, config, outbox },
) => {
  app.addHook('onRequest', async () => {
    if (!config.testMode) throw new AppError('SERVICE_UNAVAILABLE', 'Test mode is off on this server');
  });

  app.post(
    '/testmode/sellers',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'createTestSeller',
        summary: 'Create a test seller',
        description:
          'Test mode only (503 when off). The wallet owner only (anyone else gets the 404 of an unknown ' +
          'id). A seller without OAuth or credentials (`provider_user_id` `test_…`), for test-mode ' +
          'intents.',
        body: CreateTestSellerBody,
        response: {
          201: envelope(Seller, SELLER_EXAMPLE, 'payments', 201),
          ...errorResponses(400, 401, 404, 503),
        },
      },
    },
    async (request, reply) =>
      created(request, reply, await testmode.createTestSeller(db, actorOf(request), request.body)),
  );

  app.post(
    '/testmode/intents/create',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'createTestIntent',
        summary: 'Create an intent in any status',
        description:
          'Test mode only (503 when off); no provider is contacted. The wallet owner only: anyone else ' +
          'gets the 404 of an unknown wallet, before the seller or sandbox is looked at. `seller_id` ' +
          'must be a seller of the wallet (404; revoked 409); a sandbox wallet takes only ' +
          '`sandbox: true` (409). Records the `payment.<status>` event like a provider event.',
        body: CreateTestIntentBody,
        response: {
          201: envelope(Intent, INTENT_EXAMPLE, 'payments', 201),
          ...errorResponses(400, 401, 404, withReasons(409, 'seller_revoked', 'sandbox_only'), 503),
        },
      },
    },
    async (request, reply) =>
      created(request, reply, await testmode.createTestIntent(db, outbox, actorOf(request), request.body)),
  );

  app.post(
    '/testmode/intents/:intent_id/simulate',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'simulateIntentStatus',
        summary: 'Simulate a provider status change',
        description:
          'Test mode only (503 when off). The owner of the intent’s wallet only (anyone else gets the ' +
          '404 of an unknown id). Moves the intent through the transition rule (409 with ' +
          '`meta: {from, to}` when refused) and records the event.',
        params: idParams('intent_id'),
        body: SimulateBody,
        response: {
          200: envelope(Intent, { ...INTENT_EXAMPLE, status: 'refunded' }, 'payments'),
          ...errorResponses(400, 401, 404, withReasons(409, 'invalid_transition'), 503),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await testmode.simulateIntent(db, outbox, request.params.intent_id, actorOf(request), request.body),
      ),
  );
};
