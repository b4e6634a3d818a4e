/**
 * Schemas of programs (schedule items, docs/reference/events.md): one source for validation, handler types
 * and OpenAPI. The Program resource is the one of the interface document plus the schedule fields
 * `starts_at`, `ends_at` and `location`.
 */
import { type Static, Type } from 'typebox';
import { DateTime, HttpUrl, Name, Nullable, PageQuery, Text, Uuid } from '../../../kernel/http/schemas.ts';
import { EDITION_EXAMPLE } from '../editions/index.ts';

/** The largest value an `integer` column holds: beyond it is a field error, not a database one. */
export const MAX_INT = 2_147_483_647;

const ProgramKind = (options: { description?: string } = {}) =>
  Type.Union([Type.Literal('activity'), Type.Literal('checkpoint')], options);

export const Program = Type.Object(
  {
    id: Uuid(),
    edition_id: Uuid(),
    kind: ProgramKind(),
    name: Type.String(),
    description: Nullable(Type.String()),
    starts_at: Nullable(DateTime()),
    ends_at: Nullable(DateTime()),
    location: Nullable(Type.String()),
    min_access_level: Type.Integer(),
    staff_only: Type.Boolean(),
    price: Type.Integer({ description: 'minor currency units' }),
    banner_url: Nullable(Type.String()),
    max_participants: Nullable(
      Type.Integer({
        description: 'most active sign-ups (`POST /programs/{program_id}/participants`); null = no limit',
      }),
    ),
    created_at: DateTime(),
    updated_at: DateTime(),
    deleted_at: Nullable(DateTime()),
  },
  { title: 'Program' },
);
export type Program = Static<typeof Program>;

const optionalFields = {
  description: Type.Optional(Nullable(Text(10_000))),
  starts_at: Type.Optional(Nullable(DateTime({ description: "within the edition's starts_at..ends_at" }))),
  ends_at: Type.Optional(
    Nullable(DateTime({ description: "after starts_at, within the edition's starts_at..ends_at" })),
  ),
  location: Type.Optional(Nullable(Text(300))),
  banner_url: Type.Optional(Nullable(HttpUrl())),
  max_participants: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 1,
        maximum: MAX_INT,
        description:
          'most active sign-ups; null or absent = no limit. Cannot go below the current sign-ups (409)',
      }),
    ),
  ),
};

const MinAccessLevel = (options: { default?: number } = {}) =>
  Type.Integer({
    minimum: 0,
    maximum: MAX_INT,
    description: 'lowest ticket access level admitted',
    ...options,
  });
const Price = (options: { default?: number } = {}) =>
  Type.Integer({ minimum: 0, maximum: MAX_INT, description: 'minor currency units', ...options });
const StaffOnly = (options: { default?: boolean } = {}) =>
  Type.Boolean({ description: 'listed to members of the event (staff and up) only', ...options });

export const CreateProgramBody = Type.Object(
  {
    kind: ProgramKind(),
    name: Name(1),
    ...optionalFields,
    min_access_level: Type.Optional(MinAccessLevel({ default: 0 })),
    staff_only: Type.Optional(StaffOnly({ default: false })),
    price: Type.Optional(Price({ default: 0 })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        kind: 'activity',
        name: 'Opening keynote',
        description: 'The state of Rust, by the core team',
        starts_at: '2027-06-10T09:30:00.000Z',
        ends_at: '2027-06-10T10:30:00.000Z',
        location: 'Main hall',
        min_access_level: 0,
        price: 0,
      },
    ],
  },
);
export type CreateProgramBody = Static<typeof CreateProgramBody>;

export const UpdateProgramBody = Type.Object(
  {
    kind: Type.Optional(ProgramKind()),
    name: Type.Optional(Name(1)),
    ...optionalFields,
    min_access_level: Type.Optional(MinAccessLevel()),
    staff_only: Type.Optional(StaffOnly()),
    price: Type.Optional(Price()),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ location: 'Room 2', ends_at: '2027-06-10T11:00:00.000Z' }],
  },
);
export type UpdateProgramBody = Static<typeof UpdateProgramBody>;

export const ProgramListQuery = Type.Object(
  { ...PageQuery, kind: Type.Optional(ProgramKind({ description: 'only programs of this kind' })) },
  { additionalProperties: false },
);
export type ProgramListQuery = Static<typeof ProgramListQuery>;

export const PROGRAM_EXAMPLE = {
  id: '01937a50-2222-7000-8000-000000000020',
  edition_id: EDITION_EXAMPLE.id,
  kind: 'activity',
  name: 'Opening keynote',
  description: 'The state of Rust, by the core team',
  starts_at: '2027-06-10T09:30:00.000Z',
  ends_at: '2027-06-10T10:30:00.000Z',
  location: 'Main hall',
  min_access_level: 0,
  staff_only: false,
  price: 0,
  banner_url: null,
  max_participants: null,
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  deleted_at: null,
};
