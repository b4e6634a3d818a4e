/** Badge templates (docs/reference/tickets.md): one live template per scope (default, ticket type, staff). */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectFields, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import { expectInvalid, expectMalformedJson, ISO, UNKNOWN_ID, useTeam } from '../events.fixtures.ts';
import { TEMPLATE_KEYS, ticketFixtures } from '../tickets/tickets.fixtures.ts';
import type { TicketType } from '../tickets/tickets.schemas.ts';
import type { BadgeTemplate } from './badges.schemas.ts';

describe('badge templates', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  let live: Edition;
  let ticket: TicketType;
  let template: BadgeTemplate;
  let hidden: Edition;
  let hiddenTemplate: BadgeTemplate;
  const { setupEdition, createTicketType, createTemplate } = ticketFixtures(() => team);
  const url = (editionId: string) => `/editions/${editionId}/badges`;

  before(async () => {
    live = (await setupEdition()).edition;
    ticket = await createTicketType(live.id, { name: 'VIP' });
    template = await createTemplate(live.id, { name: 'Default badge' });
    hidden = (await setupEdition({ isDraftEvent: true, from: 100, to: 120 })).edition;
    hiddenTemplate = await createTemplate(hidden.id);
  });

  checkAuth(
    'badge template routes',
    () => t,
    () => [
      {
        method: 'POST',
        url: url(live.id),
        body: { name: 'X', design_data: {}, origin: 'staff' },
        forbidden: staff,
      },
      { method: 'GET', url: url(live.id), forbidden: outsider },
      { method: 'GET', url: `/badges/${template.id}`, forbidden: outsider },
      { method: 'PATCH', url: `/badges/${template.id}`, body: { name: 'Renamed' }, forbidden: staff },
      { method: 'DELETE', url: `/badges/${template.id}`, forbidden: staff },
    ],
  );

  describe('POST /editions/{edition_id}/badges', () => {
    it('creates the default, a ticket type and the staff template, each in its scope', async () => {
      const { edition } = await setupEdition({ from: 200, to: 220 });
      const vip = await createTicketType(edition.id, { name: 'VIP' });
      const design = { accent_color: '#aa0000', title: 'Hello', nested: { a: [1, 2, { b: null }] } };
      const fallback = await createTemplate(edition.id, { name: 'Everyone', design_data: design }, admin);
      assert.deepEqual(Object.keys(fallback).sort(), TEMPLATE_KEYS);
      assert.equal(fallback.scope, 'default');
      assert.equal(fallback.origin, null);
      assert.equal(fallback.ticket_type_id, null);
      assert.deepEqual(fallback.design_data, design);
      assert.equal(fallback.deleted_at, null);
      assert.match(fallback.created_at, ISO);

      const forVip = await createTemplate(edition.id, { name: 'VIP badge', ticket_type_id: vip.id });
      assert.equal(forVip.scope, `ticket:${vip.id}`);
      assert.equal(forVip.ticket_type_id, vip.id);
      const forStaff = await createTemplate(edition.id, { name: 'Crew', origin: 'staff' });
      assert.equal(forStaff.scope, 'staff');
      assert.equal(forStaff.origin, 'staff');
    });

    it('refuses a second template in a scope (409)', async () => {
      const error = expectError(
        await t.post<BadgeTemplate>(url(live.id), {
          token: owner.token,
          body: { name: 'Again', design_data: {} },
        }),
        409,
        'CONFLICT',
      );
      assert.deepEqual(error.meta, { scope: 'default', template_id: template.id });
      await createTemplate(live.id, { ticket_type_id: ticket.id });
      expectError(
        await t.post<BadgeTemplate>(url(live.id), {
          token: owner.token,
          body: { name: 'B', design_data: {}, ticket_type_id: ticket.id },
        }),
        409,
        'CONFLICT',
      );
    });

    it('refuses origin together with ticket_type_id (400) and a ticket type of another edition (404)', async () => {
      expectFields(
        await t.post<BadgeTemplate>(url(live.id), {
          token: owner.token,
          body: { name: 'Both', design_data: {}, origin: 'staff', ticket_type_id: ticket.id },
        }),
        'ticket_type_id',
        'origin',
      );
      const { edition } = await setupEdition({ from: 300, to: 320 });
      const elsewhere = await createTicketType(edition.id);
      for (const ticketTypeId of [elsewhere.id, UNKNOWN_ID]) {
        expectError(
          await t.post<BadgeTemplate>(url(live.id), {
            token: owner.token,
            body: { name: 'Other', design_data: {}, ticket_type_id: ticketTypeId },
          }),
          404,
          'NOT_FOUND',
        );
      }
    });

    it('refuses bad input, naming each field', async () => {
      const send = (body: unknown) => t.post<BadgeTemplate>(url(live.id), { token: owner.token, body });
      await expectMalformedJson(t, url(live.id), owner);
      expectInvalid(await send({}), 'missing fields', 'name', 'design_data');
      expectInvalid(await send({ name: 'A', design_data: [] }), 'an array design', 'design_data');
      expectInvalid(await send({ name: 'A', design_data: 'big' }), 'a string design', 'design_data');
      expectInvalid(await send({ name: 'A', design_data: {}, origin: 'participant' }), 'origin', 'origin');
      expectInvalid(
        await send({ name: 'A', design_data: {}, ticket_type_id: 'x' }),
        'bad uuid',
        'ticket_type_id',
      );
      expectInvalid(await send({ name: 'A', design_data: {}, color: 'red' }), 'unknown field', 'color');
      expectInvalid(await send({ name: 7, design_data: {} }), 'wrong type', 'name');
      const oversize = { blob: 'x'.repeat(256 * 1024) };
      expectInvalid(
        await send({ name: 'Huge', design_data: oversize, origin: 'staff' }),
        'over 256 KiB',
        'design_data',
      );
      expectFields(
        await t.post<BadgeTemplate>('/editions/1/badges', {
          token: owner.token,
          body: { name: 'A', design_data: {} },
        }),
        'params.edition_id',
      );
    });

    it('answers 404 for an unknown edition or a draft event to outsiders, 403 to non-admins', async () => {
      const body = { name: 'X', design_data: {}, origin: 'staff' };
      expectError(
        await t.post<BadgeTemplate>(url(UNKNOWN_ID), { token: owner.token, body }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.post<BadgeTemplate>(url(hidden.id), { token: outsider.token, body }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.post<BadgeTemplate>(url(live.id), { token: outsider.token, body }),
        403,
        'FORBIDDEN',
      );
      expectError(await t.post<BadgeTemplate>(url(live.id), { token: staff.token, body }), 403, 'FORBIDDEN');
    });
  });

  describe('GET /editions/{edition_id}/badges and GET /badges/{template_id}', () => {
    it('lists the live templates to staff and above, in creation order', async () => {
      const { edition } = await setupEdition({ from: 400, to: 420 });
      const first = await createTemplate(edition.id, { name: 'First' });
      const second = await createTemplate(edition.id, { name: 'Second', origin: 'staff' });
      for (const caller of [owner, admin, staff]) {
        const response = await t.get<BadgeTemplate[]>(url(edition.id), { token: caller.token });
        assert.deepEqual(
          expectOk(response, 200, 'events').map((item) => item.id),
          [first.id, second.id],
        );
        assert.equal(response.body.pagination.total, 2);
      }
      const page = await t.get<BadgeTemplate[]>(`${url(edition.id)}?limit=1&page=2`, { token: staff.token });
      assert.deepEqual(
        expectOk(page).map((item) => item.id),
        [second.id],
      );
    });

    it('reads one template to staff and above', async () => {
      for (const caller of [owner, admin, staff]) {
        const read = expectOk(
          await t.get<BadgeTemplate>(`/badges/${template.id}`, { token: caller.token }),
          200,
          'events',
        );
        assert.deepEqual(read, template);
      }
    });

    it('refuses outsiders (403), hides unknown and draft-event templates alike (404), checks ids (400)', async () => {
      expectError(await t.get<BadgeTemplate[]>(url(live.id), { token: outsider.token }), 403, 'FORBIDDEN');
      expectError(
        await t.get<BadgeTemplate>(`/badges/${template.id}`, { token: outsider.token }),
        403,
        'FORBIDDEN',
      );
      expectError(await t.get<BadgeTemplate[]>(url(hidden.id), { token: outsider.token }), 404, 'NOT_FOUND');
      const unknown = await t.get<BadgeTemplate>(`/badges/${UNKNOWN_ID}`, { token: outsider.token });
      const concealed = await t.get<BadgeTemplate>(`/badges/${hiddenTemplate.id}`, { token: outsider.token });
      expectError(unknown, 404, 'NOT_FOUND');
      expectError(concealed, 404, 'NOT_FOUND');
      assert.equal(concealed.body.message, unknown.body.message);
      expectFields(await t.get<BadgeTemplate>('/badges/abc', { token: owner.token }), 'params.template_id');
      expectFields(
        await t.get<BadgeTemplate[]>(`${url(live.id)}?limit=101`, { token: owner.token }),
        'query.limit',
      );
    });
  });

  describe('PATCH and DELETE /badges/{template_id}', () => {
    it('updates the name and the design for an owner or admin', async () => {
      const { edition } = await setupEdition({ from: 500, to: 520 });
      const made = await createTemplate(edition.id);
      const renamed = expectOk(
        await t.patch<BadgeTemplate>(`/badges/${made.id}`, { token: admin.token, body: { name: 'Renamed' } }),
        200,
        'events',
      );
      assert.equal(renamed.name, 'Renamed');
      assert.deepEqual(renamed.design_data, made.design_data);
      assert.ok(renamed.updated_at >= made.updated_at);
      const redesigned = expectOk(
        await t.patch<BadgeTemplate>(`/badges/${made.id}`, {
          token: owner.token,
          body: { design_data: { title: 'New' } },
        }),
      );
      assert.deepEqual(redesigned.design_data, { title: 'New' });
      assert.equal(redesigned.scope, 'default');
    });

    it('refuses bad updates (400), non-admins (403) and unknown templates (404)', async () => {
      const send = (body: unknown, token = owner.token) =>
        t.patch<BadgeTemplate>(`/badges/${template.id}`, { token, body });
      expectInvalid(await send({}), 'empty body', 'body');
      expectInvalid(await send({ scope: 'staff' }), 'scope is fixed', 'scope');
      expectInvalid(await send({ origin: 'staff' }), 'origin is fixed', 'origin');
      expectInvalid(await send({ design_data: { blob: 'y'.repeat(300_000) } }), 'oversize', 'design_data');
      expectInvalid(await send({ name: '' }), 'empty name', 'name');
      await expectMalformedJson(t, `/badges/${template.id}`, owner, 'PATCH');
      expectError(await send({ name: 'Nope' }, staff.token), 403, 'FORBIDDEN');
      expectError(
        await t.patch<BadgeTemplate>(`/badges/${UNKNOWN_ID}`, {
          token: owner.token,
          body: { name: 'Ghost' },
        }),
        404,
        'NOT_FOUND',
      );
    });

    it('soft-deletes: the template leaves every read and frees its scope', async () => {
      const { edition } = await setupEdition({ from: 600, to: 620 });
      const made = await createTemplate(edition.id, { origin: 'staff' });
      expectError(
        await t.delete<BadgeTemplate>(`/badges/${made.id}`, { token: staff.token }),
        403,
        'FORBIDDEN',
      );
      const deleted = expectOk(
        await t.delete<BadgeTemplate>(`/badges/${made.id}`, { token: admin.token }),
        200,
        'events',
      );
      assert.match(deleted.deleted_at ?? '', ISO);
      expectError(await t.get<BadgeTemplate>(`/badges/${made.id}`, { token: owner.token }), 404, 'NOT_FOUND');
      expectError(
        await t.delete<BadgeTemplate>(`/badges/${made.id}`, { token: owner.token }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.patch<BadgeTemplate>(`/badges/${made.id}`, { token: owner.token, body: { name: 'Back' } }),
        404,
        'NOT_FOUND',
      );
      assert.deepEqual(expectOk(await t.get<BadgeTemplate[]>(url(edition.id), { token: owner.token })), []);
      const replacement = await createTemplate(edition.id, { origin: 'staff', name: 'Crew v2' });
      assert.equal(replacement.scope, 'staff');
    });
  });
});
