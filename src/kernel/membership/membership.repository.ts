/**
 * SQL of a membership table (`event_members`, `project_members`): each module owns its table and
 * hands it here with the column that names the parent (event or project). Rows come back with the
 * member's e-mail from the actor directory.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { actors } from '../auth/actors.table.ts';
import type { Executor } from '../db/client.ts';
import { countAll, pageOf, type Window } from '../db/paging.ts';
import { queryRows } from '../db/raw.ts';

export interface MemberTable {
  table: PgTable;
  /** The parent's id column (`event_id`, `project_id`). */
  parentId: PgColumn;
  userId: PgColumn;
  role: PgColumn;
  createdAt: PgColumn;
}

export type MemberRow<R extends string> = { user_id: string; email: string; role: R; created_at: Date };

export function membershipRepository<R extends string>(members: MemberTable) {
  const columns = {
    user_id: members.userId,
    email: actors.email,
    role: members.role,
    created_at: members.createdAt,
  };
  const ofParent = (parentId: string) => eq(members.parentId, parentId);
  const withEmails = (db: Executor) =>
    db.select(columns).from(members.table).innerJoin(actors, eq(actors.user_id, members.userId));

  return {
    /** Adds the member; false when they already are one (a concurrent add won: nothing written). */
    async insert(db: Executor, parentId: string, userId: string, role: R): Promise<boolean> {
      const inserted = await queryRows(
        db,
        sql`insert into ${members.table} (${sql.identifier(members.parentId.name)}, ${sql.identifier(members.userId.name)}, ${sql.identifier(members.role.name)}) values (${parentId}, ${userId}, ${role})
            on conflict do nothing returning 1`,
      );
      return inserted.length > 0;
    },

    list(db: Executor, parentId: string, window: Window) {
      return pageOf<MemberRow<R>>(
        window,
        withEmails(db)
          .where(ofParent(parentId))
          // The owner first, then admins, then the rest; within a role, by joining order.
          .orderBy(
            sql`case ${members.role} when 'owner' then 0 when 'admin' then 1 else 2 end`,
            members.createdAt,
            members.userId,
          )
          .limit(window.limit)
          .offset(window.offset)
          .then((rows) => rows as MemberRow<R>[]),
        db.select({ total: countAll }).from(members.table).where(ofParent(parentId)),
      );
    },

    async find(db: Executor, parentId: string, userId: string): Promise<MemberRow<R> | undefined> {
      const rows = await withEmails(db)
        .where(and(ofParent(parentId), eq(members.userId, userId)))
        .limit(1);
      return rows[0] as MemberRow<R> | undefined;
    },

    /** The member whose actor e-mail matches (case-insensitive). */
    async findByEmail(db: Executor, parentId: string, email: string): Promise<MemberRow<R> | undefined> {
      const rows = await withEmails(db)
        .where(and(ofParent(parentId), sql`lower(${actors.email}) = lower(${email})`))
        .limit(1);
      return rows[0] as MemberRow<R> | undefined;
    },

    async delete(db: Executor, parentId: string, userId: string): Promise<void> {
      await db.delete(members.table).where(and(ofParent(parentId), eq(members.userId, userId)));
    },
  };
}

export type MembershipRepository<R extends string> = ReturnType<typeof membershipRepository<R>>;
