/**
 * Prepared statements for hot reads. Drizzle otherwise rebuilds the SQL text on every call and the
 * server parses and plans it every time; a named prepared statement is built once per database
 * handle (cached here) and planned once per connection (pg caches it by name).
 */
import type { Database } from './types.ts';

export function preparedQuery<T>(build: (db: Database) => T): (db: Database) => T {
  const cache = new WeakMap<Database, T>();
  return (db) => {
    let query = cache.get(db);
    if (query === undefined) {
      query = build(db);
      cache.set(db, query);
    }
    return query;
  };
}
