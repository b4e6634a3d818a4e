/** Schemas of project members (contract 6): one source for validation, handler types and OpenAPI. */
import type { Static } from 'typebox';
import { memberSchemas } from '../../../kernel/membership/membership.schemas.ts';
import { ProjectRole } from '../projects/projects.schemas.ts';

const schemas = memberSchemas({
  role: ProjectRole,
  addableRoles: ['member', 'admin'],
  emailField: 'actor_email',
  addEmailDescription:
    'e-mail of an existing actor (someone who has called the API before); case-insensitive',
  removeEmailDescription: 'the member to remove; case-insensitive',
  exampleRole: 'member',
});

export const ProjectMember = schemas.Member;
export type ProjectMember = Static<typeof ProjectMember>;
export const PROJECT_MEMBER_EXAMPLE = schemas.example;
export const AddProjectMemberBody = schemas.AddBody;
export type AddProjectMemberBody = Static<typeof AddProjectMemberBody>;
export const RemoveProjectMemberBody = schemas.RemoveBody;
export type RemoveProjectMemberBody = Static<typeof RemoveProjectMemberBody>;
