/** Schemas of registrations (docs/reference/tickets.md and docs/reference/checkout.md). */
import { type Static, Type } from 'typebox';
import { DateTime, Email, Nullable, PageQuery, Uuid } from '../../../kernel/http/schemas.ts';
import { EDITION_EXAMPLE } from '../editions/index.ts';
import { TICKET_TYPE_EXAMPLE } from '../tickets/index.ts';
import { REGISTRATION_STATUSES } from './registrations.table.ts';

export const RegistrationStatus = Type.Enum([...REGISTRATION_STATUSES], {
  description:
    '`pending_payment` (a paid ticket, seat held until `hold_expires_at`), `confirmed`, `cancelled`, ' +
    '`expired` (the hold ended unpaid), `refunded`',
});

export const Registration = Type.Object(
  {
    id: Uuid(),
    edition_id: Uuid(),
    ticket_type_id: Uuid(),
    user_id: Uuid({ description: 'the registered person' }),
    status: RegistrationStatus,
    status_reason: Nullable(
      Type.String({ description: 'why it ended as it did (`refunded`, `sold_out_after_expiry`, …)' }),
    ),
    intent_id: Nullable(Uuid({ description: 'the payment intent of a paid registration' })),
    hold_expires_at: Nullable(DateTime({ description: 'when an unpaid seat hold ends' })),
    checkout_url: Nullable(
      Type.String({ description: 'where the payer pays (Mercado Pago), while `pending_payment`' }),
    ),
    created_by: Uuid({ description: 'who registered them: the person, or a staff member' }),
    created_at: DateTime(),
    updated_at: DateTime(),
    cancelled_at: Nullable(DateTime()),
  },
  { title: 'Registration' },
);
export type Registration = Static<typeof Registration>;

/**
 * An item of the staff listing: the registration with the holder's e-mail, name and ticket name,
 * and, for owners and admins, its checkout's money (what a sales table shows).
 */
export const RegistrationListItem = Type.Object(
  {
    ...Registration.properties,
    email: Type.String({ description: "the registered person's e-mail (actor directory)" }),
    name: Nullable(
      Type.String({
        description: "the registered person's name (their token's `name` claim), null when they gave none",
      }),
    ),
    ticket_name: Type.String(),
    amount_cents: Nullable(
      Type.Integer({
        description:
          'what its checkout charges or charged, in minor units of `currency`; null for a free ' +
          'registration, and for a staff caller (staff see no money)',
      }),
    ),
    refunded_cents: Nullable(
      Type.Integer({ description: 'what was given back of `amount_cents`; null as `amount_cents`' }),
    ),
    currency: Nullable(Type.String({ description: 'ISO 4217 code of the payment; null as `amount_cents`' })),
    payment_status: Nullable(
      Type.String({
        description:
          'the status of its checkout’s intent (`pending`, `succeeded`, `refunded`, …); null as `amount_cents`',
      }),
    ),
  },
  { title: 'RegistrationListItem' },
);

export const CreateRegistrationBody = Type.Object(
  {
    ticket_type_id: Uuid({ description: 'a ticket type of this edition' }),
    email: Type.Optional(
      Email({
        description:
          'staff and above only: register this existing actor instead of yourself (any ticket type, ' +
          'paid ones included, outside the registration window)',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ ticket_type_id: TICKET_TYPE_EXAMPLE.id }],
  },
);
export type CreateRegistrationBody = Static<typeof CreateRegistrationBody>;

/**
 * The filters of the registrations' listing and of its CSV export (docs/reference/tickets.md,
 * "Sales"), combined with AND.
 */
export const RegistrationFilters = {
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'a part of the registered person’s e-mail or name, any case (`?q=souza`); a trigram index ' +
        'finds it, so give three characters or more on a large edition',
    }),
  ),
  status: Type.Optional(
    Type.Array(RegistrationStatus, {
      minItems: 1,
      maxItems: REGISTRATION_STATUSES.length,
      description: 'one or more statuses, repeated: `?status=confirmed&status=refunded`',
    }),
  ),
  ticket_type_id: Type.Optional(Uuid({ description: 'only this ticket type’s registrations' })),
  paid: Type.Optional(
    Type.Boolean({
      description:
        '`true`: registrations made through a checkout (with an `intent_id`, whatever came of it); ' +
        '`false`: free ones, staff’s free registrations of a paid ticket included',
    }),
  ),
};

/** The filters of a listing or export query, as the repository takes them. */
export function filterOf(query: {
  q?: string | undefined;
  status?: Array<(typeof REGISTRATION_STATUSES)[number]> | undefined;
  ticket_type_id?: string | undefined;
  paid?: boolean | undefined;
}) {
  return { q: query.q, status: query.status, ticketTypeId: query.ticket_type_id, paid: query.paid };
}

export const RegistrationListQuery = Type.Object(
  { ...PageQuery, ...RegistrationFilters },
  { additionalProperties: false },
);
export type RegistrationListQuery = Static<typeof RegistrationListQuery>;

export const REGISTRATION_EXAMPLE = {
  id: '01937a51-3333-7000-8000-000000000030',
  edition_id: EDITION_EXAMPLE.id,
  ticket_type_id: TICKET_TYPE_EXAMPLE.id,
  user_id: '01937a4e-0000-7000-8000-000000000003',
  status: 'confirmed',
  status_reason: null,
  intent_id: null,
  hold_expires_at: null,
  checkout_url: null,
  created_by: '01937a4e-0000-7000-8000-000000000003',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  cancelled_at: null,
};

export const REGISTRATION_LIST_EXAMPLE = {
  ...REGISTRATION_EXAMPLE,
  intent_id: '01937a52-4444-7000-8000-000000000040',
  hold_expires_at: '2026-11-22T10:15:00.000Z',
  email: 'carla@example.com',
  name: 'Carla Souza',
  ticket_name: TICKET_TYPE_EXAMPLE.name,
  amount_cents: 4900,
  refunded_cents: 0,
  currency: 'BRL',
  payment_status: 'succeeded',
};

export const PENDING_PAYMENT_EXAMPLE = {
  ...REGISTRATION_EXAMPLE,
  status: 'pending_payment',
  intent_id: '01937a52-4444-7000-8000-000000000040',
  hold_expires_at: '2026-11-22T10:15:00.000Z',
  checkout_url:
    'https://www.mercadopago.com.br/checkout/v1/redirect?pref_id=202809963-920c288b-4ebb-40be-966f-700250fa5370',
};

export const REFUNDED_EXAMPLE = {
  ...PENDING_PAYMENT_EXAMPLE,
  status: 'refunded',
  status_reason: 'refunded',
  hold_expires_at: '2026-11-22T10:15:00.000Z',
  checkout_url: null,
  updated_at: '2026-11-23T10:00:00.000Z',
  cancelled_at: '2026-11-23T10:00:00.000Z',
};

export const CANCELLED_EXAMPLE = {
  ...REGISTRATION_EXAMPLE,
  status: 'cancelled',
  updated_at: '2026-11-23T10:00:00.000Z',
  cancelled_at: '2026-11-23T10:00:00.000Z',
};

export type RegistrationListItem = Static<typeof RegistrationListItem>;
