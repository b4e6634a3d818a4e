/** Schemas of projects (docs/reference/projects.md; members: `members/members.schemas.ts`): validation, handler types and OpenAPI. */
import { type Static, Type } from 'typebox';
import { DateTime, Name, Slug, Uuid } from '../../../kernel/http/schemas.ts';

// ---------- projects ----------

export const Project = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    slug: Type.String(),
    owner_id: Uuid(),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'Project' },
);
export type Project = Static<typeof Project>;

export const ProjectRole = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')]);
export const MyProject = Type.Object({ ...Project.properties, role: ProjectRole }, { title: 'MyProject' });

export const CreateProjectBody = Type.Object(
  { name: Name(), slug: Slug({ description: 'unique across projects' }) },
  { additionalProperties: false, examples: [{ name: 'Acme Identity', slug: 'acme-identity' }] },
);
export type CreateProjectBody = Static<typeof CreateProjectBody>;

export const UpdateProjectBody = Type.Object(
  { name: Type.Optional(Name()), slug: Type.Optional(Slug({ description: 'unique across projects' })) },
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

export type MyProject = Static<typeof MyProject>;
