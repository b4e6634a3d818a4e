/** SQL of projects and their members. */
import { and, desc, eq, sql } from 'drizzle-orm';
import { actors } from '../../kernel/auth/actors.table.ts';
import type { Executor } from '../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../kernel/db/paging.ts';
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

// ---------- members ----------

const memberColumns = {
  user_id: projectMembers.user_id,
  email: actors.email,
  role: projectMembers.role,
  created_at: projectMembers.created_at,
};

export type ProjectMemberRow = { user_id: string; email: string; role: ProjectRole; created_at: Date };

export async function insertMember(
  db: Executor,
  values: { project_id: string; user_id: string; role: ProjectRole },
): Promise<void> {
  await db.insert(projectMembers).values(values);
}

export function listMembers(db: Executor, projectId: string, window: Window) {
  const ofProject = eq(projectMembers.project_id, projectId);
  return pageOf<ProjectMemberRow>(
    window,
    db
      .select(memberColumns)
      .from(projectMembers)
      .innerJoin(actors, eq(actors.user_id, projectMembers.user_id))
      .where(ofProject)
      // The owner first, then admins, then members; within a role, by joining order.
      .orderBy(
        sql`case ${projectMembers.role} when 'owner' then 0 when 'admin' then 1 else 2 end`,
        projectMembers.created_at,
        projectMembers.user_id,
      )
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(projectMembers).where(ofProject),
  );
}

export async function findMember(
  db: Executor,
  projectId: string,
  userId: string,
): Promise<ProjectMemberRow | undefined> {
  const rows = await db
    .select(memberColumns)
    .from(projectMembers)
    .innerJoin(actors, eq(actors.user_id, projectMembers.user_id))
    .where(and(eq(projectMembers.project_id, projectId), eq(projectMembers.user_id, userId)))
    .limit(1);
  return rows[0];
}

/** The member whose actor e-mail matches (case-insensitive). */
export async function findMemberByEmail(
  db: Executor,
  projectId: string,
  email: string,
): Promise<ProjectMemberRow | undefined> {
  const rows = await db
    .select(memberColumns)
    .from(projectMembers)
    .innerJoin(actors, eq(actors.user_id, projectMembers.user_id))
    .where(and(eq(projectMembers.project_id, projectId), sql`lower(${actors.email}) = lower(${email})`))
    .limit(1);
  return rows[0];
}

export async function deleteMember(db: Executor, projectId: string, userId: string): Promise<void> {
  await db
    .delete(projectMembers)
    .where(and(eq(projectMembers.project_id, projectId), eq(projectMembers.user_id, userId)));
}
