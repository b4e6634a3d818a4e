/**
 * Migrations on a server, one process at a time: several replicas may start at once against one
 * database, and two running the same migration would fail or, worse, half-apply it.
 */
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';
import { isUpToDate } from './migrations-state.ts';
import { MIGRATIONS_DIR, type MigrateOutcome } from './types.ts';

// Any constant works; it only has to be the same in every process sharing the database.
const MIGRATION_LOCK_KEY = 4_815_162_342;

export async function migrateLocked(pool: pg.Pool): Promise<MigrateOutcome> {
  // Outside the lock: a restart with nothing to apply does not wait behind a replica that is
  // migrating. A stale answer here only means the migrator below runs and finds nothing to do.
  if (await isUpToDate(async (text) => (await pool.query<Record<string, unknown>>(text)).rows)) {
    return 'up to date';
  }
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
    return 'applied';
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    client.release();
  }
}
