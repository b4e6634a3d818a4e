/** Schemas of program sign-ups (docs/reference/attendance.md). */
import { Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../kernel/http/schemas.ts';

export const Participant = Type.Object(
  {
    program_id: Uuid(),
    user_id: Uuid(),
    registration_id: Nullable(
      Uuid({ description: 'the confirmed registration that admitted it; null for staff' }),
    ),
    status: Type.Union([Type.Literal('active'), Type.Literal('cancelled')]),
    signed_up_at: DateTime(),
    cancelled_at: Nullable(DateTime()),
  },
  { title: 'Participant' },
);

export const PARTICIPANT_EXAMPLE = {
  program_id: '01937a50-2222-7000-8000-000000000020',
  user_id: '01937a4e-8f2b-7c3d-9e4f-5a6b7c8d9e0f',
  registration_id: '01937a60-3333-7000-8000-000000000031',
  status: 'active',
  signed_up_at: '2026-11-22T10:00:00.000Z',
  cancelled_at: null,
};

export const ParticipantListItem = Type.Object(
  {
    program_id: Uuid(),
    user_id: Uuid(),
    holder_name: Type.String({ description: 'the name from their token, else their e-mail' }),
    holder_email: Type.String(),
    signed_up_at: DateTime(),
    checked_in: Type.Boolean(),
    checked_in_at: Nullable(DateTime({ description: 'their first check-in at this program' })),
  },
  { title: 'ParticipantListItem' },
);

export const PARTICIPANT_LIST_EXAMPLE = {
  program_id: PARTICIPANT_EXAMPLE.program_id,
  user_id: PARTICIPANT_EXAMPLE.user_id,
  holder_name: 'Ana Souza',
  holder_email: 'ana@example.com',
  signed_up_at: '2026-11-22T10:00:00.000Z',
  checked_in: true,
  checked_in_at: '2027-06-10T09:31:12.000Z',
};
