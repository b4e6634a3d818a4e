/** SQL of projects and their members. */
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../kernel/db/client.ts';
import { type ProjectRole, type ProjectRow, projectMembers, projects } from './projects.table.ts';

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
