import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { actors } from './actors.table.ts';
import type { Identity } from './identity.ts';

export type Actor = typeof actors.$inferSelect;

/** Records a caller; a token without a name keeps the name an earlier token gave. */
export async function upsertActor(db: Executor, identity: Identity): Promise<void> {
  const name = identity.name ?? null;
  await db
    .insert(actors)
    .values({ user_id: identity.userId, email: identity.email, name })
    .onConflictDoUpdate({
      target: actors.user_id,
      set: {
        email: identity.email,
        name: sql`coalesce(excluded.name, ${actors.name})`,
        last_seen_at: sql`now()`,
      },
    });
}

/** The actor with this e-mail (case-insensitive); the most recently seen when several share it. */
export async function findActorByEmail(db: Executor, email: string): Promise<Actor | undefined> {
  const rows = await db
    .select()
    .from(actors)
    .where(sql`lower(${actors.email}) = lower(${email})`)
    .orderBy(desc(actors.last_seen_at))
    .limit(1);
  return rows[0];
}

export async function findActorById(db: Executor, userId: string): Promise<Actor | undefined> {
  const rows = await db.select().from(actors).where(eq(actors.user_id, userId)).limit(1);
  return rows[0];
}
