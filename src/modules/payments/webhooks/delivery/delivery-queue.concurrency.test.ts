/**
 * Recording attempts from several workers at once (PostgreSQL only: the embedded database has one
 * connection, so nothing there runs at once). Each record statement also updates its endpoints'
 * health; statements naming the same endpoints in opposite orders must neither deadlock nor lose
 * a count. The scale bench's two drainers found the deadlock before the endpoints were locked in
 * id order.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inArray, sql } from 'drizzle-orm';
import { expectOk } from '../../../../../test/assertions.ts';
import { TEST_DATABASE_URL } from '../../../../../test/database.ts';
import { uuidv7 } from '../../../../kernel/db/ids.ts';
import { paymentsFixtures, usePaymentsTeam } from '../../payments.fixtures.ts';
import type { WebhookEndpoint } from '../endpoints/endpoints.schemas.ts';
import { webhookEndpoints } from '../endpoints/endpoints.table.ts';
import { openWorkerPool } from './delivery.session.ts';
import { type AttemptOutcome, recordAttempts } from './delivery-queue.repository.ts';

const skip = TEST_DATABASE_URL ? false : 'needs a PostgreSQL server: set TEST_DATABASE_URL';
const ROUNDS = 120;
const ENDPOINTS = 8;

describe('recording attempts from concurrent workers', { skip }, () => {
  const team = usePaymentsTeam({ WEBHOOK_WORKER: 'false' });
  const { createWallet } = paymentsFixtures(team);

  it('updates the same endpoints from many statements at once without a deadlock or a lost count', async (t) => {
    const wallet = await createWallet(team().owner);
    const endpoints = await Promise.all(
      Array.from({ length: ENDPOINTS }, (_, n) => `endpoint-${n}`).map(async (name) =>
        expectOk(
          await team().t.post<WebhookEndpoint>(`/wallets/${wallet.id}/webhooks/endpoints`, {
            token: team().owner.token,
            body: { name, url: `http://127.0.0.1:9/${name}` },
          }),
          201,
        ),
      ),
    );
    // Outcomes of deliveries no claim holds: nothing is recorded for them, but the subscriber was
    // called, so their endpoints' health counts them.
    const outcome = (endpointId: string, succeeded: boolean): AttemptOutcome => ({
      deliveryId: uuidv7(),
      endpointId,
      claimId: uuidv7(),
      succeeded,
      startedAt: new Date(),
      durationMs: 1,
      responseStatus: succeeded ? 200 : 500,
      responseBody: null,
      error: null,
      status: succeeded ? 'delivered' : 'pending',
      retryInSeconds: succeeded ? null : 5,
    });
    const ids = endpoints.map((endpoint) => endpoint.id);
    // The workers' own connections, with their session settings (generic plans, no sequential
    // scans: the plans under which the deadlock happened).
    const workers = openWorkerPool(team().t.database.handle);
    t.after(() => workers.close());
    await Promise.all(
      Array.from({ length: ROUNDS }, (_, round) => {
        // Each statement names the endpoints in an order of its own (a rotation, one way or the other).
        const rotated = [...ids.slice(round % ENDPOINTS), ...ids.slice(0, round % ENDPOINTS)];
        const order = round % 2 === 0 ? rotated : rotated.reverse();
        return recordAttempts(
          workers.db,
          order.map((id) => outcome(id, true)),
          { failures: 1_000, pauseMs: 1_000 },
        );
      }),
    );
    // This hour's counts and the last's together, in case the clock hour turned meanwhile.
    const rows = await team()
      .t.db.select({
        attempts: sql<number>`${webhookEndpoints.hour_attempts} + ${webhookEndpoints.previous_hour_attempts}`,
        successes: sql<number>`${webhookEndpoints.hour_successes} + ${webhookEndpoints.previous_hour_successes}`,
      })
      .from(webhookEndpoints)
      .where(inArray(webhookEndpoints.id, ids));
    assert.deepEqual(
      rows,
      ids.map(() => ({ attempts: ROUNDS, successes: ROUNDS })),
    );
  });
});
