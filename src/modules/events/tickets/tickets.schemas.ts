/** Schemas of ticket types (docs/reference/tickets.md). */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../kernel/http/schemas.ts';
import { EDITION_EXAMPLE } from '../editions/index.ts';

/** The integer columns are 32-bit: anything above is refused by the schema, not the database. */
const INT32_MAX = 2_147_483_647;

// ---------- ticket types ----------

export const TicketType = Type.Object(
  {
    id: Uuid(),
    edition_id: Uuid(),
    name: Type.String(),
    price_cents: Type.Integer(),
    currency: Nullable(Type.String({ description: 'ISO 4217 code of a paid ticket; null when free' })),
    access_level: Type.Integer(),
    max_quantity: Nullable(Type.Integer()),
    confirmed_count: Type.Integer({ description: 'confirmed registrations holding this ticket type' }),
    held_count: Type.Integer({
      description: 'seats held by checkouts not yet paid (they count against the maximum)',
    }),
    remaining: Nullable(
      Type.Integer({ description: 'seats left (held ones taken); null when the ticket type is unlimited' }),
    ),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'TicketType' },
);
export type TicketType = Static<typeof TicketType>;

export const CreateTicketTypeBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    price_cents: Type.Integer({ minimum: 0, maximum: INT32_MAX, description: 'minor currency units' }),
    currency: Type.Optional(
      Type.String({
        pattern: '^[A-Z]{3}$',
        description: 'ISO 4217 code (`BRL`, `ARS`, …); required when `price_cents` > 0',
      }),
    ),
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
    examples: [
      { name: 'Workshop pass', price_cents: 15000, currency: 'BRL', access_level: 2, max_quantity: 40 },
    ],
  },
);
export type CreateTicketTypeBody = Static<typeof CreateTicketTypeBody>;

export const TICKET_TYPE_EXAMPLE = {
  id: '01937a50-2222-7000-8000-000000000020',
  edition_id: EDITION_EXAMPLE.id,
  name: 'General admission',
  price_cents: 0,
  currency: null,
  access_level: 1,
  max_quantity: 300,
  confirmed_count: 42,
  held_count: 0,
  remaining: 258,
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};
