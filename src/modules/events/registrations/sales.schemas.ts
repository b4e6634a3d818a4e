/** Schemas of the sales summary and the registrations' CSV export (docs/reference/tickets.md, "Sales"). */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../kernel/http/schemas.ts';
import { EDITION_EXAMPLE } from '../editions/index.ts';
import { RegistrationFilters } from './registrations.schemas.ts';

const count = (description: string) => Type.Integer({ minimum: 0, description });
const cents = (description: string) => Type.Integer({ description: `${description}, in minor units` });

export const SalesCounts = Type.Object(
  {
    sold: count('registrations `confirmed` (paid and free)'),
    sold_paid: count('of `sold`, those confirmed through a checkout'),
    sold_free: count('of `sold`, the free ones (staff’s free registrations of a paid ticket included)'),
    held: count('registrations `pending_payment` whose seat hold has not ended: seats waiting for a payment'),
    cancelled: count(
      'registrations `cancelled` (a paid one cancelled by its registrant ends here, refunded)',
    ),
    expired: count('registrations `expired`: the hold ended unpaid'),
    refunded: count('registrations `refunded` by an organiser or by the payment provider'),
  },
  { title: 'SalesCounts' },
);

export const SalesMoney = Type.Object(
  {
    currency: Type.String({ description: 'ISO 4217 code; one entry per currency sold in' }),
    payments: count('payments taken (checkout intents `succeeded` or `refunded`)'),
    revenue_cents: cents('what those payments took'),
    refunds_cents: cents('what was given back of it (full and partial refunds)'),
    fees_cents: cents(
      'the platform’s marketplace fee on what was kept (`revenue_cents - refunds_cents`), at the ' +
        'wallet’s `fee_bps` when each checkout was made',
    ),
    net_cents: cents('`revenue_cents - refunds_cents - fees_cents`: what the organiser keeps'),
  },
  { title: 'SalesMoney' },
);

export const TicketTypeSales = Type.Object(
  {
    ticket_type_id: Uuid(),
    name: Type.String(),
    price_cents: Type.Integer({ description: 'its price now (payments keep what they were charged)' }),
    currency: Nullable(Type.String()),
    counts: SalesCounts,
    money: Type.Array(SalesMoney, { description: 'per currency; empty when nothing was paid' }),
  },
  { title: 'TicketTypeSales' },
);

export const SalesSummary = Type.Object(
  {
    edition_id: Uuid(),
    counts: SalesCounts,
    money: Type.Array(SalesMoney, { description: 'per currency; empty when nothing was paid' }),
    ticket_types: Type.Array(TicketTypeSales, {
      description: 'every ticket type of the edition, oldest first',
    }),
    computed_at: DateTime({ description: 'when these figures were read' }),
  },
  { title: 'SalesSummary' },
);
export type SalesSummary = Static<typeof SalesSummary>;
export type SalesCounts = Static<typeof SalesCounts>;
export type SalesMoney = Static<typeof SalesMoney>;

/** The CSV export's query: the listing's filters, without paging (every matching row). */
export const RegistrationExportQuery = Type.Object(RegistrationFilters, { additionalProperties: false });
export type RegistrationExportQuery = Static<typeof RegistrationExportQuery>;

const EXAMPLE_COUNTS = {
  sold: 130,
  sold_paid: 118,
  sold_free: 12,
  held: 4,
  cancelled: 3,
  expired: 9,
  refunded: 2,
};
const EXAMPLE_MONEY = {
  currency: 'BRL',
  payments: 122,
  revenue_cents: 597_800,
  refunds_cents: 19_600,
  fees_cents: 14_455,
  net_cents: 563_745,
};

export const SALES_SUMMARY_EXAMPLE = {
  edition_id: EDITION_EXAMPLE.id,
  counts: EXAMPLE_COUNTS,
  money: [EXAMPLE_MONEY],
  ticket_types: [
    {
      ticket_type_id: '01937a50-2222-7000-8000-000000000020',
      name: 'Conference pass',
      price_cents: 4900,
      currency: 'BRL',
      counts: EXAMPLE_COUNTS,
      money: [EXAMPLE_MONEY],
    },
  ],
  computed_at: '2026-11-22T10:00:00.000Z',
};

/** The CSV's first lines, as the OpenAPI example shows them. */
export const REGISTRATIONS_CSV_EXAMPLE =
  'registration_id,created_at,status,status_reason,email,name,ticket_type_id,ticket_name,intent_id,' +
  'amount_cents,refunded_cents,currency,payment_status,cancelled_at\r\n' +
  '01937a51-3333-7000-8000-000000000030,2026-11-22T10:00:00.000Z,confirmed,,carla@example.com,' +
  '"Souza, Carla",01937a50-2222-7000-8000-000000000020,Conference pass,' +
  '01937a52-4444-7000-8000-000000000040,4900,0,BRL,succeeded,\r\n';
