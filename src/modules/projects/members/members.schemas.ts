/** Schemas of project members (docs/reference/projects.md): one source for validation, handler types and OpenAPI. */
import { type Static, Type } from 'typebox';
import { memberSchemas } from '../../../kernel/membership/membership.schemas.ts';
import { ProjectRoleSchema } from '../projects/index.ts';

/** The member, its example, and the add and remove bodies. */
export const projectMemberSchemas = memberSchemas({
  role: ProjectRoleSchema,
  addableRoles: ['member', 'admin'],
  emailField: 'actor_email',
  addEmailDescription:
    'e-mail of an existing actor (someone who has called the API before); case-insensitive',
  removeEmailDescription: 'the member to remove; case-insensitive',
  title: 'ProjectMember',
  exampleRole: 'member',
});

export type ProjectMember = Static<typeof projectMemberSchemas.Member>;
export type AddProjectMemberBody = Static<typeof projectMemberSchemas.AddBody>;

/** The `data` of a removal: exactly `{}` (docs/reference/projects.md). */
export const Empty = Type.Object({}, { title: 'Empty', additionalProperties: false });
export type Empty = Static<typeof Empty>;
