/**
 * Database errors raised by the real database (PGlite or the server, whichever the suite runs on)
 * map to the codes of docs/reference/errors.md: the constraint is the last line of defence and still answers
 * with a clear 4xx.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { AppError } from '../http/errors.ts';
import { mapDatabaseError } from './errors.ts';
import { uuidv7 } from './ids.ts';

async function failureOf(work: Promise<unknown>): Promise<AppError> {
  try {
    await work;
  } catch (error) {
    const mapped = mapDatabaseError(error);
    assert.ok(mapped instanceof AppError, `mapped: ${String(error)}`);
    return mapped;
  }
  throw new Error('expected the statement to fail');
}

describe('database error mapping', () => {
  let t: TestApp;
  const owner = uuidv7();
  const eventId = uuidv7();
  before(async () => {
    t = await createTestApp();
    await t.db.execute(sql`insert into actors (user_id, email) values (${owner}, 'owner@example.com')`);
    await t.db.execute(
      sql`insert into events (id, name, slug, owner_id) values (${eventId}, 'Mapped', 'mapped', ${owner})`,
    );
  });
  after(() => t.close());

  it('maps a unique violation to 409 CONFLICT with the registered message', async () => {
    const error = await failureOf(
      t.db.execute(
        sql`insert into events (id, name, slug, owner_id) values (${uuidv7()}, 'Again', 'mapped', ${owner})`,
      ),
    );
    assert.equal(error.code, 'CONFLICT');
    assert.equal(error.status, 409);
    assert.equal(error.meta?.constraint, 'events_slug_unique');
  });

  it('maps a check violation to 400 BAD_REQUEST', async () => {
    const error = await failureOf(
      t.db.execute(sql`insert into editions (id, event_id, name, slug, starts_at, ends_at, created_by)
        values (${uuidv7()}, ${eventId}, 'Backwards', 'backwards', '2027-01-02T00:00:00Z', '2027-01-01T00:00:00Z', ${owner})`),
    );
    assert.equal(error.code, 'BAD_REQUEST');
    assert.equal(error.meta?.constraint, 'editions_dates_check');
  });

  it('maps a missing reference to 404 and a delete of a referenced row to 409', async () => {
    const missing = await failureOf(
      t.db.execute(
        sql`insert into event_members (event_id, user_id, role) values (${uuidv7()}, ${owner}, 'staff')`,
      ),
    );
    assert.equal(missing.code, 'NOT_FOUND');
    await t.db.execute(
      sql`insert into event_members (event_id, user_id, role) values (${eventId}, ${owner}, 'owner')`,
    );
    const referenced = await failureOf(t.db.execute(sql`delete from actors where user_id = ${owner}`));
    assert.equal(referenced.code, 'CONFLICT');
  });

  it('maps malformed values to 400 and leaves other errors alone', async () => {
    const malformed = await failureOf(t.db.execute(sql`select ${'not-a-uuid'}::uuid`));
    assert.equal(malformed.code, 'BAD_REQUEST');
    assert.equal(mapDatabaseError(new Error('something else')), undefined);
  });
});
