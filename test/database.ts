/**
 * A fresh, migrated database for each test app.
 *
 * - Embedded (default): an in-memory PGlite loaded from a migrated snapshot. The snapshot is made
 *   once per migration set and cached on disk (node_modules/.cache), so a test app pays for a
 *   PGlite boot, not for running every migration.
 * - Server (`TEST_DATABASE_URL=postgres://…/name`): a new database per test app, cloned from a
 *   migrated template database (`<name>_tpl_<hash>`), dropped when the app closes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, MIGRATIONS_DIR, openDatabase } from '../src/kernel/db/client.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

const CACHE_DIR = join(MIGRATIONS_DIR, '..', 'node_modules', '.cache', 'convene-test');

function migrationsHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(MIGRATIONS_DIR);
  return hash.digest('hex').slice(0, 16);
}

let snapshot: Promise<Blob> | undefined;

/**
 * The migrated data directory, read once per process (a shard process builds many apps). An
 * uncompressed tar: PGlite loads it in about 60 % of the CPU time a gzipped one takes. Without the
 * template databases (below): a third of the bytes and half the files less to load, and a test
 * app's PGlite boots in ~80 % of the CPU time (~0.45 s instead of ~0.55 s).
 */
function pgliteSnapshot(): Promise<Blob> {
  snapshot ??= readOrMakeSnapshot();
  return snapshot;
}

async function readOrMakeSnapshot(): Promise<Blob> {
  // `-slim`: a snapshot without the templates, not one an older harness cached under the same hash.
  const file = join(CACHE_DIR, `pglite-${migrationsHash()}-slim.tar`);
  if (existsSync(file)) return new Blob([readFileSync(file)]);
  const database = await openDatabase({ url: 'memory://', dataDir: '' });
  await database.migrate();
  // A PGlite instance opens one database, `postgres`, and nothing here creates another, so the
  // templates initdb made are never read; dropped (through the catalog, which stays consistent),
  // every test app no longer loads them.
  const pglite = database.pglite!;
  await pglite.exec(
    `update pg_database set datistemplate = false where datname in ('template0', 'template1')`,
  );
  await pglite.exec('drop database template0');
  await pglite.exec('drop database template1');
  await pglite.exec('checkpoint');
  const dump = await pglite.dumpDataDir('none');
  await database.close();
  const bytes = Buffer.from(await dump.arrayBuffer());
  // Test files run in parallel processes: write aside, then rename (atomic), so no process reads
  // a half-written snapshot.
  mkdirSync(CACHE_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, bytes);
  renameSync(partial, file);
  return new Blob([bytes]);
}

function serverUrl(database: string): string {
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${database}`;
  return url.toString();
}

const TEMPLATE_LOCK = 7_356_001;

async function serverDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(TEST_DATABASE_URL!).pathname.slice(1) || 'postgres';
  const template = `${base}_tpl_${migrationsHash()}`;
  const name = `${base}_t${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    // One process at a time creates the template or copies it (a copy needs the template idle).
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const exists = await admin.query('select 1 from pg_database where datname = $1', [template]);
    if (exists.rowCount === 0) {
      await admin.query(`create database "${template}"`);
      const handle = await openDatabase({ url: serverUrl(template), dataDir: '', poolSize: 1 });
      await handle.migrate();
      await handle.close();
    }
    await admin.query(`create database "${name}" template "${template}"`);
  } finally {
    await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => {});
    await admin.end();
  }
  return {
    url: serverUrl(name),
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`).catch(() => {});
      await client.end();
    },
  };
}

export interface TestDatabase {
  handle: DatabaseHandle;
  /** The connection URL (server) or undefined (embedded). */
  url: string | undefined;
  close(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (TEST_DATABASE_URL !== undefined && TEST_DATABASE_URL !== '') {
    const { url, drop } = await serverDatabase();
    const handle = await openDatabase({ url, dataDir: '', poolSize: 5 });
    return {
      handle,
      url,
      close: async () => {
        await handle.close();
        await drop();
      },
    };
  }
  const handle = await openDatabase({ url: 'memory://', dataDir: '', loadDataDir: await pgliteSnapshot() });
  return { handle, url: undefined, close: () => handle.close() };
}
