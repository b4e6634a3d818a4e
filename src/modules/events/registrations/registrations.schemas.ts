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

/** An item of the staff listing: the registration with the holder's e-mail and ticket name. */
export const RegistrationListItem = Type.Object(
  {
    ...Registration.properties,
    email: Type.String({ description: "the registered person's e-mail (actor directory)" }),
    ticket_name: Type.String(),
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

export const RegistrationListQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(RegistrationStatus) },
  { additionalProperties: false },
);

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
  email: 'carla@example.com',
  ticket_name: TICKET_TYPE_EXAMPLE.name,
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
