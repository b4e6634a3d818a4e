import { Type } from 'typebox';
import { DateTime, Email, Nullable, Uuid } from '../../../kernel/http/schemas.ts';

export const SessionJson = Type.Object(
  {
    user_id: Uuid({ description: 'the signed-in person (docs/reference/sign-in.md, "User ids")' }),
    email: Email(),
    name: Nullable(Type.String({ description: 'as the identity service gave it, if it did' })),
    expires_at: DateTime({ description: 'the absolute end of the session (it also ends after 2 h idle)' }),
  },
  { title: 'Session' },
);

export const SESSION_EXAMPLE = {
  user_id: '01937a4e-8f2b-7c3d-9e4f-5a6b7c8d9e0f',
  email: 'ana@example.com',
  name: 'Ana Souza',
  expires_at: '2026-11-22T22:00:00.000Z',
};
