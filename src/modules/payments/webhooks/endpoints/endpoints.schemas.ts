/** Schemas of webhook endpoints (contract 7.3). The secret appears only in the create/rotate answers. */
import { type Static, Type } from 'typebox';
import { DateTime, HttpUrl, Nullable, Uuid } from '../../../../kernel/http/schemas.ts';
import { INTENT_STATUSES } from '../../intents/intents.table.ts';

/** The event types a subscriber may pick: one per intent status, and the paid registrations' (contract 8). */
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

export const WebhookEndpoint = Type.Object({
  id: Uuid(),
  wallet_id: Uuid(),
  name: Type.String(),
  url: Type.String(),
  enabled: Type.Boolean(),
  event_types: Nullable(Type.Array(Type.String())),
  disabled_reason: Nullable(Type.String()),
  created_at: DateTime(),
  updated_at: DateTime(),
});
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = Type.Object({
  ...WebhookEndpoint.properties,
  secret: Type.String({ description: 'the signing secret (`whsec_…`), shown this once' }),
});

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
