/**
 * The bodies the service POSTs to a wallet's webhook endpoints (docs/reference/webhooks.md and
 * docs/reference/checkout.md), one schema per event type, and their description for the OpenAPI document's
 * `webhooks` section, so that code generators type what a subscriber receives. The delivery worker sends
 * exactly these fields (`delivery.worker.ts` picks them from the stored payload by the same lists).
 */
import { type TSchema, Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../../kernel/http/schemas.ts';
import { RegistrationEventData } from '../../../../kernel/payments-port.ts';
import { INTENT_STATUS_DETAILS, INTENT_STATUSES } from '../../intents/index.ts';
import { WEBHOOK_EVENT_TYPES } from '../endpoints/endpoints.schemas.ts';
import { PAYMENT_EVENT_EXAMPLE } from './webhook-events.schemas.ts';

/** The event `POST /webhooks/endpoints/{endpoint_id}/test` sends; never sent otherwise. */
export const WEBHOOK_TEST_TYPE = 'webhook.test';

/** The `data` of `webhook.test`, as stored and sent. */
export const TEST_DATA_FIELDS = ['event_id', 'wallet_id', 'endpoint_id', 'message'] as const;

/** What a `webhook.test` delivery says. */
export const TEST_MESSAGE = 'A test event from Convene: this endpoint receives and verifies webhooks.';

const PaymentData = Type.Object(
  {
    event_id: Uuid({ description: 'the event id (also the `webhook-id` header)' }),
    intent_id: Uuid(),
    wallet_id: Uuid(),
    provider: Type.String({ examples: ['mercadopago'] }),
    external_id: Nullable(Type.String({ description: 'the provider’s payment id, when known' })),
    status: Type.Union(INTENT_STATUSES.map((status) => Type.Literal(status))),
    status_detail: Nullable(Type.Union(INTENT_STATUS_DETAILS.map((detail) => Type.Literal(detail)))),
    amount_cents: Type.Integer({ minimum: 1 }),
    currency: Type.String({ minLength: 3, maxLength: 3, examples: ['BRL'] }),
    sandbox: Type.Boolean(),
    metadata: Type.Object({}, { additionalProperties: true }),
  },
  {
    title: 'PaymentEventData',
    additionalProperties: false,
    description: 'the intent as it was when the event was recorded',
  },
);

const TestData = Type.Object(
  {
    event_id: Uuid({ description: 'the event id (also the `webhook-id` header)' }),
    wallet_id: Uuid(),
    endpoint_id: Uuid({ description: 'the endpoint the test was sent to' }),
    message: Type.String(),
  },
  { additionalProperties: false },
);

const body = (type: string, data: TSchema) =>
  Type.Object(
    { type: Type.Literal(type), timestamp: DateTime({ description: 'when the event was recorded' }), data },
    { additionalProperties: false },
  );

const PAYMENT_DESCRIPTION: Record<(typeof INTENT_STATUSES)[number], string> = {
  pending: 'An intent was created, or went back to pending.',
  processing: 'The provider is processing the payment.',
  succeeded: 'The payment was approved.',
  rejected: 'The provider refused the payment (`status_detail` says why).',
  cancelled: 'The intent was cancelled before it was paid.',
  failed: 'The payment failed.',
  refunded: 'The payment was refunded (fully or in part) or charged back.',
};

const REGISTRATION_DESCRIPTION: Record<string, string> = {
  'registration.confirmed': 'A paid registration is confirmed: its checkout payment succeeded.',
  'registration.expired': 'A paid registration’s hold expired before it was paid; the seat is free again.',
  'registration.refunded': 'A paid registration was refunded and cancelled.',
};

const HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'the event id; the same on every retry, so a receiver can drop duplicates',
    schema: { type: 'string', format: 'uuid' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'when this attempt was signed, in unix seconds; refuse one too far from now',
    schema: { type: 'string', pattern: '^[0-9]+$', examples: ['1795860000'] },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed by the base64-decoded ' +
      'part of the endpoint’s `whsec_` secret; two, space-separated, during a rotation (Standard Webhooks)',
    schema: { type: 'string', examples: ['v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='] },
  },
];

function examplePayload(type: string): unknown {
  const timestamp = '2026-11-22T10:00:00.000Z';
  if (type === WEBHOOK_TEST_TYPE) {
    return {
      type,
      timestamp,
      data: {
        event_id: PAYMENT_EVENT_EXAMPLE.id,
        wallet_id: '01937a50-3333-7000-8000-000000000030',
        endpoint_id: '01937a50-6666-7000-8000-000000000061',
        message: TEST_MESSAGE,
      },
    };
  }
  if (type.startsWith('registration.')) {
    return {
      type,
      timestamp,
      data: {
        registration_id: '01937a50-9999-7000-8000-000000000090',
        edition_id: '01937a4e-8f2b-7c3d-9e4f-5a6b7c8d9e10',
        event_id: '01937a4e-8f2b-7c3d-9e4f-5a6b7c8d9e0f',
        ticket_type_id: '01937a50-aaaa-7000-8000-0000000000a0',
        user_id: 'auth0|ana',
        intent_id: '01937a50-6666-7000-8000-000000000060',
      },
    };
  }
  const status = type.slice('payment.'.length);
  return {
    type,
    timestamp,
    // The stored event's payload is what is sent: the same example, in this type's status.
    data: {
      ...PAYMENT_EVENT_EXAMPLE.payload,
      status,
      status_detail: status === 'rejected' ? 'insufficient_funds' : null,
    },
  };
}

/** The schema of the body of each event type. */
export const WEBHOOK_BODIES: Record<string, TSchema> = Object.fromEntries([
  ...WEBHOOK_EVENT_TYPES.map((type) => [
    type,
    body(type, type.startsWith('registration.') ? RegistrationEventData : PaymentData),
  ]),
  [WEBHOOK_TEST_TYPE, body(WEBHOOK_TEST_TYPE, TestData)],
]);

function meaningOf(type: string): string {
  if (type === WEBHOOK_TEST_TYPE) {
    return 'Sent only by `POST /webhooks/endpoints/{endpoint_id}/test`, to that endpoint, whatever its `event_types`.';
  }
  if (type.startsWith('registration.')) return REGISTRATION_DESCRIPTION[type] ?? '';
  return PAYMENT_DESCRIPTION[type.slice('payment.'.length) as keyof typeof PAYMENT_DESCRIPTION];
}

/** `operationId` of a webhook: `payment.succeeded` → `onPaymentSucceeded`. */
const operationIdOf = (type: string) =>
  `on${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}`;

/** The document's `webhooks`: one POST per event type, its headers, body and the answers it expects. */
export function webhookDocumentation(): Record<string, object> {
  return Object.fromEntries(
    Object.entries(WEBHOOK_BODIES).map(([type, schema]) => [
      type,
      {
        post: {
          operationId: operationIdOf(type),
          summary: type,
          description:
            `${meaningOf(type)} Delivered to each enabled endpoint of the wallet that takes this type, ` +
            'signed per the Standard Webhooks specification; retried on the schedule until a 2xx.',
          tags: ['Webhook events'],
          security: [],
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: { 'application/json': { schema, example: examplePayload(type) } },
          },
          responses: {
            '2XX': { description: 'Received: the delivery is `delivered`' },
            '410': { description: 'Gone: the endpoint is disabled and gets nothing more' },
            '4XX': { description: 'Any other answer is a failed attempt, retried on the schedule' },
          },
        },
      },
    ]),
  );
}
