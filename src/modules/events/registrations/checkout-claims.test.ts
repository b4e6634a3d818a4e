/**
 * Checkout claims (`withCheckoutClaim`, docs/reference/checkout.md): the wait for another request's
 * claim of the same person is bounded (then a 409 `checkout_in_progress`), and a claim released
 * stays released, even when a renewal was on its way to the database at the release. Against the
 * real database; the race needs two connections, so it runs on a PostgreSQL server only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { TEST_DATABASE_URL } from '../../../../test/database.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { queryRows } from '../../../kernel/db/raw.ts';
import { AppError } from '../../../kernel/http/errors.ts';
import { useTeam } from '../events.fixtures.ts';
import { ticketFixtures } from '../tickets/tickets.fixtures.ts';
import { until } from './checkout.fixtures.ts';
import { withCheckoutClaim } from './checkout.service.ts';
import { claimCheckout } from './checkout-claims.repository.ts';
import { checkoutClaims } from './checkout-claims.table.ts';

describe('checkout claims', () => {
  const team = useTeam();
  const fx = ticketFixtures(() => team);
  const claimsOf = (editionId: string, userId: string) =>
    team.t.db
      .select()
      .from(checkoutClaims)
      .where(and(eq(checkoutClaims.edition_id, editionId), eq(checkoutClaims.user_id, userId)));

  it('stops waiting for another request’s claim after its deadline: 409 checkout_in_progress, nothing run', async () => {
    const { edition } = await fx.setupEdition();
    const userId = uuidv7();
    // Another request of the same person holds the claim (for longer than this one waits).
    assert.equal(await claimCheckout(team.t.db, edition.id, userId, uuidv7(), 3), true);
    let ran = false;
    const waiting = withCheckoutClaim(
      team.t.db,
      edition.id,
      userId,
      async () => {
        ran = true;
      },
      { waitMs: 300 },
    );
    await assert.rejects(waiting, (error: unknown) => {
      assert.ok(error instanceof AppError);
      assert.equal(error.code, 'CONFLICT');
      assert.match(error.message, /checkout for this person is in progress; retry/);
      assert.equal(error.reason, 'checkout_in_progress');
      assert.equal(error.meta, undefined);
      return true;
    });
    assert.equal(ran, false);
  });

  it('takes the claim once the other request releases it', async () => {
    const { edition } = await fx.setupEdition();
    const userId = uuidv7();
    const [first, second] = await Promise.all([
      withCheckoutClaim(team.t.db, edition.id, userId, () => new Promise((done) => setTimeout(done, 200, 1))),
      withCheckoutClaim(team.t.db, edition.id, userId, async () => 2),
    ]);
    assert.deepEqual([first, second], [1, 2]);
    assert.deepEqual(await claimsOf(edition.id, userId), []);
  });

  // PostgreSQL only, like the other concurrency suites: the embedded database runs one statement at
  // a time, so a renewal cannot overtake the release there.
  it('never brings a released claim back: a renewal on its way at the release does not insert it again', {
    skip: TEST_DATABASE_URL ? false : 'needs a PostgreSQL server: set TEST_DATABASE_URL',
  }, async () => {
    const { db } = team.t;
    const { edition } = await fx.setupEdition();
    const userId = uuidv7();
    // Every write of a claim takes 1.5 s at the database, so a renewal is still on its way when
    // the request ends and releases its claim.
    await db.execute(sql`create function slow_claim() returns trigger language plpgsql as $$
      begin perform pg_sleep(1.5); return new; end $$`);
    await db.execute(sql`create trigger slow_claim before insert or update on checkout_claims
      for each row execute function slow_claim()`);
    const sleeping = async () => {
      const [row] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event = 'PgSleep'`,
      );
      return row?.n ?? 0;
    };
    try {
      await withCheckoutClaim(db, edition.id, userId, () =>
        // The request ends while the first renewal (due a second after the claim) is at the database.
        until(sleeping, (n) => n > 0, 'a renewal at the database'),
      );
      await until(sleeping, (n) => n === 0, 'the renewal done');
      assert.deepEqual(await claimsOf(edition.id, userId), []);
    } finally {
      await db.execute(sql`drop trigger slow_claim on checkout_claims`);
      await db.execute(sql`drop function slow_claim()`);
    }
  });
});
