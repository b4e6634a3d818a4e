/** Schemas of projects and their members (contract 6): validation, handler types and OpenAPI. */
import { type Static, Type } from 'typebox';
import { DateTime, Email, Slug, Uuid } from '../../kernel/http/schemas.ts';

const Name = Type.String({ minLength: 2, maxLength: 200 });

// ---------- projects ----------

export const Project = Type.Object({
  id: Uuid(),
  name: Type.String(),
  slug: Type.String(),
  owner_id: Uuid(),
  created_at: DateTime(),
  updated_at: DateTime(),
});
export type Project = Static<typeof Project>;

export const ProjectRole = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')]);
export const MyProject = Type.Object({ ...Project.properties, role: ProjectRole });

export const CreateProjectBody = Type.Object(
  { name: Name, slug: Slug({ description: 'unique across projects' }) },
  { additionalProperties: false, examples: [{ name: 'Acme Identity', slug: 'acme-identity' }] },
);
export type CreateProjectBody = Static<typeof CreateProjectBody>;

export const UpdateProjectBody = Type.Object(
  { name: Type.Optional(Name), slug: Type.Optional(Slug({ description: 'unique across projects' })) },
  { additionalProperties: false, minProperties: 1, examples: [{ name: 'Acme Accounts' }] },
);
export type UpdateProjectBody = Static<typeof UpdateProjectBody>;

export const PROJECT_EXAMPLE = {
  id: '01937a50-2222-7000-8000-000000000020',
  name: 'Acme Identity',
  slug: 'acme-identity',
  owner_id: '01937a4e-0000-7000-8000-000000000001',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

// ---------- members ----------

export const ProjectMember = Type.Object({
  user_id: Uuid(),
  email: Type.String(),
  role: ProjectRole,
  created_at: DateTime(),
});
export type ProjectMember = Static<typeof ProjectMember>;

export const PROJECT_MEMBER_EXAMPLE = {
  user_id: '01937a4e-0000-7000-8000-000000000002',
  email: 'bea@example.com',
  role: 'member',
  created_at: '2026-11-22T10:00:00.000Z',
};

export const AddProjectMemberBody = Type.Object(
  {
    actor_email: Email({
      description: 'e-mail of an existing actor (someone who has called the API before); case-insensitive',
    }),
    role: Type.Union([Type.Literal('member'), Type.Literal('admin')], {
      description: 'only the owner may add an admin',
    }),
  },
  { additionalProperties: false, examples: [{ actor_email: 'bea@example.com', role: 'member' }] },
);
export type AddProjectMemberBody = Static<typeof AddProjectMemberBody>;

export const RemoveProjectMemberBody = Type.Object(
  { actor_email: Email({ description: 'the member to remove; case-insensitive' }) },
  { additionalProperties: false, examples: [{ actor_email: 'bea@example.com' }] },
);
export type RemoveProjectMemberBody = Static<typeof RemoveProjectMemberBody>;

/** The `data` of a removal: exactly `{}` (contract 6, interface operation 5). */
export const Empty = Type.Object({}, { additionalProperties: false });
