/**
 * Prepared statements for hot reads. Drizzle otherwise rebuilds the SQL text on every call and the
 * server parses and plans it every time; a named prepared statement is built once per database
 * handle (cached here) and parsed once per connection (pg caches it by name).
 *
 * Planned once, too, only if the server keeps its generic plan: after five runs planned with their
 * values, it does so when the generic plan's estimate is no worse than theirs. A statement whose
 * estimate hangs on a value (a search pattern) is planned at every run unless that value reaches it
 * through a sub-select (the registrations' search, bench/README.md, "Organiser console").
 */
import { is } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Database, Executor, Transaction } from './types.ts';

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

/**
 * As `preparedQuery`, for a statement whose text depends on which of its parts are given (a
 * listing's filters): one statement per database handle and `shape`, the key naming that text.
 */
export function preparedQueries<T>(
  build: (db: Database, shape: string) => T,
): (db: Database, shape: string) => T {
  const cache = new WeakMap<Database, Map<string, T>>();
  return (db, shape) => {
    let byShape = cache.get(db);
    if (byShape === undefined) {
      byShape = new Map();
      cache.set(db, byShape);
    }
    let query = byShape.get(shape);
    if (query === undefined) {
      query = build(db, shape);
      byShape.set(shape, query);
    }
    return query;
  };
}

/**
 * Whether `db` is a transaction: a statement prepared on the database handle runs on a connection
 * of its own, outside the caller's transaction, so a transaction runs the statement unprepared.
 */
export function isTransaction(db: Executor): db is Transaction {
  return is(db, PgTransaction);
}
