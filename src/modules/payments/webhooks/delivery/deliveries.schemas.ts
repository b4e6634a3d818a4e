/** Schemas of webhook deliveries and their attempts (docs/reference/webhooks.md, interface "Webhook delivery"). */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable, PageQuery, Uuid } from '../../../../kernel/http/schemas.ts';
import { DELIVERY_STATUSES } from './delivery.table.ts';

const DeliveryStatus = Type.Union(
  DELIVERY_STATUSES.map((status) => Type.Literal(status)),
  { description: DELIVERY_STATUSES.join(', ') },
);

/** The delivery of the interface document plus `wallet_id`, `last_error` and `next_attempt_at`. */
export const WebhookDelivery = Type.Object(
  {
    id: Uuid(),
    endpoint_id: Uuid(),
    event_id: Uuid({ description: 'the event delivered (its id is the `webhook-id` header)' }),
    wallet_id: Uuid(),
    status: Type.String({
      description: '`pending` (an attempt is due or in progress), `delivered` (a 2xx answer) or `failed`',
    }),
    attempts: Type.Integer({ description: 'attempts made so far' }),
    last_attempted_at: Nullable(
      DateTime({ description: 'when the last attempt started; null before the first' }),
    ),
    response_status: Nullable(
      Type.Integer({ description: 'HTTP status of the last answer; null when it got none' }),
    ),
    response_body: Nullable(Type.String({ description: 'the first 4 KiB of the last answer’s body' })),
    last_error: Nullable(
      Type.String({
        description:
          'why the last attempt got no answer (timeout, refused connection, …) or why the delivery ' +
          'ended without one (`endpoint disabled`); null otherwise',
      }),
    ),
    next_attempt_at: Nullable(
      DateTime({
        description:
          'when the next attempt is due (in the past while one is in progress); null once ' +
          '`delivered` or `failed`',
      }),
    ),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'WebhookDelivery' },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const DELIVERY_EXAMPLE = {
  id: '01937a50-8888-7000-8000-000000000080',
  endpoint_id: '01937a50-6666-7000-8000-000000000060',
  event_id: '01937a50-7777-7000-8000-000000000070',
  wallet_id: '01937a50-3333-7000-8000-000000000030',
  status: 'pending',
  attempts: 1,
  last_attempted_at: '2026-11-22T10:00:00.120Z',
  response_status: 503,
  response_body: 'maintenance',
  last_error: null,
  next_attempt_at: '2026-11-22T10:00:05.120Z',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.250Z',
};

/** A test event's delivery as `POST …/test` answers it: stored, due now, not yet attempted. */
export const TEST_DELIVERY_EXAMPLE = {
  ...DELIVERY_EXAMPLE,
  attempts: 0,
  last_attempted_at: null,
  response_status: null,
  response_body: null,
  next_attempt_at: DELIVERY_EXAMPLE.created_at,
  updated_at: DELIVERY_EXAMPLE.created_at,
};

export const DeliveryListQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(DeliveryStatus) },
  { additionalProperties: false },
);
export type DeliveryListQuery = Static<typeof DeliveryListQuery>;

export const WebhookAttempt = Type.Object(
  {
    attempt: Type.Integer({ description: 'the attempt’s number, from 1; retries continue the count' }),
    started_at: DateTime(),
    duration_ms: Type.Integer(),
    response_status: Nullable(Type.Integer({ description: 'null when no answer came' })),
    response_body: Nullable(Type.String({ description: 'the first 4 KiB of the answer’s body' })),
    error: Nullable(Type.String({ description: 'why no answer came (timeout, refused connection, …)' })),
  },
  { title: 'WebhookAttempt' },
);
export type WebhookAttempt = Static<typeof WebhookAttempt>;

export const ATTEMPT_EXAMPLE = {
  attempt: 1,
  started_at: '2026-11-22T10:00:00.120Z',
  duration_ms: 84,
  response_status: 503,
  response_body: 'maintenance',
  error: null,
};
