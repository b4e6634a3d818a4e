/** Schemas of event members (docs/reference/events.md): one source for validation, handler types and OpenAPI. */
import type { Static } from 'typebox';
import { memberSchemas } from '../../../kernel/membership/membership.schemas.ts';
import { EventRoleSchema } from '../events/index.ts';

/** The member, its example, and the add and remove bodies. */
export const eventMemberSchemas = memberSchemas({
  role: EventRoleSchema,
  addableRoles: ['admin', 'staff'],
  emailField: 'email',
  addEmailDescription: 'e-mail of an existing actor (someone who has called the API before)',
  removeEmailDescription: 'the member to remove; the path user_id does not select the member',
  title: 'EventMember',
  exampleRole: 'staff',
});

export type Member = Static<typeof eventMemberSchemas.Member>;
export type AddMemberBody = Static<typeof eventMemberSchemas.AddBody>;
