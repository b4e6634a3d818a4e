/** Ticket types (docs/reference/tickets.md): creation by organizers, the public listing with remaining seats. */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectFields, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import { expectInvalid, expectMalformedJson, ISO, UNKNOWN_ID, useTeam } from '../events.fixtures.ts';
import { TICKET_TYPE_KEYS, ticketFixtures } from './tickets.fixtures.ts';
import type { TicketType } from './tickets.schemas.ts';

describe('ticket types', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  let live: Edition;
  let draft: Edition;
  let hidden: Edition;
  const { setupEdition, createTicketType, ticketTypes, register } = ticketFixtures(() => team);
  const url = (editionId: string) => `/editions/${editionId}/ticket-types`;

  before(async () => {
    live = (await setupEdition()).edition;
    draft = (await setupEdition({ isDraft: true })).edition;
    hidden = (await setupEdition({ isDraftEvent: true })).edition;
  });

  checkAuth(
    'ticket type creation',
    () => t,
    () => [
      {
        method: 'POST',
        url: url(live.id),
        body: { name: 'VIP', price_cents: 0, access_level: 1 },
        forbidden: staff,
      },
    ],
  );

  describe('POST /editions/{edition_id}/ticket-types', () => {
    it('creates a ticket type for an owner or admin, limited or unlimited', async () => {
      const limited = await createTicketType(
        live.id,
        { name: 'Early bird', price_cents: 0, access_level: 2, max_quantity: 50 },
        admin,
      );
      assert.deepEqual(Object.keys(limited).sort(), TICKET_TYPE_KEYS);
      assert.equal(limited.edition_id, live.id);
      assert.equal(limited.name, 'Early bird');
      assert.equal(limited.price_cents, 0);
      assert.equal(limited.access_level, 2);
      assert.equal(limited.max_quantity, 50);
      assert.equal(limited.confirmed_count, 0);
      assert.equal(limited.remaining, 50);
      assert.match(limited.created_at, ISO);
      assert.match(limited.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7/);

      const unlimited = await createTicketType(live.id, {
        name: 'Supporter',
        price_cents: 2500,
        currency: 'BRL',
      });
      assert.equal(unlimited.max_quantity, null);
      assert.equal(unlimited.remaining, null);
      assert.equal(unlimited.currency, 'BRL');
      assert.equal(unlimited.held_count, 0);

      const explicitNull = await createTicketType(live.id, { name: 'Open', max_quantity: null });
      assert.equal(explicitNull.max_quantity, null);
    });

    it('lets organizers prepare the ticket types of a draft edition', async () => {
      const created = await createTicketType(draft.id, { name: 'Draft ticket' });
      assert.equal(created.edition_id, draft.id);
    });

    it('refuses bad input, naming each field', async () => {
      const send = (body: unknown) => t.post<TicketType>(url(live.id), { token: owner.token, body });
      await expectMalformedJson(t, url(live.id), owner);
      expectInvalid(await send({}), 'missing fields', 'name', 'price_cents', 'access_level');
      expectInvalid(
        await send({ name: 'A', price_cents: 100, access_level: 0 }),
        'a paid ticket without currency',
        'currency',
      );
      expectInvalid(
        await send({ name: 'A', price_cents: 100, currency: 'brl', access_level: 0 }),
        'a currency that is not ISO 4217',
        'currency',
      );
      expectInvalid(
        await send({ name: 'A', price_cents: 0, access_level: 0, capacity: 3 }),
        'unknown field',
        'capacity',
      );
      expectInvalid(
        await send({ name: 'A', price_cents: '100', access_level: 0 }),
        'a string price',
        'price_cents',
      );
      expectInvalid(
        await send({ name: 'A', price_cents: -1, access_level: 0 }),
        'negative price',
        'price_cents',
      );
      expectInvalid(
        await send({ name: 'A', price_cents: 1.5, access_level: 0 }),
        'fractional price',
        'price_cents',
      );
      expectInvalid(
        await send({ name: 'A', price_cents: 0, access_level: -1 }),
        'negative level',
        'access_level',
      );
      expectInvalid(
        await send({ name: 'A', price_cents: 0, access_level: 0, max_quantity: 0 }),
        'max_quantity 0',
        'max_quantity',
      );
      expectInvalid(
        await send({ name: 'A', price_cents: 2 ** 31, access_level: 0 }),
        'a price beyond 32 bits',
        'price_cents',
      );
      expectInvalid(await send({ name: '', price_cents: 0, access_level: 0 }), 'empty name', 'name');
      expectInvalid(await send(['General']), 'an array body', 'body');
      expectFields(
        await t.post<TicketType>('/editions/not-a-uuid/ticket-types', {
          token: owner.token,
          body: { name: 'A', price_cents: 0, access_level: 0 },
        }),
        'params.edition_id',
      );
    });

    it('answers 404 for an unknown edition and for a draft event to outsiders', async () => {
      const body = { name: 'A', price_cents: 0, access_level: 0 };
      expectError(await t.post<TicketType>(url(UNKNOWN_ID), { token: owner.token, body }), 404, 'NOT_FOUND');
      expectError(
        await t.post<TicketType>(url(hidden.id), { token: outsider.token, body }),
        404,
        'NOT_FOUND',
      );
      expectError(await t.post<TicketType>(url(live.id), { token: outsider.token, body }), 403, 'FORBIDDEN');
    });
  });

  describe('GET /editions/{edition_id}/ticket-types', () => {
    it('lists the ticket types publicly, in creation order, with the seats that remain', async () => {
      const { edition } = await setupEdition();
      const small = await createTicketType(edition.id, { name: 'Small', max_quantity: 2 });
      const free = await createTicketType(edition.id, { name: 'Free for all' });
      expectOk(await register(outsider, edition.id, small.id), 201);

      const response = await t.get<TicketType[]>(url(edition.id));
      const listed = expectOk(response, 200, 'events');
      assert.deepEqual(
        listed.map((item) => [item.name, item.confirmed_count, item.remaining]),
        [
          ['Small', 1, 1],
          ['Free for all', 0, null],
        ],
      );
      for (const item of listed) assert.deepEqual(Object.keys(item).sort(), TICKET_TYPE_KEYS);
      assert.equal(response.body.pagination.total, 2);

      const page = await t.get<TicketType[]>(`${url(edition.id)}?page=2&limit=1`);
      assert.deepEqual(
        expectOk(page).map((item) => item.id),
        [free.id],
      );
      assert.equal(page.body.pagination.has_prev, true);
    });

    it('shows the ticket types of a draft edition to members only', async () => {
      expectError(await t.get<TicketType[]>(url(draft.id)), 404, 'NOT_FOUND');
      expectError(await t.get<TicketType[]>(url(draft.id), { token: outsider.token }), 404, 'NOT_FOUND');
      expectError(await t.get<TicketType[]>(url(hidden.id)), 404, 'NOT_FOUND');
      const seen = await ticketTypes(draft.id, staff);
      assert.ok(seen.length >= 1);
    });

    it('refuses an unknown edition (404) and bad paging or ids (400)', async () => {
      expectError(await t.get<TicketType[]>(url(UNKNOWN_ID)), 404, 'NOT_FOUND');
      expectInvalid(await t.get<TicketType[]>(`${url(live.id)}?limit=0`), 'limit=0', 'query.limit');
      expectInvalid(await t.get<TicketType[]>(`${url(live.id)}?foo=1`), 'unknown query', 'query.foo');
      expectInvalid(await t.get<TicketType[]>('/editions/xyz/ticket-types'), 'bad id', 'params.edition_id');
      expectError(await t.get<TicketType[]>(url(live.id), { token: 'not-a-jwt' }), 401, 'UNAUTHORIZED');
    });
  });
});
