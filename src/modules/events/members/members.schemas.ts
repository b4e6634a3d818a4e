/** Schemas of event members (contract 5.1): one source for validation, handler types and OpenAPI. */
import type { Static } from 'typebox';
import { memberSchemas } from '../../../kernel/membership/membership.schemas.ts';
import { EventRole } from '../events/events.schemas.ts';

const schemas = memberSchemas({
  role: EventRole,
  addableRoles: ['admin', 'staff'],
  emailField: 'email',
  addEmailDescription: 'e-mail of an existing actor (someone who has called the API before)',
  removeEmailDescription: 'the member to remove; the path user_id does not select the member',
  exampleRole: 'staff',
});

export const Member = schemas.Member;
export type Member = Static<typeof Member>;
export const MEMBER_EXAMPLE = schemas.example;
export const AddMemberBody = schemas.AddBody;
export type AddMemberBody = Static<typeof AddMemberBody>;
export const RemoveMemberBody = schemas.RemoveBody;
