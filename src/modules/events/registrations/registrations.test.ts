/**
 * Registrations (docs/reference/tickets.md): registering oneself or, as staff, someone else; the rules of
 * publication, price, window, duplicates and capacity; the staff listing. Cancellation is in
 * registrations-cancel.test.ts, races in registrations-concurrency.test.ts.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectFields, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import { expectInvalid, expectMalformedJson, ISO, UNKNOWN_ID, useTeam } from '../events.fixtures.ts';
import {
  emissionOf,
  PAST,
  REGISTRATION_KEYS,
  REGISTRATION_LIST_ITEM_KEYS,
  ticketFixtures,
} from '../tickets/tickets.fixtures.ts';
import type { TicketType } from '../tickets/tickets.schemas.ts';
import type { Registration, RegistrationListItem } from './registrations.schemas.ts';

describe('registrations', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  let live: Edition;
  let free: TicketType;
  let paid: TicketType;
  let hidden: Edition;
  const fx = ticketFixtures(() => team);
  const { setupEdition, createTicketType, register, ticketTypes, registrations, emissions } = fx;
  const url = (editionId: string) => `/editions/${editionId}/registrations`;

  before(async () => {
    live = (await setupEdition()).edition;
    free = await createTicketType(live.id, { name: 'Free' });
    paid = await createTicketType(live.id, { name: 'Paid', price_cents: 4900, currency: 'BRL' });
    hidden = (await setupEdition({ isDraftEvent: true, from: 100, to: 120 })).edition;
  });

  checkAuth(
    'registration routes',
    () => t,
    () => [
      // Registering someone else needs staff: an outsider naming an e-mail gets 403.
      {
        method: 'POST',
        url: url(live.id),
        body: { ticket_type_id: free.id, email: owner.email },
        forbidden: outsider,
      },
      { method: 'GET', url: url(live.id), forbidden: outsider },
    ],
  );

  describe('POST /editions/{edition_id}/registrations (self)', () => {
    it('confirms a free ticket, takes a seat and emits the participant badge', async () => {
      const person = await t.actor('attendee');
      const { edition } = await setupEdition({ from: 200, to: 220 });
      const ticket = await createTicketType(edition.id, { name: 'Community', max_quantity: 10 });
      const registration = expectOk(await register(person, edition.id, ticket.id), 201, 'events');
      assert.deepEqual(Object.keys(registration).sort(), REGISTRATION_KEYS);
      assert.equal(registration.status, 'confirmed');
      assert.equal(registration.edition_id, edition.id);
      assert.equal(registration.ticket_type_id, ticket.id);
      assert.equal(registration.user_id, person.id);
      assert.equal(registration.created_by, person.id);
      assert.equal(registration.cancelled_at, null);
      assert.match(registration.created_at, ISO);

      const [listed] = await ticketTypes(edition.id);
      assert.equal(listed.confirmed_count, 1);
      assert.equal(listed.remaining, 9);

      const badge = emissionOf(await emissions(edition.id), person.id, 'participant')!;
      assert.equal(badge.status, 'active');
      assert.equal(badge.status_reason, null);
      assert.equal(badge.ticket_name, 'Community');
      assert.equal(badge.holder_email, person.email);

      const mine = await fx.userBadges(person.id);
      assert.deepEqual(
        mine.attendant.current.map((item) => item.id),
        [badge.id],
      );
    });

    it('refuses a paid ticket while the event has no payment link (409 naming the fix)', async () => {
      const error = expectError(await register(outsider, live.id, paid.id), 409, 'CONFLICT');
      assert.match(error.message, /PUT \/events\/\{event_id\}\/payments/);
      assert.equal(error.reason, 'payments_not_linked');
      assert.equal(error.meta?.event_id, live.event_id);
      assert.equal((await registrations(live.id)).filter((row) => row.user_id === outsider.id).length, 0);
    });

    it('refuses a second active registration of the same person (409)', async () => {
      const person = await t.actor('twice');
      const first = expectOk(await register(person, live.id, free.id), 201);
      const error = expectError(await register(person, live.id, free.id), 409, 'CONFLICT');
      assert.equal(error.meta?.registration_id, first.id);
      assert.equal(error.reason, 'already_registered');
      const other = await createTicketType(live.id, { name: 'Other' });
      assert.equal(
        expectError(await register(person, live.id, other.id), 409, 'CONFLICT').reason,
        'already_registered',
      );
    });

    it('refuses a sold-out ticket type (409) and keeps the counter', async () => {
      const { edition } = await setupEdition({ from: 300, to: 320 });
      const single = await createTicketType(edition.id, { name: 'Single', max_quantity: 1 });
      expectOk(await register(await t.actor('first'), edition.id, single.id), 201);
      const error = expectError(
        await register(await t.actor('second'), edition.id, single.id),
        409,
        'CONFLICT',
      );
      assert.match(error.message, /sold out/i);
      assert.equal(error.reason, 'sold_out');
      const [listed] = await ticketTypes(edition.id);
      assert.deepEqual([listed.confirmed_count, listed.remaining], [1, 0]);
      assert.equal((await registrations(edition.id)).length, 1);
    });

    it('refuses before the registration opens and after the edition ends (409)', async () => {
      const opensLater = (
        await setupEdition({ from: 400, to: 420, fields: { registration_opens_at: fx.at(390) } })
      ).edition;
      const later = await createTicketType(opensLater.id);
      const early = expectError(await register(outsider, opensLater.id, later.id), 409, 'CONFLICT');
      assert.equal(early.meta?.registration_opens_at, fx.at(390));
      assert.equal(early.reason, 'registration_not_open');

      const past = (await setupEdition(PAST)).edition;
      const old = await createTicketType(past.id);
      assert.equal(
        expectError(await register(outsider, past.id, old.id), 409, 'CONFLICT').reason,
        'edition_ended',
      );

      const opened = (
        await setupEdition({ from: 500, to: 520, fields: { registration_opens_at: '2020-01-01T00:00:00Z' } })
      ).edition;
      expectOk(await register(outsider, opened.id, (await createTicketType(opened.id)).id), 201);
    });

    it('hides draft editions from non-members (404) and refuses members to self-register to one (409)', async () => {
      const { edition } = await setupEdition({ isDraft: true, from: 600, to: 620 });
      const ticket = await createTicketType(edition.id);
      expectError(await register(outsider, edition.id, ticket.id), 404, 'NOT_FOUND');
      expectError(await register(staff, edition.id, ticket.id), 409, 'CONFLICT');
      const hiddenTicket = await createTicketType(hidden.id);
      expectError(await register(outsider, hidden.id, hiddenTicket.id), 404, 'NOT_FOUND');
    });

    it('refuses a ticket type of another edition or an unknown one (404)', async () => {
      const { edition } = await setupEdition({ from: 700, to: 720 });
      const elsewhere = await createTicketType(edition.id);
      expectError(await register(outsider, live.id, elsewhere.id), 404, 'NOT_FOUND');
      expectError(await register(outsider, live.id, UNKNOWN_ID), 404, 'NOT_FOUND');
      expectError(await register(outsider, UNKNOWN_ID, free.id), 404, 'NOT_FOUND');
    });

    it('refuses bad input, naming each field', async () => {
      const send = (body: unknown) => t.post<Registration>(url(live.id), { token: outsider.token, body });
      await expectMalformedJson(t, url(live.id), outsider);
      expectInvalid(await send({}), 'missing ticket', 'ticket_type_id');
      expectInvalid(await send({ ticket_type_id: 'abc' }), 'bad uuid', 'ticket_type_id');
      expectInvalid(await send({ ticket_type_id: 42 }), 'wrong type', 'ticket_type_id');
      expectInvalid(await send({ ticket_type_id: free.id, seats: 2 }), 'unknown field', 'seats');
      expectInvalid(await send({ ticket_type_id: free.id, email: 'not-an-email' }), 'bad e-mail', 'email');
      expectFields(
        await t.post<Registration>('/editions/nope/registrations', {
          token: outsider.token,
          body: { ticket_type_id: free.id },
        }),
        'params.edition_id',
      );
    });
  });

  describe('POST /editions/{edition_id}/registrations (staff registering someone else)', () => {
    it('lets staff register an existing actor with any ticket type, paid included (comp tickets)', async () => {
      const guest = await t.actor('guest');
      const registration = expectOk(await register(staff, live.id, paid.id, guest.email.toUpperCase()), 201);
      assert.equal(registration.user_id, guest.id);
      assert.equal(registration.created_by, staff.id);
      assert.equal(registration.ticket_type_id, paid.id);
      const badge = emissionOf(await emissions(live.id), guest.id, 'participant')!;
      assert.equal(badge.ticket_name, 'Paid');
    });

    it('lets staff register someone to a draft edition or before registration opens, not after the end', async () => {
      const guest = await t.actor('speaker');
      const { edition } = await setupEdition({
        isDraft: true,
        from: 800,
        to: 820,
        fields: { registration_opens_at: fx.at(790) },
      });
      const ticket = await createTicketType(edition.id, {
        name: 'Speaker',
        price_cents: 100,
        currency: 'BRL',
      });
      expectOk(await register(admin, edition.id, ticket.id, guest.email), 201);

      const past = (await setupEdition({ from: PAST.from - 100, to: PAST.from - 50 })).edition;
      const old = await createTicketType(past.id);
      expectError(await register(owner, past.id, old.id, guest.email), 409, 'CONFLICT');
    });

    it('refuses a non-staff caller naming an e-mail (403), an unknown e-mail (404), a duplicate (409)', async () => {
      expectError(await register(outsider, live.id, free.id, owner.email), 403, 'FORBIDDEN');
      const unknown = expectError(
        await register(staff, live.id, free.id, 'nobody-here@example.com'),
        404,
        'NOT_FOUND',
      );
      assert.equal(unknown.message, 'No actor has that e-mail; they must call the API once first');
      const hiddenTicket = await createTicketType(hidden.id, { name: 'Hidden' });
      expectError(await register(outsider, hidden.id, hiddenTicket.id, owner.email), 404, 'NOT_FOUND');
      const guest = await t.actor('again');
      expectOk(await register(staff, live.id, free.id, guest.email), 201);
      expectError(await register(admin, live.id, paid.id, guest.email), 409, 'CONFLICT');
    });
  });

  describe('GET /editions/{edition_id}/registrations', () => {
    it('lists registrations to staff and above, newest first, with e-mail and ticket name', async () => {
      const { edition } = await setupEdition({ from: 900, to: 920 });
      const ticket = await createTicketType(edition.id, { name: 'Listed' });
      const people = [await t.actor('r1'), await t.actor('r2'), await t.actor('r3')];
      const made = [];
      for (const person of people) made.push(expectOk(await register(person, edition.id, ticket.id), 201));
      expectOk(await fx.cancel(people[0]!, made[0].id));

      for (const caller of [owner, admin, staff]) {
        const listed = await registrations(edition.id, caller);
        assert.deepEqual(
          listed.map((item) => item.id),
          made.map((item) => item.id).reverse(),
        );
        assert.deepEqual(Object.keys(listed[0]).sort(), REGISTRATION_LIST_ITEM_KEYS);
        assert.equal(listed[2].email, people[0]!.email);
        assert.equal(listed[2].status, 'cancelled');
        assert.equal(listed[0].ticket_name, 'Listed');
      }

      const confirmed = expectOk(
        await t.get<RegistrationListItem[]>(`${url(edition.id)}?status=confirmed`, { token: owner.token }),
        200,
        'events',
      );
      assert.deepEqual(
        confirmed.map((item) => item.user_id),
        [people[2]!.id, people[1]!.id],
      );
      const page = await t.get<RegistrationListItem[]>(`${url(edition.id)}?page=2&limit=2`, {
        token: owner.token,
      });
      assert.equal(expectOk(page).length, 1);
      assert.deepEqual(
        { total: page.body.pagination.total, has_prev: page.body.pagination.has_prev },
        { total: 3, has_prev: true },
      );
    });

    it('refuses outsiders (403), hides draft events (404), refuses bad queries (400)', async () => {
      expectError(
        await t.get<RegistrationListItem[]>(url(live.id), { token: outsider.token }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await t.get<RegistrationListItem[]>(url(hidden.id), { token: outsider.token }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.get<RegistrationListItem[]>(url(UNKNOWN_ID), { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectInvalid(
        await t.get<RegistrationListItem[]>(`${url(live.id)}?status=maybe`, { token: owner.token }),
        'status',
        'query.status.0',
      );
      expectInvalid(
        await t.get<RegistrationListItem[]>(`${url(live.id)}?page=0`, { token: owner.token }),
        'page',
        'query.page',
      );
      expectInvalid(
        await t.get<RegistrationListItem[]>('/editions/1/registrations', { token: owner.token }),
        'id',
        'params.edition_id',
      );
    });
  });
});
