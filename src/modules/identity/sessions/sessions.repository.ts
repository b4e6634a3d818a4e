/** The SQL of browser sessions (sessions.table.ts). Times are the database's `now()`, one clock for every process. */
import { and, eq, gt, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { identitySessions } from './sessions.table.ts';

export type SessionRow = typeof identitySessions.$inferSelect;

/** How long a session lives without a request (docs/reference/sign-in.md). */
export const IDLE_TIMEOUT_SECONDS = 2 * 60 * 60;
/** `last_seen_at` is written at most this often, not on every request. */
export const TOUCH_AFTER_SECONDS = 60;

const secondsAgo = (seconds: number) => sql`now() - ${seconds}::integer * interval '1 second'`;
const idleSince = secondsAgo(IDLE_TIMEOUT_SECONDS);

export async function insertSession(
  db: Executor,
  session: { idHash: Buffer; userId: string; email: string; name: string | null; ttlHours: number },
): Promise<SessionRow> {
  const [row] = await db
    .insert(identitySessions)
    .values({
      id_hash: session.idHash,
      user_id: session.userId,
      email: session.email,
      name: session.name,
      expires_at: sql`now() + ${session.ttlHours}::integer * interval '1 hour'`,
    })
    .returning();
  if (row === undefined) throw new Error('the session was not stored');
  return row;
}

/** The live session with this hash (neither past its expiry nor idle too long), or undefined. */
export async function findLiveSession(db: Executor, idHash: Buffer): Promise<SessionRow | undefined> {
  const rows = await db
    .select()
    .from(identitySessions)
    .where(
      and(
        eq(identitySessions.id_hash, idHash),
        gt(identitySessions.expires_at, sql`now()`),
        gt(identitySessions.last_seen_at, idleSince),
      ),
    )
    .limit(1);
  return rows[0];
}

/** Moves `last_seen_at` to now when it is older than TOUCH_AFTER_SECONDS (one write a minute at most). */
export async function touchSession(db: Executor, idHash: Buffer): Promise<void> {
  await db
    .update(identitySessions)
    .set({ last_seen_at: sql`now()` })
    .where(
      and(
        eq(identitySessions.id_hash, idHash),
        lt(identitySessions.last_seen_at, secondsAgo(TOUCH_AFTER_SECONDS)),
      ),
    );
}

export async function deleteSession(db: Executor, idHash: Buffer): Promise<void> {
  await db.delete(identitySessions).where(eq(identitySessions.id_hash, idHash));
}

/** Forgets ended sessions (called as sessions start, so the table does not grow without bound). */
export async function deleteEndedSessions(db: Executor): Promise<void> {
  await db
    .delete(identitySessions)
    .where(or(lt(identitySessions.expires_at, sql`now()`), lt(identitySessions.last_seen_at, idleSince)));
}
