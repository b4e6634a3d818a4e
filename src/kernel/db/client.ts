/**
 * The database: Drizzle over `pg` for a PostgreSQL server (`postgres.ts`), or over PGlite
 * (PostgreSQL compiled to WebAssembly) embedded in the process (`pglite.ts`). Everything above this
 * file sees one `Database` type (`types.ts`) and writes portable SQL (PostgreSQL 15 is the floor).
 */
import { openPostgres } from './postgres.ts';
import type { DatabaseHandle, DatabaseOptions } from './types.ts';

export type {
  Database,
  DatabaseHandle,
  DatabaseOptions,
  DedicatedOptions,
  Executor,
  Transaction,
} from './types.ts';
export { MIGRATIONS_DIR } from './types.ts';

/** A server when `url` is `postgres://…`; otherwise the embedded database. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url?.startsWith('postgres')) return openPostgres(options.url, options.poolSize ?? 10);
  // Imported only when used: loading PGlite costs a server deployment ~40 MiB of memory for nothing.
  const { openPglite } = await import('./pglite.ts');
  return openPglite(options);
}
