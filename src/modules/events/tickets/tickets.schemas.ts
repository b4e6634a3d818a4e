/** Schemas of ticket types and registrations (contract 5.5). */
import { type Static, Type } from 'typebox';
import { DateTime, Email, Nullable, PageQuery, Uuid } from '../../../kernel/http/schemas.ts';
import { EDITION_EXAMPLE } from '../editions/editions.schemas.ts';

/** The integer columns are 32-bit: anything above is refused by the schema, not the database. */
const INT32_MAX = 2_147_483_647;

// ---------- ticket types ----------

export const TicketType = Type.Object({
  id: Uuid(),
  edition_id: Uuid(),
  name: Type.String(),
  price_cents: Type.Integer(),
  access_level: Type.Integer(),
  max_quantity: Nullable(Type.Integer()),
  confirmed_count: Type.Integer({ description: 'confirmed registrations holding this ticket type' }),
  remaining: Nullable(Type.Integer({ description: 'seats left; null when the ticket type is unlimited' })),
  created_at: DateTime(),
  updated_at: DateTime(),
});
export type TicketType = Static<typeof TicketType>;

export const CreateTicketTypeBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    price_cents: Type.Integer({ minimum: 0, maximum: INT32_MAX, description: 'minor currency units' }),
    access_level: Type.Integer({
      minimum: 0,
      maximum: INT32_MAX,
      description: 'compared with the `min_access_level` of programs',
    }),
    max_quantity: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 1,
          maximum: INT32_MAX,
          description: 'seats on sale; absent or null for unlimited',
        }),
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ name: 'General admission', price_cents: 0, access_level: 1, max_quantity: 300 }],
  },
);
export type CreateTicketTypeBody = Static<typeof CreateTicketTypeBody>;

export const TICKET_TYPE_EXAMPLE = {
  id: '01937a50-2222-7000-8000-000000000020',
  edition_id: EDITION_EXAMPLE.id,
  name: 'General admission',
  price_cents: 0,
  access_level: 1,
  max_quantity: 300,
  confirmed_count: 42,
  remaining: 258,
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

// ---------- registrations ----------

export const RegistrationStatus = Type.Union([Type.Literal('confirmed'), Type.Literal('cancelled')]);

export const Registration = Type.Object({
  id: Uuid(),
  edition_id: Uuid(),
  ticket_type_id: Uuid(),
  user_id: Uuid({ description: 'the registered person' }),
  status: RegistrationStatus,
  created_by: Uuid({ description: 'who registered them: the person, or a staff member' }),
  created_at: DateTime(),
  updated_at: DateTime(),
  cancelled_at: Nullable(DateTime()),
});
export type Registration = Static<typeof Registration>;

/** An item of the staff listing: the registration with the holder's e-mail and ticket name. */
export const RegistrationListItem = Type.Object({
  ...Registration.properties,
  email: Type.String({ description: "the registered person's e-mail (actor directory)" }),
  ticket_name: Type.String(),
});

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

export const CANCELLED_EXAMPLE = {
  ...REGISTRATION_EXAMPLE,
  status: 'cancelled',
  updated_at: '2026-11-23T10:00:00.000Z',
  cancelled_at: '2026-11-23T10:00:00.000Z',
};

export type RegistrationListItem = Static<typeof RegistrationListItem>;
