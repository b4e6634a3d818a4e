/**
 * A PostgreSQL server through `pg`: the request pool, dedicated pools for background jobs (with
 * session settings of their own), and a bounded drain on close.
 */
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { listenPostgres } from './listen.ts';
import { migrateLocked } from './migration-lock.ts';
import type { Database, DatabaseHandle, DedicatedOptions } from './types.ts';

const CLOSE_DRAIN_MS = 5_000;

function newPool(url: string, poolSize: number, options: DedicatedOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.settings === undefined ? url : withSettings(url, options.settings),
    max: poolSize,
    idleTimeoutMillis: 30_000,
  });
  // An idle client that loses its connection emits 'error' on the pool; without a listener that
  // would crash the process. The next query gets a fresh connection.
  pool.on('error', () => {});
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

export function openPostgres(url: string, poolSize: number): DatabaseHandle {
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
    migrate: () => migrateLocked(pool),
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
