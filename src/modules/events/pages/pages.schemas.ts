/** The schemas of the pages' routes: their JSON forms for API clients, and the checkout return query. */
import { Type } from 'typebox';
import { Nullable, Uuid } from '../../../kernel/http/schemas.ts';

export const BadgeJson = Type.Object(
  {
    edition_id: Uuid({
      description: 'where the badge is checked in (`POST /editions/{edition_id}/check-ins`)',
    }),
    holder_name: Type.String(),
    origin: Type.Union([Type.Literal('participant'), Type.Literal('staff')]),
    ticket_name: Nullable(Type.String()),
    event_name: Type.String(),
    edition_name: Type.String(),
    starts_at: Type.String({ format: 'date-time' }),
    ends_at: Type.String({ format: 'date-time' }),
    location_name: Nullable(Type.String({ description: "the edition's venue" })),
    location_description: Nullable(Type.String()),
    badge_url: Type.String({ description: 'what the badge QR code holds: `PUBLIC_BASE_URL/b/<code>`' }),
    status: Type.Union([Type.Literal('active'), Type.Literal('revoked')]),
    status_reason: Nullable(Type.String()),
    edition_ended: Type.Boolean(),
    valid: Type.Boolean({ description: 'active, and its edition not ended' }),
  },
  { title: 'BadgeJson' },
);

export const BADGE_EXAMPLE = {
  edition_id: '01937a4e-8f2b-7c3d-9e4f-5a6b7c8d9e0f',
  holder_name: 'Ana Souza',
  origin: 'participant',
  ticket_name: 'General admission',
  event_name: 'RustConf',
  edition_name: 'RustConf 2027',
  starts_at: '2027-06-10T09:00:00.000Z',
  ends_at: '2027-06-12T18:00:00.000Z',
  location_name: 'Centro de Congressos de Lisboa',
  location_description: null,
  badge_url: 'https://convene.example.org/b/AZN6To8rfD2eT1prfI2eDwx3X0c6b3iTqTGTQAIxUJ4',
  status: 'active',
  status_reason: null,
  edition_ended: false,
  valid: true,
};

export const CheckoutJson = Type.Object(
  {
    intent_id: Uuid(),
    status: Type.Union(
      [Type.Literal('pending'), Type.Literal('paid'), Type.Literal('failed'), Type.Literal('refunded')],
      {
        description:
          '`paid`: the intent succeeded and the registration is confirmed; `pending`: the provider has not decided; ' +
          '`failed`: refused or cancelled (nothing charged); `refunded`',
      },
    ),
    amount_cents: Type.Integer(),
    currency: Type.String(),
    ticket_name: Type.String(),
    event_name: Type.String(),
    edition_name: Type.String(),
    starts_at: Nullable(Type.String({ format: 'date-time' })),
    ends_at: Nullable(Type.String({ format: 'date-time' })),
    location_name: Nullable(Type.String({ description: "the edition's venue" })),
    location_description: Nullable(Type.String()),
    checkout_url: Nullable(
      Type.String({
        description:
          "where to pay, while this intent is the registration's checkout and nothing was paid on it",
      }),
    ),
    can_retry: Type.Boolean({
      description:
        'failed with the seat still held: `POST /checkout/{intent_id}/retry` makes a fresh checkout',
    }),
    current_intent_id: Nullable(
      Uuid({ description: "the registration's checkout now, when a fresh checkout replaced this one" }),
    ),
    hold_expires_at: Nullable(
      Type.String({ format: 'date-time', description: 'while the registration still holds its seat unpaid' }),
    ),
    status_reason: Nullable(
      Type.String({ description: 'why a refund happened (`sold_out_after_expiry`, …)' }),
    ),
    badge_url: Nullable(Type.String({ description: 'the badge page, once paid' })),
  },
  { title: 'CheckoutJson' },
);

export const CHECKOUT_EXAMPLE = {
  intent_id: '01937a4e-8f2b-7c3d-9e4f-5a6b7c8d9e10',
  status: 'paid',
  amount_cents: 5050,
  currency: 'BRL',
  ticket_name: 'Conference pass',
  event_name: 'RustConf',
  edition_name: 'RustConf 2027',
  starts_at: '2027-06-10T09:00:00.000Z',
  ends_at: '2027-06-12T18:00:00.000Z',
  location_name: 'Centro de Congressos de Lisboa',
  location_description: null,
  checkout_url: null,
  can_retry: false,
  current_intent_id: null,
  hold_expires_at: null,
  status_reason: null,
  badge_url: 'https://convene.example.org/b/AZN6To8rfD2eT1prfI2eDwx3X0c6b3iTqTGTQAIxUJ4',
};

/**
 * What Mercado Pago appends to a `back_urls` address when it sends the payer back. Open: the
 * provider writes it and may add more, and the page reads none of it (anyone can type it).
 */
const MP_RETURN_FIELDS = [
  'collection_id',
  'collection_status',
  'payment_id',
  'status',
  'external_reference',
  'payment_type',
  'merchant_order_id',
  'preference_id',
  'site_id',
  'processing_mode',
  'merchant_account_id',
];
export const CheckoutReturnQuery = Type.Object(
  Object.fromEntries(
    MP_RETURN_FIELDS.map((name) => [
      name,
      Type.Optional(Type.String({ maxLength: 512, description: 'appended by Mercado Pago; ignored' })),
    ]),
  ),
  { additionalProperties: true },
);

/** A response that is an HTML page (documented with a stub of the document). */
export const htmlPage = (description: string) => ({
  description,
  content: { 'text/html': { schema: Type.String(), example: '<!doctype html><html lang="en">…' } },
});
