/** SQL of program sign-ups: the capacity lock, the sign-up itself, cancellation and the list. */
import { and, asc, eq, sql } from 'drizzle-orm';
import { actors } from '../../../kernel/auth/actors.table.ts';
import type { Executor } from '../../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import { checkIns } from '../check-ins/index.ts';
import { type ProgramParticipantRow, programParticipants } from './participants.table.ts';

/**
 * Active sign-ups of a program. With `lock`, the program's row is locked first (FOR UPDATE), so
 * that the count stays true until the caller's transaction ends: every sign-up takes this lock
 * before counting, which is what keeps `max_participants` from being exceeded by concurrent ones.
 */
export async function countActiveParticipants(
  tx: Executor,
  programId: string,
  options: { lock: boolean },
): Promise<number> {
  if (options.lock) {
    await tx.execute(sql`select 1 from programs where id = ${programId} for update`);
  }
  const [row] = await tx
    .select({ total: countAll })
    .from(programParticipants)
    .where(and(eq(programParticipants.program_id, programId), eq(programParticipants.status, 'active')));
  return row?.total ?? 0;
}

export async function findParticipant(
  db: Executor,
  programId: string,
  userId: string,
): Promise<ProgramParticipantRow | undefined> {
  const rows = await db
    .select()
    .from(programParticipants)
    .where(and(eq(programParticipants.program_id, programId), eq(programParticipants.user_id, userId)))
    .limit(1);
  return rows[0];
}

/** Signs the person up, re-activating a cancelled sign-up (one row per program and person). */
export async function activateParticipant(
  tx: Executor,
  values: { program_id: string; user_id: string; registration_id: string | null },
): Promise<ProgramParticipantRow> {
  const [row] = await tx
    .insert(programParticipants)
    .values({ ...values, status: 'active' })
    .onConflictDoUpdate({
      target: [programParticipants.program_id, programParticipants.user_id],
      set: {
        status: 'active',
        registration_id: sql`excluded.registration_id`,
        signed_up_at: sql`now()`,
        cancelled_at: null,
        updated_at: sql`now()`,
      },
    })
    .returning();
  return row!;
}

/** Cancels an active sign-up; undefined when there is none. */
export async function cancelParticipant(
  db: Executor,
  programId: string,
  userId: string,
): Promise<ProgramParticipantRow | undefined> {
  const [row] = await db
    .update(programParticipants)
    .set({ status: 'cancelled', cancelled_at: sql`now()`, updated_at: sql`now()` })
    .where(
      and(
        eq(programParticipants.program_id, programId),
        eq(programParticipants.user_id, userId),
        eq(programParticipants.status, 'active'),
      ),
    )
    .returning();
  return row;
}

export interface ParticipantView extends ProgramParticipantRow {
  holder_email: string;
  holder_name: string | null;
  checked_in_at: Date | null;
}

/** Active sign-ups, first come first, each with its check-in at the program (if any). */
export function listParticipants(db: Executor, programId: string, window: Window) {
  const where = and(eq(programParticipants.program_id, programId), eq(programParticipants.status, 'active'));
  return pageOf<ParticipantView>(
    window,
    db
      .select({
        program_id: programParticipants.program_id,
        user_id: programParticipants.user_id,
        registration_id: programParticipants.registration_id,
        status: programParticipants.status,
        signed_up_at: programParticipants.signed_up_at,
        cancelled_at: programParticipants.cancelled_at,
        created_at: programParticipants.created_at,
        updated_at: programParticipants.updated_at,
        holder_email: actors.email,
        holder_name: actors.name,
        // A person may hold two badges (participant and staff): the earliest check-in of either.
        checked_in_at: sql<Date | null>`(select min(${checkIns.checked_in_at}) from ${checkIns}
          where ${checkIns.program_id} = ${programParticipants.program_id}
            and ${checkIns.user_id} = ${programParticipants.user_id})`.mapWith(checkIns.checked_in_at),
      })
      .from(programParticipants)
      .innerJoin(actors, eq(actors.user_id, programParticipants.user_id))
      .where(where)
      .orderBy(asc(programParticipants.signed_up_at), asc(programParticipants.user_id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(programParticipants).where(where),
  );
}
