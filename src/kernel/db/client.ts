/**
 * The database: Drizzle over `pg` for a PostgreSQL server, or over PGlite (PostgreSQL compiled to
 * WebAssembly) embedded in the process. Everything above this file sees one `Database` type and
 * writes portable SQL (PostgreSQL 15 is the floor).
 */
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';

export type Database = PgDatabase<PgQueryResultHKT>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Repositories take either, so a service can run several of them in one transaction. */
export type Executor = Database | Transaction;

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations', import.meta.url));

const CLOSE_DRAIN_MS = 5_000;

// Any constant works; it only has to be the same in every process sharing the database.
const MIGRATION_LOCK_KEY = 4_815_162_342;

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
  migrate(): Promise<void>;
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

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url?.startsWith('postgres')) return openPostgres(options.url, options.poolSize ?? 10);
  // Imported only when used: loading PGlite costs a server deployment ~40 MiB of memory for nothing.
  const { openPglite } = await import('./pglite.ts');
  return openPglite(options);
}

function newPool(url: string, poolSize: number, options: DedicatedOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.settings === undefined ? url : withSettings(url, options.settings),
    max: poolSize,
    idleTimeoutMillis: 30_000,
  });
  // An idle client that loses its connection emits 'error' on the pool; without a listener that
  // would crash the process. The next query gets a fresh connection.
  pool.on('error', () => {});
  pool.on('connect', coalesceWrites);
  return pool;
}

/**
 * `url` with `-c name=value` per setting added to its `options` parameter. pg lets the URL's
 * parameters override the pool's, so settings go into the URL, after any `options` it already has.
 */
export function withSettings(url: string, settings: Record<string, string>): string {
  const parsed = new URL(url);
  const added = Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`);
  const own = parsed.searchParams.get('options');
  parsed.searchParams.set('options', [...(own ? [own] : []), ...added].join(' '));
  return parsed.toString();
}

function openPostgres(url: string, poolSize: number): DatabaseHandle {
  const pool = newPool(url, poolSize);
  const db = drizzlePg(pool) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    pglite: undefined,
    pool,
    listen: (channel, onNotify) => listenPostgres(url, channel, onNotify),
    dedicated(size, dedicatedOptions) {
      const own = newPool(url, size, dedicatedOptions);
      return {
        db: drizzlePg(own) as unknown as Database,
        close: async () => {
          if (!own.ended) await own.end();
        },
      };
    },
    async migrate() {
      // Several processes may start at once against one database: serialize their migrations.
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        client.release();
      }
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      // Idempotent: shutdown paths may close twice, and pg refuses a second end().
      if (pool.ended) return;
      // app.close() does not wait for handlers whose client already hung up; let their queries
      // finish (bounded) rather than failing them with "pool ended".
      const deadline = Date.now() + CLOSE_DRAIN_MS;
      while ((pool.totalCount > pool.idleCount || pool.waitingCount > 0) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await pool.end();
    },
  };
}

const RELISTEN_DELAY_MS = 1_000;

/**
 * LISTEN on a connection of its own (a pooled one would be handed to queries). If it drops, it is
 * re-opened after a second, for as long as the listener is not stopped.
 */
async function listenPostgres(
  url: string,
  channel: string,
  onNotify: () => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const reconnectLater = () => {
    if (stopped) return;
    retry = setTimeout(() => {
      connect().then(onNotify, reconnectLater);
    }, RELISTEN_DELAY_MS);
  };
  const connect = async () => {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
    } catch (error) {
      client.end().catch(() => {});
      throw error;
    }
    // Only a connection that got as far as listening is watched; a failed connect is the caller's.
    const lost = () => {
      if (current !== client) return;
      current = undefined;
      client.end().catch(() => {});
      reconnectLater();
    };
    client.on('error', lost);
    client.on('end', lost);
    current = client;
    if (stopped) await client.end().catch(() => {});
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = undefined;
    await client?.end().catch(() => {});
  };
}

interface PgConnectionInternals {
  connection?: { _send?: (buffer: Buffer) => boolean; stream?: { cork(): void; uncork(): void } };
}

/**
 * pg writes each protocol message of a query (bind, describe, execute, sync) with its own
 * socket write, i.e. one system call each on an idle socket: the benchmark found a quarter of the
 * service's CPU in those writes. Corking the socket until the end of the tick sends a query's
 * messages in one write. This wraps a private method of pg 8 (`Connection._send`); if a future
 * version drops it, the guard leaves the client as it is and only speed is lost.
 */
function coalesceWrites(client: pg.PoolClient): void {
  const connection = (client as unknown as PgConnectionInternals).connection;
  const send = connection?._send;
  const stream = connection?.stream;
  if (connection === undefined || send === undefined || stream === undefined) return;
  let isCorked = false;
  const uncork = () => {
    isCorked = false;
    stream.uncork();
  };
  connection._send = (buffer: Buffer) => {
    if (!isCorked) {
      isCorked = true;
      stream.cork();
      process.nextTick(uncork);
    }
    return send.call(connection, buffer);
  };
}

/** The rows of a raw SQL statement (both drivers answer `{ rows }`). */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

interface DrizzleInternals {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  $client?: unknown;
}

/**
 * `queryRows` as a named prepared statement on a server: parsed and planned once per connection
 * instead of on every call, which matters for a hot, many-part statement. `name` must always go
 * with the same SQL text. Embedded (and inside a transaction) it is a plain `queryRows`.
 */
export async function queryRowsPrepared<T>(db: Executor, name: string, query: SQL): Promise<T[]> {
  const internals = db as unknown as DrizzleInternals;
  const client = internals.$client;
  if (!(client instanceof pg.Pool)) return queryRows<T>(db, query);
  const { sql: text, params } = internals.dialect.sqlToQuery(query);
  const result = await client.query({ name, text, values: params });
  return result.rows as T[];
}
