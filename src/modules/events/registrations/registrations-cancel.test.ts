/**
 * Cancelling a registration (docs/reference/tickets.md): who may, the seat it frees, the participant badge it
 * revokes, and re-registration re-activating the same badge.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectFields, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import { ISO, UNKNOWN_ID, useTeam } from '../events.fixtures.ts';
import { emissionOf, REGISTRATION_KEYS, ticketFixtures } from '../tickets/tickets.fixtures.ts';
import type { TicketType } from '../tickets/tickets.schemas.ts';
import type { Registration } from './registrations.schemas.ts';

describe('POST /registrations/{registration_id}/cancel', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  let edition: Edition;
  let ticket: TicketType;
  const fx = ticketFixtures(() => team);
  const { setupEdition, createTicketType, register, cancel, ticketTypes, emissions } = fx;

  /** A new person registered for the shared ticket type. */
  async function registered(name = 'holder') {
    const person = await t.actor(name);
    return { person, registration: expectOk(await register(person, edition.id, ticket.id), 201) };
  }

  let forAuth: Registration;
  before(async () => {
    edition = (await setupEdition()).edition;
    ticket = await createTicketType(edition.id, { name: 'Standard', max_quantity: 100 });
    forAuth = (await registered('auth')).registration;
  });

  checkAuth(
    'registration cancel',
    () => t,
    () => [{ method: 'POST', url: `/registrations/${forAuth.id}/cancel`, forbidden: outsider }],
  );

  it('lets the registrant cancel: status, seat and badge change together', async () => {
    const { person, registration } = await registered();
    const before = (await ticketTypes(edition.id))[0].confirmed_count;
    const cancelled = expectOk(await cancel(person, registration.id), 200, 'events');
    assert.deepEqual(Object.keys(cancelled).sort(), REGISTRATION_KEYS);
    assert.equal(cancelled.id, registration.id);
    assert.equal(cancelled.status, 'cancelled');
    assert.match(cancelled.cancelled_at ?? '', ISO);
    assert.equal((await ticketTypes(edition.id))[0].confirmed_count, before - 1);

    const badge = emissionOf(await emissions(edition.id), person.id, 'participant')!;
    assert.equal(badge.status, 'revoked');
    assert.equal(badge.status_reason, 'registration_cancelled');
    const mine = await fx.userBadges(person.id);
    assert.deepEqual(mine.attendant, { current: [], past: [] });
  });

  it('lets an owner or admin cancel anyone; refuses staff and others (403)', async () => {
    const byAdmin = await registered();
    expectError(await cancel(staff, byAdmin.registration.id), 403, 'FORBIDDEN');
    expectError(await cancel(outsider, byAdmin.registration.id), 403, 'FORBIDDEN');
    expectOk(await cancel(admin, byAdmin.registration.id));
    const byOwner = await registered();
    expectOk(await cancel(owner, byOwner.registration.id));
  });

  it('refuses to cancel twice (409) without freeing a second seat', async () => {
    const { person, registration } = await registered();
    expectOk(await cancel(person, registration.id));
    const count = (await ticketTypes(edition.id))[0].confirmed_count;
    assert.equal(
      expectError(await cancel(person, registration.id), 409, 'CONFLICT').reason,
      'already_cancelled',
    );
    assert.equal(
      expectError(await cancel(owner, registration.id), 409, 'CONFLICT').reason,
      'already_cancelled',
    );
    assert.equal((await ticketTypes(edition.id))[0].confirmed_count, count);
  });

  it('re-registration re-activates the same badge and clears its reason', async () => {
    const { person, registration } = await registered();
    const first = emissionOf(await emissions(edition.id), person.id, 'participant')!;
    expectOk(await cancel(person, registration.id));
    const again = expectOk(await register(person, edition.id, ticket.id), 201);
    assert.notEqual(again.id, registration.id);
    const badge = emissionOf(await emissions(edition.id), person.id, 'participant')!;
    assert.equal(badge.id, first.id);
    assert.equal(badge.status, 'active');
    assert.equal(badge.status_reason, null);
    assert.ok(badge.emitted_at >= first.emitted_at);
    const all = (await emissions(edition.id)).filter((item) => item.user_id === person.id);
    assert.equal(all.length, 1, 'one emission per edition, person and origin');
  });

  it('frees the seat for someone else once a sold-out ticket is cancelled', async () => {
    const { edition: small } = await setupEdition({ from: 100, to: 110 });
    const one = await createTicketType(small.id, { name: 'One', max_quantity: 1 });
    const first = await t.actor('first');
    const taken = expectOk(await register(first, small.id, one.id), 201);
    const second = await t.actor('second');
    expectError(await register(second, small.id, one.id), 409, 'CONFLICT');
    expectOk(await cancel(first, taken.id));
    expectOk(await register(second, small.id, one.id), 201);
    const [listed] = await ticketTypes(small.id);
    assert.deepEqual([listed.confirmed_count, listed.remaining], [1, 0]);
  });

  it('answers 404 for an unknown registration, 400 for a bad id or a body', async () => {
    expectError(await cancel(owner, UNKNOWN_ID), 404, 'NOT_FOUND');
    expectFields(
      await t.post<Registration>('/registrations/xyz/cancel', { token: owner.token }),
      'params.registration_id',
    );
    const { person, registration } = await registered();
    expectFields(
      await t.post<Registration>(`/registrations/${registration.id}/cancel`, {
        token: person.token,
        body: { reason: 'x' },
      }),
      'body',
    );
  });

  it('hides a registration of a draft event from outsiders (404), not from its registrant', async () => {
    const { edition: hidden } = await setupEdition({ isDraftEvent: true, from: 200, to: 210 });
    const hiddenTicket = await createTicketType(hidden.id);
    const guest = await t.actor('guest');
    const registration = expectOk(await register(staff, hidden.id, hiddenTicket.id, guest.email), 201);
    expectError(await cancel(outsider, registration.id), 404, 'NOT_FOUND');
    expectError(await cancel(staff, registration.id), 403, 'FORBIDDEN');
    expectOk(await cancel(guest, registration.id));
  });
});
