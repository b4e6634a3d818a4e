/**
 * Badge print data and the printable PDF (docs/reference/tickets.md): the selection by `emission_ids`, what a
 * print item carries, and the PDF built from the same items.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectFields, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { TestUser } from '../../../../test/harness.ts';
import { readPdf, WORLD_NAMES } from '../../../../test/pdf.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import type { Event } from '../events/events.schemas.ts';
import { UNKNOWN_ID, useTeam } from '../events.fixtures.ts';
import { maskEmail } from '../holder-name.ts';
import { emissionOf, ticketFixtures } from '../tickets/tickets.fixtures.ts';
import type { BadgePrintItem, BadgeTemplate } from './badges.schemas.ts';

const BASE_URL = 'http://127.0.0.1:8080';

describe('badge printing', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  let event: Event;
  let edition: Edition;
  let vipGuest: TestUser;
  let basicGuest: TestUser;
  let templates: Record<'fallback' | 'vip' | 'crew', BadgeTemplate>;
  /** Emissions by holder: vip, basic (active participants), gone (revoked), and the staff badges. */
  let ids: Record<'vip' | 'basic' | 'gone' | 'owner' | 'admin' | 'staff', string>;
  const fx = ticketFixtures(() => team);
  const { setupEdition, createTicketType, createTemplate, register, cancel, emissions } = fx;
  const url = (editionId: string, query = '') => `/editions/${editionId}/badges/print${query}`;
  const pdfUrl = (editionId: string, query = '') => `/editions/${editionId}/badges/print.pdf${query}`;
  const print = async (query = '', by: TestUser = owner) =>
    expectOk(await t.get<BadgePrintItem[]>(url(edition.id, query), { token: by.token }), 200, 'events');
  /** What the print data says the QR code of this emission holds. */
  const actionUrlOf = async (emissionId: string) =>
    (await print()).find((item) => item.emission_id === emissionId)?.variables.action_url;
  const fetchPdf = (editionId: string, query = '', by: TestUser = owner) =>
    t.app.inject({
      method: 'GET',
      url: pdfUrl(editionId, query),
      headers: { authorization: `Bearer ${by.token}` },
    });

  before(async () => {
    ({ event, edition } = await setupEdition());
    const vip = await createTicketType(edition.id, { name: 'VIP' });
    const basic = await createTicketType(edition.id, { name: 'Basic' });
    templates = {
      fallback: await createTemplate(edition.id, { name: 'Default', design_data: { title: 'Welcome' } }),
      vip: await createTemplate(edition.id, {
        name: 'VIP design',
        ticket_type_id: vip.id,
        design_data: { accent_color: '#b8860b' },
      }),
      crew: await createTemplate(edition.id, {
        name: 'Crew design',
        origin: 'staff',
        design_data: { accent_color: '#222' },
      }),
    };
    vipGuest = await t.actor('vip');
    basicGuest = await t.actor('basic');
    const goneGuest = await t.actor('gone');
    expectOk(await register(vipGuest, edition.id, vip.id), 201);
    expectOk(await register(basicGuest, edition.id, basic.id), 201);
    const gone = expectOk(await register(goneGuest, edition.id, basic.id), 201);
    expectOk(await cancel(goneGuest, gone.id));
    const list = await emissions(edition.id);
    ids = {
      vip: emissionOf(list, vipGuest.id, 'participant')!.id,
      basic: emissionOf(list, basicGuest.id, 'participant')!.id,
      gone: emissionOf(list, goneGuest.id, 'participant')!.id,
      owner: emissionOf(list, owner.id, 'staff')!.id,
      admin: emissionOf(list, admin.id, 'staff')!.id,
      staff: emissionOf(list, staff.id, 'staff')!.id,
    };
  });

  checkAuth(
    'badge print routes',
    () => t,
    () => [
      { method: 'GET', url: url(edition.id), forbidden: staff },
      { method: 'GET', url: pdfUrl(edition.id), forbidden: staff },
    ],
  );

  describe('GET /editions/{edition_id}/badges/print', () => {
    it('prints every active emission by default, in emission order, with design and variables', async () => {
      const items = await print();
      const order = items.map((item) => item.emission_id);
      // The staff badges were emitted together when the edition was published, then the participants'.
      assert.deepEqual(order.slice(0, 3).sort(), [ids.owner, ids.admin, ids.staff].sort());
      assert.deepEqual(order.slice(3), [ids.vip, ids.basic]);
      const vip = items.find((item) => item.emission_id === ids.vip);
      // The badge's own page (docs/reference/attendance.md): a code only the service can make, one per
      // emission.
      const codeUrl = new RegExp(`^${BASE_URL}/b/[A-Za-z0-9_-]{43}$`);
      for (const item of items) assert.match(item.variables.action_url, codeUrl);
      assert.equal(new Set(items.map((item) => item.variables.action_url)).size, items.length);
      assert.deepEqual(vip, {
        emission_id: ids.vip,
        user_id: vipGuest.id,
        origin: 'participant',
        ticket_name: 'VIP',
        template_id: templates.vip.id,
        template_name: 'VIP design',
        design_data: { accent_color: '#b8860b' },
        variables: {
          event_name: event.name,
          edition_name: edition.name,
          ticket_name: 'VIP',
          holder_email: vipGuest.email,
          holder_name: vipGuest.email,
          action_url: vip?.variables.action_url,
        },
      });
      const basic = items.find((item) => item.emission_id === ids.basic)!;
      assert.deepEqual([basic.template_id, basic.design_data], [templates.fallback.id, { title: 'Welcome' }]);
      const crew = items.find((item) => item.emission_id === ids.admin)!;
      assert.deepEqual(
        [
          crew.origin,
          crew.ticket_name,
          crew.template_name,
          crew.variables.ticket_name,
          crew.variables.holder_email,
        ],
        ['staff', null, 'Crew design', null, admin.email],
      );
    });

    it('prints a selection, comma-separated or repeated, in the order given, without duplicates', async () => {
      const comma = await print(`?emission_ids=${ids.basic},${ids.vip}`);
      assert.deepEqual(
        comma.map((item) => item.emission_id),
        [ids.basic, ids.vip],
      );
      const repeated = await print(`?emission_ids=${ids.staff}&emission_ids=${ids.vip},${ids.staff}`);
      assert.deepEqual(
        repeated.map((item) => item.emission_id),
        [ids.staff, ids.vip],
      );
      const single = await print(`?emission_ids=${ids.vip.toUpperCase()}`, admin);
      assert.deepEqual(
        single.map((item) => item.emission_id),
        [ids.vip],
      );
    });

    it('leaves a selected revoked emission out', async () => {
      const items = await print(`?emission_ids=${ids.gone},${ids.basic}`);
      assert.deepEqual(
        items.map((item) => item.emission_id),
        [ids.basic],
      );
      assert.deepEqual(await print(`?emission_ids=${ids.gone}`), []);
    });

    it('refuses a selected id that is not an emission of this edition (404, listed in meta)', async () => {
      const { edition: other } = await setupEdition({ from: 100, to: 120 });
      const foreign = emissionOf(await emissions(other.id), owner.id, 'staff')!.id;
      const response = await t.get(url(edition.id, `?emission_ids=${ids.vip},${foreign},${UNKNOWN_ID}`), {
        token: owner.token,
      });
      const error = expectError(response, 404, 'NOT_FOUND');
      assert.deepEqual(error.meta?.emission_ids, [foreign, UNKNOWN_ID]);
    });

    it('refuses malformed selections naming query.emission_ids (400)', async () => {
      for (const query of [
        '?emission_ids=abc',
        '?emission_ids=',
        `?emission_ids=${ids.vip},,${ids.basic}`,
        `?emission_ids=${ids.vip},nope`,
      ]) {
        const response = await t.get(url(edition.id, query), { token: owner.token });
        try {
          expectFields(response, 'query.emission_ids');
        } catch (error) {
          throw new Error(`${query}: ${(error as Error).message}`);
        }
      }
      // 1001 distinct well-formed ids: over the limit of one selection.
      const tooMany = Array.from(
        { length: 1001 },
        (_, i) => `${UNKNOWN_ID.slice(0, -4)}${i.toString(16).padStart(4, '0')}`,
      );
      expectFields(
        await t.get(url(edition.id, `?emission_ids=${tooMany.join(',')}`), { token: owner.token }),
        'query.emission_ids',
      );
      expectFields(await t.get(url(edition.id, '?ids=1'), { token: owner.token }), 'query.ids');
      expectFields(
        await t.get<BadgePrintItem[]>('/editions/x/badges/print', { token: owner.token }),
        'params.edition_id',
      );
    });

    it('refuses staff and outsiders (403), unknown and hidden editions (404)', async () => {
      expectError(await t.get(url(edition.id), { token: staff.token }), 403, 'FORBIDDEN');
      expectError(await t.get(url(edition.id), { token: outsider.token }), 403, 'FORBIDDEN');
      expectError(await t.get(url(UNKNOWN_ID), { token: owner.token }), 404, 'NOT_FOUND');
      const { edition: hidden } = await setupEdition({ isDraftEvent: true, from: 200, to: 220 });
      expectError(await t.get(url(hidden.id), { token: outsider.token }), 404, 'NOT_FOUND');
    });
  });

  describe('GET /editions/{edition_id}/badges/print.pdf', () => {
    it('answers a PDF with one page per active badge', async () => {
      const response = await fetchPdf(edition.id);
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'application/pdf');
      assert.equal(response.headers['content-disposition'], `inline; filename="badges-${edition.id}.pdf"`);
      const body = response.rawPayload;
      assert.equal(body.subarray(0, 5).toString('latin1'), '%PDF-');
      const pdf = await readPdf(body);
      assert.equal(pdf.pageCount, 5);
      // No name in their token: the VIP is printed by their e-mail, masked (`v•••@e•••.com`).
      const vipPage = pdf.texts.findIndex((texts) =>
        texts.some((text) => text.includes(maskEmail(vipGuest.email))),
      );
      assert.ok(vipPage >= 0, 'a page shows the VIP holder');
      assert.ok(!pdf.texts.flat().some((text) => text.includes('@example.com')), 'no address in clear');
      assert.equal(await pdf.qr(vipPage), await actionUrlOf(ids.vip));
    });

    it('prints the same selection as the print data, revoked ones left out', async () => {
      const response = await fetchPdf(
        edition.id,
        `?emission_ids=${ids.gone},${ids.basic}&emission_ids=${ids.admin}`,
      );
      assert.equal(response.statusCode, 200);
      const pdf = await readPdf(response.rawPayload);
      assert.equal(pdf.pageCount, 2);
      assert.deepEqual(await pdf.qrs(), [await actionUrlOf(ids.basic), await actionUrlOf(ids.admin)]);
    });

    it("prints holders' names in any script, read back exactly by pdf.js", async () => {
      const { edition: world } = await setupEdition({
        from: 300,
        to: 320,
        fields: { name: 'Весенний выпуск' },
      });
      const ticket = await createTicketType(world.id, { name: 'Γενική είσοδος' });
      const names = Object.values(WORLD_NAMES);
      for (const name of names) {
        const person = await t.actor('world', { name });
        expectOk(await register(person, world.id, ticket.id), 201);
      }
      const response = await fetchPdf(world.id);
      assert.equal(response.statusCode, 200);
      const pdf = await readPdf(response.rawPayload);
      const lines = pdf.lines.flat();
      for (const name of names) assert.ok(lines.includes(name), `${name}: ${JSON.stringify(lines)}`);
      assert.ok(lines.includes('Γενική είσοδος'), 'the ticket name too');
      assert.ok(lines.includes('Весенний выпуск'), 'and the edition name');
    });

    it('answers errors with the JSON envelope', async () => {
      const forbidden = await t.get(pdfUrl(edition.id), { token: staff.token });
      expectError(forbidden, 403, 'FORBIDDEN');
      assert.match(String(forbidden.headers['content-type']), /application\/json/);
      expectFields(
        await t.get(pdfUrl(edition.id, '?emission_ids=1,2'), { token: owner.token }),
        'query.emission_ids',
      );
      expectError(
        await t.get(pdfUrl(edition.id, `?emission_ids=${UNKNOWN_ID}`), { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectError(await t.get(pdfUrl(UNKNOWN_ID), { token: admin.token }), 404, 'NOT_FOUND');
    });
  });
});
