/**
 * Raw SQL for the statements Drizzle's query builder cannot say (or says slower): the rows of a
 * `sql` template, and the same as a named prepared statement on a server.
 */
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Executor } from './types.ts';

/** The rows of a raw SQL statement (both drivers answer `{ rows }`). */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

// Drizzle's public SQL builder: renders a `sql` template to text and parameters exactly as a
// database instance does (no casing option is configured anywhere).
const dialect = new PgDialect();

/**
 * `queryRows` as a named prepared statement on a server: parsed once per connection instead of on
 * every call, and planned once when the server keeps its generic plan (prepared.ts), which matters
 * for a hot, many-part statement. `name` must always go
 * with the same SQL text. Embedded (and inside a transaction) it is a plain `queryRows`.
 */
export async function queryRowsPrepared<T>(db: Executor, name: string, query: SQL): Promise<T[]> {
  const client = (db as { $client?: unknown }).$client;
  if (!(client instanceof pg.Pool)) return queryRows<T>(db, query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  const result = await client.query({ name, text, values: params });
  return result.rows as T[];
}
