/** Schemas of webhook endpoints (docs/reference/webhooks.md). The secret appears only in the create/rotate answers. */
import { type Static, Type } from 'typebox';
import { DateTime, HttpUrl, Nullable, Uuid } from '../../../../kernel/http/schemas.ts';
import { INTENT_STATUSES } from '../../intents/index.ts';

/** The event types a subscriber may pick: one per intent status, and the paid registrations' (docs/reference/checkout.md). */
export const WEBHOOK_EVENT_TYPES = [
  ...INTENT_STATUSES.map((status) => `payment.${status}` as const),
  'registration.confirmed',
  'registration.expired',
  'registration.refunded',
] as const;

export const EventType = Type.Union(
  WEBHOOK_EVENT_TYPES.map((type) => Type.Literal(type)),
  {
    description:
      'a payment event type (`payment.<intent status>`) or a paid registration’s (`registration.confirmed`, ' +
      '`registration.expired`, `registration.refunded`)',
  },
);
const EventTypes = Type.Array(EventType, {
  minItems: 1,
  maxItems: WEBHOOK_EVENT_TYPES.length,
  uniqueItems: true,
  description: 'the event types delivered to this endpoint',
});

export const WebhookEndpoint = Type.Object(
  {
    id: Uuid(),
    wallet_id: Uuid(),
    name: Type.String(),
    url: Type.String(),
    enabled: Type.Boolean(),
    event_types: Nullable(Type.Array(Type.String())),
    disabled_reason: Nullable(Type.String()),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'WebhookEndpoint' },
);
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

/** An endpoint's health state (its circuit breaker's, and whether its last attempt failed). */
export const ENDPOINT_STATES = ['healthy', 'failing', 'paused', 'probing'] as const;

export const EndpointHealth = Type.Object(
  {
    state: Type.Enum([...ENDPOINT_STATES], {
      description:
        '`healthy`: the last attempt succeeded (or none was made); `failing`: failed attempts in a row, ' +
        'fewer than the breaker allows; `paused`: the circuit breaker is open, no attempt before ' +
        '`paused_until`; `probing`: the pause is over, one attempt at a time tries the endpoint until one ' +
        'succeeds',
    }),
    since: DateTime({ description: 'the start of the previous clock hour: the counts below are since then' }),
    attempts: Type.Integer({ minimum: 0, description: 'attempts made to this endpoint since `since`' }),
    success_rate: Nullable(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'the share of those attempts answered 2xx; null when there were none',
      }),
    ),
    consecutive_failures: Type.Integer({ minimum: 0, description: 'failed attempts since the last success' }),
    paused_until: Nullable(DateTime({ description: 'while paused, when attempts resume' })),
  },
  {
    description:
      'How the endpoint has been answering, kept by the delivery worker. After WEBHOOK_BREAKER_FAILURES ' +
      'failed attempts in a row the endpoint is paused for WEBHOOK_BREAKER_PAUSE_MS, doubled at each ' +
      'pause in a row: its deliveries wait (none is lost or attempted more often than the retry schedule ' +
      'says) while other endpoints are served.',
  },
);

export const WebhookEndpointWithHealth = Type.Object(
  {
    ...WebhookEndpoint.properties,
    health: EndpointHealth,
  },
  { title: 'WebhookEndpointWithHealth' },
);
export type WebhookEndpointWithHealth = Static<typeof WebhookEndpointWithHealth>;

export const WebhookEndpointWithSecret = Type.Object(
  {
    ...WebhookEndpoint.properties,
    secret: Type.String({ description: 'the signing secret (`whsec_…`), shown this once' }),
  },
  { title: 'WebhookEndpointWithSecret' },
);

export const ENDPOINT_EXAMPLE = {
  id: '01937a50-6666-7000-8000-000000000060',
  wallet_id: '01937a50-3333-7000-8000-000000000030',
  name: 'Order service',
  url: 'https://orders.example.com/hooks/convene',
  enabled: true,
  event_types: ['payment.succeeded', 'payment.refunded'],
  disabled_reason: null,
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};
export const ENDPOINT_WITH_HEALTH_EXAMPLE = {
  ...ENDPOINT_EXAMPLE,
  health: {
    state: 'healthy',
    since: '2026-11-22T09:00:00.000Z',
    attempts: 412,
    success_rate: 0.995,
    consecutive_failures: 0,
    paused_until: null,
  },
};
export const ENDPOINT_WITH_SECRET_EXAMPLE = {
  ...ENDPOINT_EXAMPLE,
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw5ABC8AfM9Tc=',
};

const Name = Type.String({ minLength: 1, maxLength: 200, description: 'a label for the subscriber' });
const TargetUrl = HttpUrl({
  description:
    'http(s) URL the deliveries are POSTed to; in production only public unicast targets (no loopback, ' +
    'private or other special-purpose address)',
});

export const CreateEndpointBody = Type.Object(
  {
    name: Name,
    url: TargetUrl,
    event_types: Type.Optional(EventTypes),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Order service',
        url: 'https://orders.example.com/hooks/convene',
        event_types: ['payment.succeeded', 'payment.refunded'],
      },
    ],
  },
);
export type CreateEndpointBody = Static<typeof CreateEndpointBody>;

export const UpdateEndpointBody = Type.Object(
  {
    name: Type.Optional(Name),
    url: Type.Optional(TargetUrl),
    enabled: Type.Optional(Type.Boolean({ description: 'enabling clears `disabled_reason`' })),
    event_types: Type.Optional(Nullable(EventTypes)),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ enabled: false }] },
);
export type UpdateEndpointBody = Static<typeof UpdateEndpointBody>;

export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecret>;
