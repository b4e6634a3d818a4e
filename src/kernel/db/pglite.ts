/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) in the process, in memory or
 * in `DATA_DIR/pglite`. Loaded by `openDatabase` only when no server is configured.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { isUpToDate } from './migrations-state.ts';
import { type Database, type DatabaseHandle, type DatabaseOptions, MIGRATIONS_DIR } from './types.ts';

/**
 * The extensions the migrations create (`CREATE EXTENSION`), which PGlite must be given when it
 * opens: pg_trgm, for the registrations' search (migrations/0018_sales.sql).
 */
const EXTENSIONS = { pg_trgm };

export async function openPglite(options: DatabaseOptions): Promise<DatabaseHandle> {
  let client: PGlite;
  if (options.url === 'memory://') {
    client = new PGlite({
      extensions: EXTENSIONS,
      ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir }),
    });
  } else {
    const dir = `${options.dataDir.replace(/\/+$/, '')}/pglite`;
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir, { extensions: EXTENSIONS });
  }
  await client.waitReady;
  const db = drizzlePglite(client) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    pool: undefined,
    dedicated: () => ({ db, close: async () => {} }),
    async listen(channel, onNotify) {
      const unlisten = await client.listen(channel, () => onNotify());
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    async migrate() {
      // One process owns an embedded database, so nothing can apply a migration between the check
      // and the migrator.
      if (await isUpToDate(async (text) => (await client.query<Record<string, unknown>>(text)).rows)) {
        return 'up to date';
      }
      await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR });
      return 'applied';
    },
    async ping() {
      await client.query('select 1');
    },
    async close() {
      if (!client.closed) await client.close();
    },
  };
}
