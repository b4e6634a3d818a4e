/**
 * Whether a database already holds every migration of `migrations/`, checked with two cheap reads
 * before the migrator runs. Drizzle's migrator reads and hashes every migration file and, on a
 * server, waits for the migration lock (migration-lock.ts) even when there is nothing to apply;
 * on a restart there almost never is.
 *
 * Safe with several processes: drizzle applies pending migrations and records them in one
 * transaction, so a recorded last migration means every earlier one is committed too. Anything
 * else (no table yet, an older last record) runs the migrator as before, under the lock on a
 * server, where it checks again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from './types.ts';

/** Runs one statement and resolves with its rows (the driver's own query function). */
export type RowQuery = (sql: string) => Promise<Array<Record<string, unknown>>>;

interface Journal {
  entries: Array<{ when: number; tag: string }>;
}

/** The `when` of the journal's last migration: drizzle records it as that migration's created_at. */
export function lastMigration(): { when: number; tag: string } | undefined {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as Journal;
  return journal.entries.at(-1);
}

/** True when drizzle's own table records the journal's last migration (or a later one). */
export async function isUpToDate(query: RowQuery): Promise<boolean> {
  const last = lastMigration();
  if (last === undefined) return true;
  // to_regclass first: selecting from a table that does not exist yet would be an error.
  const [table] = await query(`select to_regclass('drizzle.__drizzle_migrations') is not null as "exists"`);
  if (table?.exists !== true) return false;
  const [row] = await query(
    `select exists (select 1 from drizzle.__drizzle_migrations where created_at >= ${Number(last.when)}) as "recorded"`,
  );
  return row?.recorded === true;
}
