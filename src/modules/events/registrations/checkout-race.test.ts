/**
 * The last seats under concurrency with holds (docs/reference/checkout.md): simultaneous paid registrations
 * hold exactly as many seats as there are, a seat held by someone paying is not sold to anyone else, and
 * counters always equal the registrations. The point is the PostgreSQL server run (`TEST_DATABASE_URL`),
 * where requests run in parallel on separate connections.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { checkoutHelpers, useCheckoutBench } from './checkout.fixtures.ts';

describe('checkout: racing for the last seats', () => {
  const bench = useCheckoutBench();
  const h = checkoutHelpers(bench);

  it('holds exactly N seats for N+5 simultaneous paid registrations, and never oversells', async () => {
    const { t, sim } = bench();
    const seats = 3;
    const { edition, ticketType } = await h.paidEdition({ max_quantity: seats });
    const people = [];
    for (let index = 0; index < seats + 5; index++) people.push(await t.actor(`racer${index}`));
    const responses = await Promise.all(
      people.map((person) => h.register(person, edition.id, ticketType.id)),
    );
    const won = responses
      .filter((response) => response.status === 201)
      .map((response) => expectOk(response, 201));
    const lost = responses.filter((response) => response.status !== 201);
    assert.equal(won.length, seats);
    for (const response of lost) assert.match(expectError(response, 409, 'CONFLICT').message, /sold out/);
    assert.ok(won.every((registration) => registration.status === 'pending_payment'));
    let [ticket] = await h.ticketTypes(edition.id);
    assert.equal(ticket?.held_count, seats);
    assert.equal(ticket?.remaining, 0);
    const rows = await h.registrations(edition.id);
    assert.equal(rows.length, seats, 'a refused registration leaves no row behind');

    // All of them pay at once: every held seat becomes a confirmed one.
    await Promise.all(
      won.map((registration) => sim.pay(h.preferenceOf(registration.intent_id ?? '').id, 'approved')),
    );
    for (const registration of won) await h.registrationWhen(registration.id, 'confirmed');
    [ticket] = await h.ticketTypes(edition.id);
    assert.equal(ticket?.confirmed_count, seats);
    assert.equal(ticket?.held_count, 0);
    const badges = (await h.emissions(edition.id)).filter((badge) => badge.origin === 'participant');
    assert.equal(badges.length, seats);
    // And the seat stays sold.
    expectError(await h.register(await t.actor('late'), edition.id, ticketType.id), 409, 'CONFLICT');
  });

  it('keeps a seat held by someone paying from a free-ticket registration and a staff comp alike', async () => {
    const { t, owner } = bench();
    const { edition, ticketType } = await h.paidEdition({ max_quantity: 1 });
    const payer = await t.actor('payer');
    expectOk(await h.register(payer, edition.id, ticketType.id), 201);
    const guest = await t.actor('guest');
    // A staff member handing the same ticket type out free of charge is refused too: no seat is free.
    expectError(await h.register(owner, edition.id, ticketType.id, guest.email), 409, 'CONFLICT');
    const [ticket] = await h.ticketTypes(edition.id);
    assert.equal(ticket?.held_count, 1);
    assert.equal(ticket?.confirmed_count, 0);
  });

  it('gives one registration to one person double-clicking, with one hold', async () => {
    const { t } = bench();
    const { edition, ticketType } = await h.paidEdition({ max_quantity: 10 });
    const person = await t.actor('double-click');
    const responses = await Promise.all([
      h.register(person, edition.id, ticketType.id),
      h.register(person, edition.id, ticketType.id),
    ]);
    const registrations = responses.map((response) => {
      assert.ok([200, 201].includes(response.status), response.text);
      return response.body.data;
    });
    assert.equal(registrations[0]?.id, registrations[1]?.id);
    assert.equal((await h.ticketTypes(edition.id))[0]?.held_count, 1);
  });
});
