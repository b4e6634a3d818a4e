/**
 * The organisers' sales view (docs/reference/tickets.md, "Sales"): the registrations' search and
 * filters with each one's money, the sales summary, the CSV export; who sees what (staff never see
 * money), over real HTTP against the Mercado Pago simulator.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { expectError, expectFields, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { TestUser } from '../../../../test/harness.ts';
import { actors } from '../../../kernel/auth/actors.table.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { REGISTRATION_LIST_ITEM_KEYS } from '../tickets/tickets.fixtures.ts';
import type { TicketType } from '../tickets/tickets.schemas.ts';
import { checkoutHelpers, useCheckoutBench } from './checkout.fixtures.ts';
import type { Registration, RegistrationListItem } from './registrations.schemas.ts';
import { parseCsv } from './sales.fixtures.ts';
import type { SalesSummary } from './sales.schemas.ts';

describe('sales', () => {
  const bench = useCheckoutBench();
  const h = checkoutHelpers(bench);
  let editionId: string;
  let paid: TicketType;
  let free: TicketType;
  let people: Record<'ana' | 'bruno' | 'carla' | 'dora' | 'eve' | 'fabio', TestUser>;
  let made: Record<string, Registration>;
  const list = (query: string, by: TestUser = bench().owner) =>
    bench().t.get<RegistrationListItem[]>(`/editions/${editionId}/registrations${query}`, {
      token: by.token,
    });
  const summary = (by: TestUser = bench().owner) =>
    bench().t.get<SalesSummary>(`/editions/${editionId}/sales`, { token: by.token });
  const csv = (query: string, by: TestUser = bench().owner) =>
    bench().t.get(`/editions/${editionId}/registrations.csv${query}`, { token: by.token });

  before(async () => {
    const { t, admin, staff } = bench();
    const setup = await h.paidEdition({ name: 'Conference pass', price_cents: 5050 });
    editionId = setup.edition.id;
    paid = setup.ticketType;
    free = await h.createTicketType(editionId, { name: 'Community' });
    people = {
      ana: await t.actor('ana', { name: 'Ana Souza' }),
      bruno: await t.actor('bruno', { name: 'Bruno Lima' }),
      carla: await t.actor('carla', { name: 'Souza, Carla "CJ"' }),
      dora: await t.actor('dora', { name: '=HYPERLINK("http://evil.example","x")' }),
      eve: await t.actor('eve'),
      fabio: await t.actor('fabio', { name: 'Fabio 100%_off' }),
    };
    made = {};
    // Ana and Bruno pay; Bruno is refunded. Carla has a seat held; Dora is registered free by staff
    // on the paid ticket; Eve and Fabio take the free ticket, and Eve cancels.
    for (const name of ['ana', 'bruno', 'carla'] as const) {
      made[name] = expectOk(await h.register(people[name], editionId, paid.id), 201);
    }
    for (const name of ['ana', 'bruno'] as const) {
      await bench().sim.pay(h.preferenceOf(made[name]!.intent_id ?? '').id, 'approved');
      await h.registrationWhen(made[name]!.id, 'confirmed');
    }
    expectOk(
      await t.post<Registration>(`/registrations/${made.bruno!.id}/refund`, { token: admin.token, body: {} }),
    );
    made.dora = expectOk(await h.register(staff, editionId, paid.id, people.dora.email), 201);
    made.eve = expectOk(await h.register(people.eve, editionId, free.id), 201);
    made.fabio = expectOk(await h.register(people.fabio, editionId, free.id), 201);
    expectOk(
      await t.post<Registration>(`/registrations/${made.eve!.id}/cancel`, { token: people.eve.token }),
    );
  });

  checkAuth(
    'sales routes',
    () => bench().t,
    () => [
      { method: 'GET', url: `/editions/${editionId}/sales`, forbidden: bench().outsider },
      { method: 'GET', url: `/editions/${editionId}/registrations.csv`, forbidden: bench().outsider },
    ],
  );

  describe('GET /editions/{edition_id}/registrations (search and filters)', () => {
    const ids = (items: RegistrationListItem[]) => items.map((item) => item.id);

    it('gives owners and admins each registration’s name and money', async () => {
      for (const caller of [bench().owner, bench().admin]) {
        const items = expectOk(await list('', caller), 200, 'events');
        assert.deepEqual(Object.keys(items[0]!).sort(), REGISTRATION_LIST_ITEM_KEYS);
        const byId = new Map(items.map((item) => [item.id, item]));
        const ana = byId.get(made.ana!.id)!;
        assert.deepEqual(
          [ana.name, ana.email, ana.ticket_name, ana.status],
          ['Ana Souza', people.ana.email, 'Conference pass', 'confirmed'],
        );
        assert.deepEqual(
          [ana.amount_cents, ana.refunded_cents, ana.currency, ana.payment_status],
          [5050, 0, 'BRL', 'succeeded'],
        );
        const bruno = byId.get(made.bruno!.id)!;
        assert.deepEqual(
          [bruno.status, bruno.amount_cents, bruno.refunded_cents, bruno.payment_status],
          ['refunded', 5050, 5050, 'refunded'],
        );
        const carla = byId.get(made.carla!.id)!;
        assert.deepEqual(
          [carla.status, carla.amount_cents, carla.payment_status],
          ['pending_payment', 5050, 'pending'],
        );
        // Free (a free ticket, or staff's free registration of a paid one): no money; no name claim: null.
        for (const name of ['dora', 'eve', 'fabio'] as const) {
          const item = byId.get(made[name]!.id)!;
          assert.deepEqual(
            [item.amount_cents, item.refunded_cents, item.currency, item.payment_status],
            [null, null, null, null],
          );
        }
        assert.equal(byId.get(made.eve!.id)!.name, null);
      }
    });

    it('shows staff the registrations without money', async () => {
      const items = expectOk(await list('', bench().staff));
      assert.equal(items.length, 6);
      for (const item of items) {
        assert.deepEqual(
          [item.amount_cents, item.refunded_cents, item.currency, item.payment_status],
          [null, null, null, null],
        );
      }
    });

    it('searches a part of the e-mail or the name, any case, with LIKE characters taken literally', async () => {
      assert.deepEqual(ids(expectOk(await list('?q=SOUZA'))).sort(), [made.ana!.id, made.carla!.id].sort());
      assert.deepEqual(
        ids(expectOk(await list(`?q=${encodeURIComponent(people.bruno.email.slice(0, 8).toUpperCase())}`))),
        [made.bruno!.id],
      );
      assert.deepEqual(ids(expectOk(await list('?q=100%25_'))), [made.fabio!.id]);
      // `%` and `_` are no wildcards: "a_a" matches no "ana".
      assert.deepEqual(expectOk(await list('?q=a_a')), []);
      const page = await list('?q=souza&limit=1');
      assert.equal(expectOk(page).length, 1);
      assert.equal(page.body.pagination?.total, 2);
      // Past the end: no rows, the total still told.
      const beyond = await list('?q=souza&page=3&limit=1');
      assert.deepEqual(expectOk(beyond), []);
      assert.equal(beyond.body.pagination?.total, 2);
    });

    it('answers a search as the listing does: the same rows and money, by role; refuses an outsider', async () => {
      // A search that finds rows checks the caller's role in its own statement.
      const all = expectOk(await list(''));
      const searched = expectOk(await list('?q=souza'));
      assert.equal(searched.length, 2);
      assert.deepEqual(
        searched,
        all.filter((item) => searched.some((found) => found.id === item.id)),
      );
      const byStaff = expectOk(await list('?q=souza', bench().staff));
      assert.deepEqual(ids(byStaff), ids(searched));
      for (const item of byStaff) assert.equal(item.amount_cents, null, 'staff see no money');
      // An outsider is refused as without a search, whether the search finds rows or not.
      expectError(await list('?q=souza', bench().outsider), 403, 'FORBIDDEN');
      expectError(await list('?q=nobody-at-all', bench().outsider), 403, 'FORBIDDEN');
    });

    it('filters by one or more statuses, ticket type and paid or free, combined', async () => {
      assert.deepEqual(
        ids(expectOk(await list('?status=confirmed'))).sort(),
        [made.ana!.id, made.dora!.id, made.fabio!.id].sort(),
      );
      assert.deepEqual(
        ids(expectOk(await list('?status=refunded&status=cancelled'))).sort(),
        [made.bruno!.id, made.eve!.id].sort(),
      );
      assert.deepEqual(
        ids(expectOk(await list(`?ticket_type_id=${free.id}`))).sort(),
        [made.eve!.id, made.fabio!.id].sort(),
      );
      assert.deepEqual(
        ids(expectOk(await list('?paid=true'))).sort(),
        [made.ana!.id, made.bruno!.id, made.carla!.id].sort(),
      );
      assert.deepEqual(
        ids(expectOk(await list('?paid=false'))).sort(),
        [made.dora!.id, made.eve!.id, made.fabio!.id].sort(),
      );
      assert.deepEqual(ids(expectOk(await list(`?paid=false&ticket_type_id=${paid.id}&status=confirmed`))), [
        made.dora!.id,
      ]);
      const page = await list('?paid=true&limit=2&page=2');
      assert.deepEqual(expectOk(page).length, 1);
      assert.equal(page.body.pagination?.total, 3);
    });

    it('refuses bad filters with a 400 naming each one', async () => {
      const response = await list('?status=maybe&paid=perhaps&ticket_type_id=1&q=');
      expectError(response, 400, 'VALIDATION_ERROR');
      expectFields(response, 'query.status.0', 'query.paid', 'query.ticket_type_id', 'query.q');
      expectFields(await list(`?q=${'x'.repeat(101)}`), 'query.q');
    });
  });

  describe('GET /editions/{edition_id}/sales', () => {
    it('counts registrations by state and sums the money, in total and per ticket type', async () => {
      for (const caller of [bench().owner, bench().admin]) {
        const sales = expectOk(await summary(caller), 200, 'events');
        assert.equal(sales.edition_id, editionId);
        assert.deepEqual(sales.counts, {
          sold: 3,
          sold_paid: 1,
          sold_free: 2,
          held: 1,
          cancelled: 1,
          expired: 0,
          refunded: 1,
        });
        // Two payments of 50.50 BRL, one refunded; the bench's wallet takes 10% of what was kept.
        const money = {
          currency: 'BRL',
          payments: 2,
          revenue_cents: 10100,
          refunds_cents: 5050,
          fees_cents: 505,
          net_cents: 4545,
        };
        assert.deepEqual(sales.money, [money]);
        assert.deepEqual(
          sales.ticket_types.map((ticket) => [
            ticket.ticket_type_id,
            ticket.name,
            ticket.price_cents,
            ticket.currency,
          ]),
          [
            [paid.id, 'Conference pass', 5050, 'BRL'],
            [free.id, 'Community', 0, null],
          ],
        );
        assert.deepEqual(sales.ticket_types[0]!.counts, {
          sold: 2,
          sold_paid: 1,
          sold_free: 1,
          held: 1,
          cancelled: 0,
          expired: 0,
          refunded: 1,
        });
        assert.deepEqual(sales.ticket_types[0]!.money, [money]);
        assert.deepEqual(sales.ticket_types[1]!.counts, {
          sold: 1,
          sold_paid: 0,
          sold_free: 1,
          held: 0,
          cancelled: 1,
          expired: 0,
          refunded: 0,
        });
        assert.deepEqual(sales.ticket_types[1]!.money, []);
      }
    });

    it('answers an edition with nothing sold with zeros', async () => {
      const { edition } = await h.setupEdition();
      const sales = expectOk(
        await bench().t.get<SalesSummary>(`/editions/${edition.id}/sales`, { token: bench().owner.token }),
      );
      assert.deepEqual(sales.money, []);
      assert.deepEqual(sales.ticket_types, []);
      assert.equal(sales.counts.sold, 0);
    });

    it('refuses staff with the reason (403 sales_restricted), hides drafts (404)', async () => {
      const refused = expectError(await summary(bench().staff), 403, 'FORBIDDEN');
      assert.equal(refused.reason, 'sales_restricted');
      assert.match(refused.message, /owners and admins/);
      const refusedOutsider = expectError(await summary(bench().outsider), 403, 'FORBIDDEN');
      assert.equal(refusedOutsider.reason, undefined);
      const { edition } = await h.setupEdition({ isDraftEvent: true });
      expectError(
        await bench().t.get(`/editions/${edition.id}/sales`, { token: bench().outsider.token }),
        404,
        'NOT_FOUND',
      );
      expectFields(
        await bench().t.get('/editions/1/sales', { token: bench().owner.token }),
        'params.edition_id',
      );
    });
  });

  describe('GET /editions/{edition_id}/registrations.csv', () => {
    it('exports the filtered registrations as RFC 4180 CSV, formulas neutralised, money for owners', async () => {
      const response = await csv('?status=confirmed&status=refunded&status=pending_payment');
      assert.equal(response.status, 200);
      assert.equal(response.headers['content-type'], 'text/csv; charset=utf-8');
      assert.match(
        String(response.headers['content-disposition']),
        /^attachment; filename="registrations-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const [header, ...rows] = parseCsv(response.text);
      assert.deepEqual(header, [
        'registration_id',
        'created_at',
        'status',
        'status_reason',
        'email',
        'name',
        'ticket_type_id',
        'ticket_name',
        'intent_id',
        'amount_cents',
        'refunded_cents',
        'currency',
        'payment_status',
        'cancelled_at',
      ]);
      const byId = new Map(rows.map((row) => [row[0], row]));
      assert.equal(rows.length, 5);
      assert.deepEqual(
        rows.map((row) => row[0]),
        expectOk(await list('?status=confirmed&status=refunded&status=pending_payment')).map(
          (item) => item.id,
        ),
      );
      const carla = byId.get(made.carla!.id)!;
      assert.equal(carla[5], 'Souza, Carla "CJ"');
      assert.match(response.text, /"Souza, Carla ""CJ"""/);
      const dora = byId.get(made.dora!.id)!;
      assert.equal(dora[5], `'=HYPERLINK("http://evil.example","x")`);
      assert.deepEqual(byId.get(made.bruno!.id)!.slice(9, 13), ['5050', '5050', 'BRL', 'refunded']);
      assert.deepEqual(dora.slice(9, 13), ['', '', '', '']);
      assert.equal(byId.get(made.bruno!.id)![13], new Date(byId.get(made.bruno!.id)![13]!).toISOString());
    });

    it('gives staff the columns without money, and takes the search', async () => {
      const [header, ...rows] = parseCsv((await csv('?q=souza', bench().staff)).text);
      assert.ok(!header!.includes('amount_cents'));
      assert.equal(header!.length, 10);
      assert.deepEqual(rows.map((row) => row[0]).sort(), [made.ana!.id, made.carla!.id].sort());
    });

    it('walks every row of an export larger than a batch', async () => {
      const { t } = bench();
      const { edition } = await h.setupEdition();
      const ticket = await h.createTicketType(edition.id, { name: 'Crowd' });
      // Seeded in SQL (a thousand sign-ups through the API would take the test's time): one more than
      // two batches of 500, all made in the same millisecond, so the batches meet on equal times.
      const count = 1001;
      const rows = Array.from({ length: count }, (_, index) => ({
        id: uuidv7(),
        email: `crowd${index}@example.com`,
      }));
      await t.db.insert(actors).values(rows.map((row) => ({ user_id: row.id, email: row.email })));
      await t.db.execute(sql`
        insert into registrations (id, edition_id, ticket_type_id, user_id, status, created_by, created_at)
        select gen_random_uuid(), ${edition.id}, ${ticket.id}, user_id, 'confirmed', user_id, '2026-11-20T10:00:00Z'
          from actors where email like 'crowd%@example.com'`);
      const response = await t.get(`/editions/${edition.id}/registrations.csv`, {
        token: bench().owner.token,
      });
      const [, ...exported] = parseCsv(response.text);
      assert.equal(exported.length, count);
      assert.equal(new Set(exported.map((row) => row[0])).size, count);
    });

    it('refuses bad filters (400) and outsiders of a draft (404) with the envelope', async () => {
      expectFields(await csv('?status=maybe&page=2'), 'query.status.0', 'query.page');
      const { edition } = await h.setupEdition({ isDraftEvent: true });
      expectError(
        await bench().t.get(`/editions/${edition.id}/registrations.csv`, { token: bench().outsider.token }),
        404,
        'NOT_FOUND',
      );
    });
  });
});
