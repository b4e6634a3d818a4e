/**
 * Schemas of inbound provider notifications (docs/reference/webhooks.md). The provider owns this format, so
 * it is open: unknown fields and parameters are accepted (a refusal would only make the provider retry
 * forever); the fields read are typed so that a wrong type is still a 400.
 */
import { type Static, Type } from 'typebox';
import { Uuid } from '../../../../kernel/http/schemas.ts';

const ResourceId = (description: string) => Type.String({ minLength: 1, maxLength: 256, description });
const NotificationType = (description: string) => Type.String({ maxLength: 128, description });

/** Mercado Pago sends `?data.id=<payment id>&type=payment` (legacy: `?id=…&topic=…`). */
export const NotificationQuery = Type.Object(
  {
    'data.id': Type.Optional(ResourceId('the resource id (a payment id); signed')),
    type: Type.Optional(NotificationType('the notification type')),
    topic: Type.Optional(NotificationType('legacy name of `type`')),
    id: Type.Optional(ResourceId('legacy resource id (not used)')),
  },
  { additionalProperties: true },
);
export type NotificationQuery = Static<typeof NotificationQuery>;

export const NotificationHeaders = Type.Object(
  {
    'x-signature': Type.Optional(
      Type.String({
        description: '`ts=<unix seconds or milliseconds>,v1=<hex HMAC-SHA256 of the manifest>`',
        examples: ['ts=1763805600,v1=5c0f6a1e0f7d3b8f2c4a9e6d1b7c3a5f9e2d4c6b8a0f1e3d5c7b9a2e4f6d8c0b'],
      }),
    ),
    'x-request-id': Type.Optional(
      Type.String({
        description: 'the provider’s delivery id; part of the signed manifest',
        examples: ['f7b2a1d4-0b1c-4ec2-aaaa-9e8b1d2f3c4d'],
      }),
    ),
  },
  { additionalProperties: true },
);

export const NOTIFICATION_BODY_EXAMPLE = {
  action: 'payment.updated',
  api_version: 'v1',
  data: { id: '1234567890' },
  date_created: '2026-11-22T10:00:00.000-03:00',
  id: 112233445566,
  live_mode: false,
  type: 'payment',
  user_id: '202809963',
};

export const NotificationBody = Type.Object(
  {
    type: Type.Optional(NotificationType('`payment` is processed; any other type is recorded as ignored')),
    action: Type.Optional(Type.String({ maxLength: 128 })),
    data: Type.Optional(
      Type.Object(
        { id: Type.Optional(Type.Union([ResourceId('the resource id'), Type.Integer()])) },
        { additionalProperties: true },
      ),
    ),
  },
  {
    additionalProperties: true,
    description: 'The provider’s notification, as it sends it (unknown fields accepted and stored)',
    examples: [NOTIFICATION_BODY_EXAMPLE],
  },
);

export const NotificationReceipt = Type.Object(
  {
    received: Type.Literal(true),
    outcome: Type.Union(
      [
        Type.Literal('applied'),
        Type.Literal('duplicate'),
        Type.Literal('stale'),
        Type.Literal('ignored'),
        Type.Literal('unmatched'),
        Type.Literal('mismatch'),
      ],
      {
        description:
          '`applied`: the intent moved (`event_id`); `duplicate`: it already had that status (nothing ' +
          'recorded); `stale`: the transition rule refused the move (recorded, intent unchanged); ' +
          '`ignored`: not a payment notification; `unmatched`: no intent, no usable seller credentials ' +
          'or a payment the provider does not know (recorded for a later replay); `mismatch`: the payment ' +
          'went to another account than the intent’s seller, or its amount or currency differs from the ' +
          'intent’s (recorded, nothing changed)',
      },
    ),
    event_id: Type.Optional(Uuid({ description: 'the payment event written (outcome `applied` only)' })),
  },
  { title: 'NotificationReceipt' },
);

export const NOTIFICATION_RECEIPT_EXAMPLE = {
  received: true,
  outcome: 'applied',
  event_id: '01937a50-7777-7000-8000-000000000070',
};

export type NotificationReceipt = Static<typeof NotificationReceipt>;
