/** Schemas of check-ins and attendance (docs/reference/attendance.md). */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable, PageQuery, Uuid } from '../../../kernel/http/schemas.ts';

const BADGE_URL_EXAMPLE = 'https://api.convene.example/b/AZN6UCIicACAgAAAAAAAMKoGkQ-6n5mBvt3uPnn8y2Q';

export const CheckInBody = Type.Object(
  {
    code: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'what the badge QR code holds: the code, or the whole `PUBLIC_BASE_URL/b/<code>` URL',
    }),
    program_id: Type.Optional(
      Nullable(Uuid({ description: 'a program of this edition; absent or null: the edition itself' })),
    ),
    scanned_at: Type.Optional(
      DateTime({
        description:
          'when an offline scanner read the badge; default now. At most 7 days old and not in the future ' +
          '(60 s of clock skew allowed)',
      }),
    ),
    nonce: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description:
          "the scanner's id for this scan: uploading it again answers the first result, counted once",
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        code: BADGE_URL_EXAMPLE,
        program_id: '01937a50-2222-7000-8000-000000000020',
        scanned_at: '2027-06-10T09:31:12.000Z',
        nonce: 'scanner-3:000172',
      },
    ],
  },
);
export type CheckInBody = Static<typeof CheckInBody>;

const CheckInEmission = Type.Object({
  id: Uuid(),
  edition_id: Uuid(),
  user_id: Uuid(),
  origin: Type.Union([Type.Literal('participant'), Type.Literal('staff')]),
  status: Type.Union([Type.Literal('active'), Type.Literal('revoked')]),
  status_reason: Nullable(Type.String()),
  ticket_name: Nullable(Type.String()),
  emitted_at: DateTime(),
});

export const CheckInAnswer = Type.Object(
  {
    result: Type.Union(
      [
        Type.Literal('ok'),
        Type.Literal('already_checked_in'),
        Type.Literal('revoked'),
        Type.Literal('unknown'),
        Type.Literal('wrong_edition'),
        Type.Literal('not_allowed'),
        Type.Literal('not_open'),
      ],
      {
        description:
          '`ok` and `already_checked_in` are 200; the others are 409 with this object as `error.meta`. ' +
          '`not_open`: `scanned_at` is outside the check-in window, from 24 hours before the edition starts ' +
          'to 24 hours after it ends',
      },
    ),
    reason: Nullable(
      Type.Union([Type.Literal('staff_only'), Type.Literal('access_level')], {
        description:
          'why `not_allowed`: a staff-only program, or a ticket access level below the program minimum',
      }),
    ),
    program_id: Nullable(Uuid()),
    emission: Nullable(CheckInEmission),
    holder_name: Nullable(
      Type.String({
        description: "the holder's name from their token, else their e-mail; null when unknown",
      }),
    ),
    ticket_name: Nullable(Type.String()),
    first_checked_in_at: Nullable(
      DateTime({ description: 'the earliest scan of this badge at this place (`ok`, `already_checked_in`)' }),
    ),
    check_in_id: Nullable(Uuid()),
  },
  { title: 'CheckInAnswer' },
);
export type CheckInAnswer = Static<typeof CheckInAnswer>;
export type CheckInResult = CheckInAnswer['result'];

export const CHECK_IN_ANSWER_EXAMPLE: CheckInAnswer = {
  result: 'ok',
  reason: null,
  program_id: null,
  emission: {
    id: '01937a6e-2201-7000-8000-0000000000c3',
    edition_id: '01937a4f-1111-7000-8000-000000000010',
    user_id: '01937a4e-8f2b-7c3d-9e4f-5a6b7c8d9e0f',
    origin: 'participant',
    status: 'active',
    status_reason: null,
    ticket_name: 'General admission',
    emitted_at: '2026-11-22T10:00:00.000Z',
  },
  holder_name: 'Ana Souza',
  ticket_name: 'General admission',
  first_checked_in_at: '2027-06-10T08:55:02.000Z',
  check_in_id: '01937a70-0001-7000-8000-0000000000d1',
};

export const CheckInListQuery = Type.Object(
  {
    ...PageQuery,
    program_id: Type.Optional(Uuid({ description: 'only check-ins at this program' })),
    user_id: Type.Optional(Uuid({ description: 'only check-ins of this person' })),
  },
  { additionalProperties: false },
);
export type CheckInListQuery = Static<typeof CheckInListQuery>;

export const CheckIn = Type.Object(
  {
    id: Uuid(),
    edition_id: Uuid(),
    emission_id: Uuid(),
    user_id: Uuid(),
    program_id: Nullable(Uuid({ description: 'null: checked in at the edition itself' })),
    origin: Type.Union([Type.Literal('participant'), Type.Literal('staff')]),
    holder_name: Type.String(),
    holder_email: Type.String(),
    ticket_name: Nullable(Type.String()),
    checked_in_at: DateTime({ description: 'when the badge was (first) scanned here' }),
    recorded_at: DateTime({ description: 'when the service recorded it' }),
    scanned_by: Uuid({ description: 'the staff member who scanned it' }),
    nonce: Nullable(Type.String()),
  },
  { title: 'CheckIn' },
);

export const CHECK_IN_EXAMPLE = {
  id: CHECK_IN_ANSWER_EXAMPLE.check_in_id,
  edition_id: '01937a4f-1111-7000-8000-000000000010',
  emission_id: '01937a6e-2201-7000-8000-0000000000c3',
  user_id: '01937a4e-8f2b-7c3d-9e4f-5a6b7c8d9e0f',
  program_id: null,
  origin: 'participant',
  holder_name: 'Ana Souza',
  holder_email: 'ana@example.com',
  ticket_name: 'General admission',
  checked_in_at: '2027-06-10T08:55:02.000Z',
  recorded_at: '2027-06-10T08:55:02.000Z',
  scanned_by: '01937a4e-0000-7000-8000-000000000001',
  nonce: null,
};

export const Attendance = Type.Object(
  {
    edition_id: Uuid(),
    edition: Type.Object(
      { registered: Type.Integer(), checked_in: Type.Integer() },
      {
        description:
          'confirmed registrations, and participant badges checked in at the edition itself (staff badges not counted)',
      },
    ),
    programs: Type.Array(
      Type.Object({
        program_id: Uuid(),
        name: Type.String(),
        kind: Type.Union([Type.Literal('activity'), Type.Literal('checkpoint')]),
        max_participants: Nullable(Type.Integer()),
        registered: Type.Integer(),
        checked_in: Type.Integer(),
      }),
      { description: 'per live program: active sign-ups (`registered`) and badges checked in there' },
    ),
  },
  { title: 'Attendance' },
);

export const ATTENDANCE_EXAMPLE = {
  edition_id: '01937a4f-1111-7000-8000-000000000010',
  edition: { registered: 412, checked_in: 377 },
  programs: [
    {
      program_id: '01937a50-2222-7000-8000-000000000020',
      name: 'Opening keynote',
      kind: 'activity',
      max_participants: 300,
      registered: 298,
      checked_in: 251,
    },
  ],
};
