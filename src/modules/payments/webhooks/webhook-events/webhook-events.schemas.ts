/** Schemas of the stored normalized payment events (docs/reference/webhooks.md, the events a wallet's subscribers get). */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable, PageQuery, Uuid } from '../../../../kernel/http/schemas.ts';
import { EventType } from '../endpoints/endpoints.schemas.ts';

export const PaymentEvent = Type.Object(
  {
    id: Uuid({ description: 'the event id, sent as `webhook-id` with every delivery of it' }),
    wallet_id: Uuid(),
    intent_id: Nullable(Uuid({ description: 'the intent; null only for `webhook.test`' })),
    type: Type.String({
      description:
        '`payment.<intent status>`, `registration.<…>` or `webhook.test` (see the `webhooks` section)',
    }),
    source: Type.String({
      description:
        'what produced it: `testmode`, `simulate`, `cancel`, `test` (a test event), or a provider slug ' +
        '(`mercadopago`)',
    }),
    payload: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'the `data` object of the delivery body, as the `webhooks` section describes it per type ' +
          '(for `payment.*`, the intent as it was when the event was recorded)',
      },
    ),
    created_at: DateTime(),
  },
  { title: 'PaymentEvent' },
);
export type PaymentEvent = Static<typeof PaymentEvent>;

export const PAYMENT_EVENT_EXAMPLE = {
  id: '01937a50-7777-7000-8000-000000000070',
  wallet_id: '01937a50-3333-7000-8000-000000000030',
  intent_id: '01937a50-6666-7000-8000-000000000060',
  type: 'payment.succeeded',
  source: 'mercadopago',
  payload: {
    event_id: '01937a50-7777-7000-8000-000000000070',
    intent_id: '01937a50-6666-7000-8000-000000000060',
    wallet_id: '01937a50-3333-7000-8000-000000000030',
    provider: 'mercadopago',
    external_id: '1234567890',
    status: 'succeeded',
    status_detail: null,
    amount_cents: 5000,
    currency: 'BRL',
    sandbox: true,
    metadata: { order_id: 'A-1001' },
  },
  created_at: '2026-11-22T10:00:00.000Z',
};

export const EventListQuery = Type.Object(
  {
    ...PageQuery,
    type: Type.Optional(EventType),
    intent_id: Type.Optional(Uuid({ description: 'only the events of this intent' })),
  },
  { additionalProperties: false },
);
export type EventListQuery = Static<typeof EventListQuery>;
