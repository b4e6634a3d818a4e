/**
 * Routes of docs/reference/webhooks.md for webhook deliveries: an endpoint's deliveries, one, its attempts, a
 * retry, and a replay of an endpoint's deliveries (a background job).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../../kernel/auth/plugin.ts';
import { accepted, ok, pageWindow, paginated } from '../../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  PageQuerySchema,
  withReasons,
} from '../../../../kernel/http/schemas.ts';
import type { PaymentsDeps } from '../../deps.ts';
import {
  ATTEMPT_EXAMPLE,
  DELIVERY_EXAMPLE,
  DeliveryListQuery,
  WebhookAttempt,
  WebhookDelivery,
} from './deliveries.schemas.ts';
import * as deliveries from './deliveries.service.ts';
import { QUEUED_REPLAY_EXAMPLE, ReplayAccepted, ReplayBody } from './replays.schemas.ts';
import * as replays from './replays.service.ts';

const tags = ['Webhook deliveries'];
const deliveryParams = idParams('delivery_id');

export const deliveryRoutes: FastifyPluginAsyncTypebox<PaymentsDeps> = async (app, { db, jobs }) => {
  app.get(
    '/webhooks/endpoints/:endpoint_id/deliveries',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: 'List a webhook endpoint’s deliveries',
        description:
          'The owner of the endpoint’s wallet only (anyone else gets the 404 of an unknown id). One ' +
          'delivery per event the endpoint took, newest first; `status` filters by one status ' +
          '(`pending`, `delivered`, `failed`).',
        params: idParams('endpoint_id'),
        querystring: DeliveryListQuery,
        response: {
          200: listEnvelope(WebhookDelivery, DELIVERY_EXAMPLE, 'payments'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await deliveries.listDeliveries(
          db,
          request.params.endpoint_id,
          actorOf(request),
          request.query.status,
          pageWindow(request.query),
        ),
      ),
  );

  app.get(
    '/webhooks/deliveries/:delivery_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getWebhookDelivery',
        summary: 'Read a webhook delivery',
        description:
          'The owner of the delivery’s wallet only (anyone else gets the 404 of an unknown id). The ' +
          'state of one event owed to one endpoint: status, attempts so far, the last answer ' +
          '(`response_status`, the first 4 KiB of `response_body`), why the last attempt got none ' +
          '(`last_error`), and when the next attempt is due (`next_attempt_at`).',
        params: deliveryParams,
        response: {
          200: envelope(WebhookDelivery, DELIVERY_EXAMPLE, 'payments'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      ok(request, await deliveries.getDelivery(db, request.params.delivery_id, actorOf(request))),
  );

  app.get(
    '/webhooks/deliveries/:delivery_id/attempts',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listWebhookDeliveryAttempts',
        summary: 'List a webhook delivery’s attempts',
        description:
          'The owner of the delivery’s wallet only (anyone else gets the 404 of an unknown id). Every ' +
          'attempt made, oldest first, numbered from 1 (manual retries continue the count): when it ' +
          'started, how long it took, the answer (status and the first 4 KiB of the body) or the `error` ' +
          'when none came.',
        params: deliveryParams,
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(WebhookAttempt, ATTEMPT_EXAMPLE, 'payments'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await deliveries.listAttempts(
          db,
          request.params.delivery_id,
          actorOf(request),
          pageWindow(request.query),
        ),
      ),
  );

  app.post(
    '/webhooks/deliveries/:delivery_id/retry',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'retryWebhookDelivery',
        summary: 'Retry a webhook delivery now',
        description:
          'The owner of the delivery’s wallet only (anyone else gets the 404 of an unknown id, before ' +
          'any state is looked at). A new attempt now, whatever the status: the delivery becomes ' +
          '`pending`, due now, with `last_error` cleared, and the workers are woken. Answers the ' +
          'delivery as it is after that; the attempt follows within moments (read the delivery or its ' +
          'attempts for the result). The attempt is numbered after the previous ones and the retry ' +
          'schedule is not reset: if it fails, the next attempt follows the schedule from the number of ' +
          'attempts reached, so a delivery that had already used the whole schedule (a `failed` one, ' +
          'usually) ends `failed` again after this one attempt. 409 while an attempt is in progress ' +
          '(`reason: attempt_in_progress`), and while the endpoint is disabled ' +
          '(`reason: endpoint_disabled`: enable it first).',
        params: deliveryParams,
        response: {
          200: envelope(
            WebhookDelivery,
            {
              ...DELIVERY_EXAMPLE,
              status: 'pending',
              attempts: 3,
              response_status: 500,
              response_body: 'internal error',
              next_attempt_at: '2026-11-22T11:00:00.000Z',
              updated_at: '2026-11-22T11:00:00.000Z',
            },
            'payments',
          ),
          ...errorResponses(400, 401, 404, withReasons(409, 'endpoint_disabled', 'attempt_in_progress')),
        },
      },
    },
    async (request) =>
      ok(request, await deliveries.retryDelivery(db, request.params.delivery_id, actorOf(request))),
  );
  app.post(
    '/webhooks/endpoints/:endpoint_id/replay',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'replayWebhookDeliveries',
        summary: 'Replay an endpoint’s deliveries (background job)',
        description:
          'The owner of the endpoint’s wallet only (anyone else gets the 404 of an unknown id, before any ' +
          'state is looked at). Sends again every delivery of this endpoint created in [`since`, `until`) ' +
          '(`until` defaults to now) whose status is `status`: `failed` (the default), `delivered`, or ' +
          '`all` (both; a `pending` delivery is owed an attempt already and is never replayed). Answers 202 ' +
          'with `job_id` at once; a background job makes each matching delivery due now, as ' +
          '`POST /webhooks/deliveries/{delivery_id}/retry` does (one new attempt, numbered after the last; ' +
          'the schedule is not reset), at most once per delivery in one replay, even across a crash of the ' +
          'process running it, and never while an attempt of that delivery is in progress (such a ' +
          'delivery is counted `skipped`). Follow the progress at `GET /jobs/{job_id}`. `until` earlier ' +
          'than `since` (or `since` in the future without `until`) is a 400 naming the field; a disabled ' +
          'endpoint is 409 (`reason: endpoint_disabled`: enable it first), and a replay whose endpoint is ' +
          'disabled while it runs stops `failed`.',
        params: idParams('endpoint_id'),
        body: ReplayBody,
        response: {
          202: envelope(
            ReplayAccepted,
            { job_id: QUEUED_REPLAY_EXAMPLE.id, job: QUEUED_REPLAY_EXAMPLE },
            'payments',
            202,
          ),
          ...errorResponses(400, 401, 404, withReasons(409, 'endpoint_disabled')),
        },
      },
    },
    async (request, reply) =>
      accepted(
        request,
        reply,
        await replays.startReplay(
          { db, wakeJobs: () => jobs.wake() },
          request.params.endpoint_id,
          actorOf(request),
          request.body,
        ),
      ),
  );
};
