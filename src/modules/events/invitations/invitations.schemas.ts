/** Schemas of event invitations (docs/mail.md): one source for validation, handler types and OpenAPI. */
import { type Static, Type } from 'typebox';
import { DateTime, Email, PageQuery, Uuid } from '../../../kernel/http/schemas.ts';

export const Invitation = Type.Object(
  {
    id: Uuid(),
    event_id: Uuid(),
    email: Email({ description: 'who is invited' }),
    role: Type.Union([Type.Literal('admin'), Type.Literal('staff')]),
    status: Type.Union(
      [Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('withdrawn'), Type.Literal('expired')],
      { description: '`expired`: still pending past `expires_at` (it can no longer be accepted)' },
    ),
    expires_at: DateTime(),
    created_at: DateTime(),
    ended_at: Type.Union([DateTime(), Type.Null()], { description: 'when it was accepted or withdrawn' }),
  },
  { title: 'EventInvitation' },
);
export type Invitation = Static<typeof Invitation>;

export const INVITATION_EXAMPLE: Invitation = {
  id: '01937a4e-9b2c-7d3e-8f4a-5b6c7d8e9f0a',
  event_id: '01937a4e-8f2b-7c3d-9a1b-2c3d4e5f6a7b',
  email: 'bea@example.com',
  role: 'staff',
  status: 'pending',
  expires_at: '2026-12-04T10:00:00.000Z',
  created_at: '2026-11-27T10:00:00.000Z',
  ended_at: null,
};

export const CreateInvitationBody = Type.Object(
  {
    email: Email({ description: 'the person to invite; they need not have used the service before' }),
    role: Type.Union([Type.Literal('admin'), Type.Literal('staff')], {
      description: 'the role they get on accepting (only the owner may invite an admin)',
    }),
    expires_in_days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 30, description: 'days it can be accepted in (default 7)' }),
    ),
  },
  { additionalProperties: false, examples: [{ email: 'bea@example.com', role: 'staff' }] },
);
export type CreateInvitationBody = Static<typeof CreateInvitationBody>;

export const InvitationsQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(
      Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('withdrawn')], {
        description: 'only invitations in this stored status (an expired one is still `pending` here)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type InvitationsQuery = Static<typeof InvitationsQuery>;
