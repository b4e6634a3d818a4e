/**
 * Capacity under concurrency (docs/reference/tickets.md): simultaneous registrations for the last seats. Each
 * seat is taken by one conditional update inside the registration's transaction, so exactly as
 * many registrations as there are seats are confirmed, and `confirmed_count` always equals them.
 * The point of this file is the PostgreSQL server run (`TEST_DATABASE_URL`), where the requests
 * really run in parallel on separate connections; the embedded database runs it too.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import type { ApiResponse } from '../../../../test/harness.ts';
import { useTeam } from '../events.fixtures.ts';
import { ticketFixtures } from '../tickets/tickets.fixtures.ts';
import type { Registration } from './registrations.schemas.ts';

describe('registrations racing for the last seats', () => {
  const team = useTeam();
  const { t } = team;
  const { setupEdition, createTicketType, register, ticketTypes, registrations, emissions } = ticketFixtures(
    () => team,
  );

  /** Registers `count` different people for a ticket type of `seats` seats, all at the same moment. */
  async function race(seats: number, count: number) {
    const { edition } = await setupEdition();
    const ticket = await createTicketType(edition.id, { name: 'Scarce', max_quantity: seats });
    const people = [];
    for (let index = 0; index < count; index++) people.push(await t.actor(`racer${index}`));
    const responses = await Promise.all(people.map((person) => register(person, edition.id, ticket.id)));
    return { edition, ticket, people, responses };
  }

  function tally(responses: ApiResponse<Registration>[]) {
    const won = responses.filter((response) => response.status === 201);
    const lost = responses.filter((response) => response.status !== 201);
    for (const response of won) assert.equal(expectOk(response, 201).status, 'confirmed');
    for (const response of lost) expectError(response, 409, 'CONFLICT');
    return { won: won.length, lost: lost.length };
  }

  async function checkCounters(editionId: string, confirmed: number, seats: number) {
    const [listed] = await ticketTypes(editionId);
    assert.equal(listed.confirmed_count, confirmed, 'confirmed_count equals the confirmed registrations');
    assert.equal(listed.remaining, seats - confirmed);
    const rows = await registrations(editionId);
    assert.equal(rows.filter((row) => row.status === 'confirmed').length, confirmed);
    assert.equal(rows.length, confirmed, 'a refused registration leaves no row behind');
    const badges = (await emissions(editionId)).filter((badge) => badge.origin === 'participant');
    assert.equal(badges.length, confirmed, 'one participant badge per confirmed registration');
  }

  it('gives the last seat to exactly one of two simultaneous registrations', async () => {
    const { edition, responses } = await race(1, 2);
    assert.deepEqual(tally(responses), { won: 1, lost: 1 });
    await checkCounters(edition.id, 1, 1);
  });

  it('confirms exactly N of N+3 simultaneous registrations for N seats', async () => {
    const seats = 5;
    const { edition, responses } = await race(seats, seats + 3);
    assert.deepEqual(tally(responses), { won: seats, lost: 3 });
    await checkCounters(edition.id, seats, seats);
  });

  it('confirms one of two simultaneous registrations of the same person', async () => {
    const { edition } = await setupEdition({ from: 100, to: 110 });
    const ticket = await createTicketType(edition.id, { name: 'Plenty', max_quantity: 10 });
    const person = await t.actor('double-click');
    const responses = await Promise.all([
      register(person, edition.id, ticket.id),
      register(person, edition.id, ticket.id),
    ]);
    assert.deepEqual(tally(responses), { won: 1, lost: 1 });
    await checkCounters(edition.id, 1, 10);
  });
});
