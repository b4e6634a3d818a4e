/** SQL of projects (memberships: `project-members.repository.ts`). */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import { type ProjectRole, type ProjectRow, projectMembers, projects } from './projects.table.ts';

export type NewProject = typeof projects.$inferInsert;
export type ProjectPatch = { name?: string; slug?: string };

/** The project and the caller's role in it (undefined for non-members). */
export async function findProjectWithRole(
  db: Executor,
  projectId: string,
  userId: string,
): Promise<{ project: ProjectRow; role: ProjectRole | undefined } | undefined> {
  const rows = await db
    .select({ project: projects, role: projectMembers.role })
    .from(projects)
    .leftJoin(
      projectMembers,
      and(eq(projectMembers.project_id, projects.id), eq(projectMembers.user_id, userId)),
    )
    .where(eq(projects.id, projectId))
    .limit(1);
  const row = rows[0];
  return row === undefined ? undefined : { project: row.project, role: row.role ?? undefined };
}

export async function insertProject(db: Executor, values: NewProject): Promise<ProjectRow> {
  const [row] = await db.insert(projects).values(values).returning();
  return row!;
}

export async function updateProject(db: Executor, id: string, patch: ProjectPatch): Promise<ProjectRow> {
  const [row] = await db
    .update(projects)
    .set({ ...patch, updated_at: sql`now()` })
    .where(eq(projects.id, id))
    .returning();
  return row!;
}

/** The projects where the user holds a role, newest first, each with that role. */
export function listProjectsOfUser(db: Executor, userId: string, window: Window) {
  const mine = eq(projectMembers.user_id, userId);
  return pageOf(
    window,
    db
      .select({ project: projects, role: projectMembers.role })
      .from(projectMembers)
      .innerJoin(projects, eq(projects.id, projectMembers.project_id))
      .where(mine)
      .orderBy(desc(projects.created_at), desc(projects.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(projectMembers).where(mine),
  );
}

/** The project's name, for other features that show it (e-mail templates' sample values). */
export async function findProjectName(db: Executor, projectId: string): Promise<string | undefined> {
  const rows = await db
    .select({ name: projects.name })
    .from(projects)
    .where(eq(projects.id, projectId))
    .limit(1);
  return rows[0]?.name;
}
