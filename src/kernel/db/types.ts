/**
 * The types every layer above the driver sees: one `Database` for both drivers, and the handle
 * `openDatabase` returns. Kept apart from the drivers so each can import them without a cycle.
 */
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type pg from 'pg';

export type Database = PgDatabase<PgQueryResultHKT>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Repositories take either, so a service can run several of them in one transaction. */
export type Executor = Database | Transaction;

/** What `migrate()` found: migrations applied now, or none pending. */
export type MigrateOutcome = 'applied' | 'up to date';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations', import.meta.url));

export interface DatabaseHandle {
  db: Database;
  kind: 'postgres' | 'pglite';
  /** The PGlite instance when embedded (tests use it to snapshot a migrated database). */
  pglite: PGlite | undefined;
  /** The pool when on a server. */
  pool: pg.Pool | undefined;
  /**
   * Calls `onNotify` for every `pg_notify(channel, …)` committed by anyone (any process on a
   * server), and once more after a lost listening connection comes back, since notifications
   * sent meanwhile are gone. Resolves to a function that stops listening.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /**
   * A `Database` with connections of its own (a server: a separate pool of `poolSize`), so a
   * background job never waits behind request transactions for a connection. The embedded
   * database has one connection: the same `db`.
   */
  dedicated(poolSize: number, options?: DedicatedOptions): { db: Database; close(): Promise<void> };
  /** Applies pending migrations; cheap when there are none (migrations-state.ts). */
  migrate(): Promise<MigrateOutcome>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DedicatedOptions {
  /**
   * Server settings for this pool's sessions (sent at connection start-up, so they cost no round
   * trip): the job that owns the pool says which and why. Ignored by the embedded database.
   */
  settings?: Record<string, string>;
}

export interface DatabaseOptions {
  /** `postgres://…`, `memory://`, or undefined for an embedded database in `dataDir`. */
  url: string | undefined;
  dataDir: string;
  poolSize?: number;
  /** A PGlite dump to start from (tests: a migrated snapshot). */
  loadDataDir?: Blob;
}
