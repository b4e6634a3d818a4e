/**
 * Shutting down with a request in flight: its answer says `connection: close`, so the keep-alive
 * connection it came on ends with it and the server's close does not wait for the client's
 * keep-alive timeout (72 s). Over real HTTP: a paid registration whose provider call is slow (the
 * simulator's delay) is the request in flight when the close begins.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { checkoutHelpers, useCheckoutBench } from './checkout.fixtures.ts';

describe('shutting down with a request in flight', () => {
  const bench = useCheckoutBench({}, { delayMs: 1_000 });
  const h = checkoutHelpers(bench);

  it('answers it with connection: close, so its keep-alive connection does not hold the close', async () => {
    const { t, sim } = bench();
    const { edition, ticketType } = await h.paidEdition();
    const payer = await t.actor('late-payer');
    const agent = new Agent({ keepAliveTimeout: 600_000 });
    try {
      const answer = request(`${t.baseUrl}/editions/${edition.id}/registrations`, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization: `Bearer ${payer.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ticket_type_id: ticketType.id }),
      });
      // In flight: the service is waiting for the provider's preference, which the simulator holds.
      while (sim.held === 0) await sleep(5);
      const closing = t.app.close();
      const response = await answer;
      assert.equal(response.statusCode, 201, await response.body.text());
      assert.equal(response.headers.connection, 'close');
      await closing;
    } finally {
      await agent.close();
    }
  });
});
