/** Projects: creation (the caller becomes owner), the caller's projects, read and update. */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { describeConstraint } from '../../../kernel/db/errors.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import { projectMembersRepository } from './project-members.repository.ts';
import { requireProjectRole } from './projects.access.ts';
import * as repo from './projects.repository.ts';
import type { CreateProjectBody, UpdateProjectBody } from './projects.schemas.ts';

describeConstraint('projects_slug_unique', {
  reason: 'slug_taken',
  field: 'slug',
  message: 'slug is already taken by another project',
});

export async function createProject(db: Database, actor: Identity, body: CreateProjectBody) {
  // The project and its owner membership commit together: a project never exists without owner.
  const project = await db.transaction(async (tx) => {
    const row = await repo.insertProject(tx, {
      id: uuidv7(),
      name: body.name,
      slug: body.slug,
      owner_id: actor.userId,
    });
    await projectMembersRepository.insert(tx, row.id, actor.userId, 'owner');
    return row;
  });
  return serialize(project);
}

export async function listMyProjects(db: Database, actor: Identity, window: Window) {
  const page = await repo.listProjectsOfUser(db, actor.userId, window);
  return { ...page, items: page.items.map(({ project, role }) => ({ ...serialize(project), role })) };
}

export async function getProject(db: Database, projectId: string, actor: Identity) {
  const { project } = await requireProjectRole(db, projectId, actor, 'member');
  return serialize(project);
}

export async function updateProject(
  db: Database,
  projectId: string,
  actor: Identity,
  body: UpdateProjectBody,
) {
  await requireProjectRole(db, projectId, actor, 'admin');
  // A taken slug is left to the unique index (409 with the message above), which also settles
  // two concurrent renames to the same slug.
  const patch: repo.ProjectPatch = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.slug !== undefined) patch.slug = body.slug;
  return serialize(await repo.updateProject(db, projectId, patch));
}
