/**
 * Session settings of a dedicated pool (the delivery worker's) reach the server's sessions, and
 * settings already in DATABASE_URL's `options` are kept beside them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { TEST_DATABASE_URL } from '../../../test/database.ts';
import { openDatabase } from './client.ts';
import { withSettings } from './postgres.ts';
import { queryRows } from './raw.ts';

describe('session settings of a dedicated pool', () => {
  it('adds -c name=value to the URL options, after those it already has', () => {
    const added = new URL(withSettings('postgres://u@h:5432/db', { synchronous_commit: 'off' }));
    assert.equal(added.searchParams.get('options'), '-c synchronous_commit=off');
    const kept = new URL(
      withSettings('postgres://u@h:5432/db?options=-c%20search_path%3Dapp&sslmode=disable', {
        synchronous_commit: 'off',
        enable_seqscan: 'off',
      }),
    );
    assert.equal(
      kept.searchParams.get('options'),
      '-c search_path=app -c synchronous_commit=off -c enable_seqscan=off',
    );
    assert.equal(kept.searchParams.get('sslmode'), 'disable');
  });

  const skip = TEST_DATABASE_URL ? false : 'needs a PostgreSQL server: set TEST_DATABASE_URL';
  it('applies them to every session of the pool on a server, and only there', { skip }, async () => {
    const url = new URL(TEST_DATABASE_URL!);
    url.searchParams.set('options', '-c statement_timeout=4321');
    const database = await openDatabase({ url: url.toString(), dataDir: 'unused', poolSize: 1 });
    // A custom setting: its value can only come from the pool's start-up options.
    const pool = database.dedicated(2, { settings: { 'convene.test_marker': 'dedicated' } });
    try {
      const show = `select current_setting('convene.test_marker', true) as marker,
                           current_setting('statement_timeout') as timeout`;
      const [own] = await queryRows<{ marker: string | null; timeout: string }>(pool.db, sql.raw(show));
      assert.deepEqual(own, { marker: 'dedicated', timeout: '4321ms' });
      const [shared] = await queryRows<{ marker: string | null; timeout: string }>(
        database.db,
        sql.raw(show),
      );
      assert.deepEqual(shared, { marker: null, timeout: '4321ms' });
    } finally {
      await pool.close();
      await database.close();
    }
  });
});
