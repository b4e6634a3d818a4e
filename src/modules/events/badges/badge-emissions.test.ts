/**
 * Badge emissions (docs/reference/tickets.md): the emission rules as seen through the organizers' list
 * (docs/reference/tickets.md) — staff badges on publish, on member added and removed — the template each
 * badge resolves to, and the public listing of a user's badges.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectFields, expectOk } from '../../../../test/assertions.ts';
import { checkAuth } from '../../../../test/auth-check.ts';
import type { TestUser } from '../../../../test/harness.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import { ISO, UNKNOWN_ID, useTeam } from '../events.fixtures.ts';
import type { Member } from '../members/members.schemas.ts';
import { EMISSION_KEYS, emissionOf, PAST, ticketFixtures } from '../tickets/tickets.fixtures.ts';
import type { BadgeEmission, BadgeTemplate, UserBadges } from './badges.schemas.ts';

describe('badge emissions', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  let live: Edition;
  const fx = ticketFixtures(() => team);
  const { setupEdition, createTicketType, createTemplate, register, cancel, emissions, userBadges } = fx;
  const url = (editionId: string) => `/editions/${editionId}/badges/emissions`;
  const removeMember = (eventId: string, who: TestUser, by: TestUser = owner) =>
    t.delete<Member>(`/events/${eventId}/members/${who.id}`, { token: by.token, body: { email: who.email } });

  before(async () => {
    live = (await setupEdition()).edition;
  });

  checkAuth(
    'badge emission list',
    () => t,
    () => [{ method: 'GET', url: url(live.id), forbidden: staff }],
  );

  describe('the emission rules', () => {
    it('emits a staff badge to every member when an edition is published, none before', async () => {
      const { edition, event } = await setupEdition({ isDraft: true, from: 100, to: 120 });
      assert.deepEqual(await emissions(edition.id), []);
      await fx.publishEdition(event.id, edition.id);
      const list = await emissions(edition.id);
      assert.deepEqual(
        list.map((item) => [item.user_id, item.origin, item.status, item.status_reason]).sort(),
        [owner, admin, staff].map((who) => [who.id, 'staff', 'active', null]).sort(),
      );
      for (const item of list) {
        assert.deepEqual(Object.keys(item).sort(), EMISSION_KEYS);
        assert.equal(item.ticket_name, null);
        assert.match(item.emitted_at, ISO);
      }
      assert.equal(emissionOf(list, admin.id, 'staff')!.holder_email, admin.email);
    });

    it('emits a staff badge to a member added while a published edition is current, not for past ones', async () => {
      const event = await fx.createTeamEvent({ name: 'Growing team' });
      const past = await fx.createEdition(event.id, PAST.from, PAST.to);
      await fx.publishEdition(event.id, past.id);
      const current = await fx.createEdition(event.id, 200, 220);
      await fx.publishEdition(event.id, current.id);
      const upcomingDraft = await fx.createEdition(event.id, 300, 320);

      const newcomer = await t.actor('newcomer');
      await fx.addMember(owner, event.id, newcomer, 'staff');
      assert.equal(emissionOf(await emissions(current.id), newcomer.id, 'staff')?.status, 'active');
      assert.equal(emissionOf(await emissions(past.id), newcomer.id, 'staff'), undefined);
      assert.equal(emissionOf(await emissions(upcomingDraft.id), newcomer.id, 'staff'), undefined);

      // Published later, the draft gives the newcomer a badge like everyone else.
      await fx.publishEdition(event.id, upcomingDraft.id);
      assert.equal(emissionOf(await emissions(upcomingDraft.id), newcomer.id, 'staff')?.status, 'active');
    });

    it('revokes a removed member’s staff badges of current editions only; re-adding re-activates them', async () => {
      const event = await fx.createTeamEvent({ name: 'Shrinking team' });
      const past = await fx.createEdition(event.id, PAST.from, PAST.to);
      await fx.publishEdition(event.id, past.id);
      const current = await fx.createEdition(event.id, 400, 420);
      await fx.publishEdition(event.id, current.id);
      const before = emissionOf(await emissions(current.id), staff.id, 'staff')!;

      expectOk(await removeMember(event.id, staff));
      const revoked = emissionOf(await emissions(current.id), staff.id, 'staff')!;
      assert.equal(revoked.id, before.id);
      assert.equal(revoked.status, 'revoked');
      assert.equal(revoked.status_reason, 'member_removed');
      assert.equal(
        emissionOf(await emissions(past.id), staff.id, 'staff')!.status,
        'active',
        'history stays',
      );

      await fx.addMember(owner, event.id, staff, 'staff');
      const back = emissionOf(await emissions(current.id), staff.id, 'staff')!;
      assert.equal(back.id, before.id, 'one emission per edition, person and origin');
      assert.equal(back.status, 'active');
      assert.equal(back.status_reason, null);
    });

    it('keeps participant and staff badges apart for the same person', async () => {
      const { edition } = await setupEdition({ from: 500, to: 520 });
      const ticket = await createTicketType(edition.id, { name: 'Member pass' });
      expectOk(await register(staff, edition.id, ticket.id), 201);
      const list = await emissions(edition.id);
      assert.equal(emissionOf(list, staff.id, 'staff')!.status, 'active');
      assert.equal(emissionOf(list, staff.id, 'participant')!.ticket_name, 'Member pass');
    });
  });

  describe('GET /editions/{edition_id}/badges/emissions', () => {
    it('resolves the template now: ticket type or staff template, else the default, else none', async () => {
      const { edition } = await setupEdition({ from: 600, to: 620 });
      const vip = await createTicketType(edition.id, { name: 'VIP' });
      const basic = await createTicketType(edition.id, { name: 'Basic' });
      const [vipGuest, basicGuest] = [await t.actor('vip'), await t.actor('basic')];
      expectOk(await register(vipGuest, edition.id, vip.id), 201);
      expectOk(await register(basicGuest, edition.id, basic.id), 201);

      const names = async () => {
        const list = await emissions(edition.id);
        return [
          emissionOf(list, vipGuest.id, 'participant'),
          emissionOf(list, basicGuest.id, 'participant'),
          emissionOf(list, admin.id, 'staff'),
        ].map((item) => [item?.template_id, item?.template_name]);
      };
      assert.deepEqual(await names(), [
        [null, null],
        [null, null],
        [null, null],
      ]);
      const fallback = await createTemplate(edition.id, { name: 'Default' });
      const vipTemplate = await createTemplate(edition.id, { name: 'VIP design', ticket_type_id: vip.id });
      const crew = await createTemplate(edition.id, { name: 'Crew design', origin: 'staff' });
      assert.deepEqual(await names(), [
        [vipTemplate.id, 'VIP design'],
        [fallback.id, 'Default'],
        [crew.id, 'Crew design'],
      ]);
      expectOk(await t.delete<BadgeTemplate>(`/badges/${crew.id}`, { token: owner.token }));
      assert.deepEqual((await names())[2], [fallback.id, 'Default']);
    });

    it('lists active and revoked emissions, newest first, filtered by status', async () => {
      const { edition } = await setupEdition({ from: 700, to: 720 });
      const ticket = await createTicketType(edition.id);
      const [stays, leaves] = [await t.actor('stays'), await t.actor('leaves')];
      expectOk(await register(stays, edition.id, ticket.id), 201);
      const gone = expectOk(await register(leaves, edition.id, ticket.id), 201);
      expectOk(await cancel(leaves, gone.id));

      const all = await emissions(edition.id);
      assert.equal(all.length, 5, 'three staff badges, two participant badges');
      const times = all.map((item) => item.emitted_at);
      assert.deepEqual(times, [...times].sort().reverse());
      const revoked = expectOk(
        await t.get<BadgeEmission[]>(`${url(edition.id)}?status=revoked`, { token: admin.token }),
      );
      assert.deepEqual(
        revoked.map((item) => [item.user_id, item.status_reason]),
        [[leaves.id, 'registration_cancelled']],
      );
      const active = await t.get<BadgeEmission[]>(`${url(edition.id)}?status=active&limit=2`, {
        token: owner.token,
      });
      assert.equal(expectOk(active).length, 2);
      assert.equal(active.body.pagination.total, 4);
    });

    it('refuses staff (403), hides unknown and draft-event editions (404), checks the query (400)', async () => {
      expectError(await t.get<BadgeEmission[]>(url(live.id), { token: staff.token }), 403, 'FORBIDDEN');
      expectError(await t.get<BadgeEmission[]>(url(live.id), { token: outsider.token }), 403, 'FORBIDDEN');
      expectError(await t.get<BadgeEmission[]>(url(UNKNOWN_ID), { token: owner.token }), 404, 'NOT_FOUND');
      const { edition: hidden } = await setupEdition({ isDraftEvent: true, from: 800, to: 820 });
      expectError(await t.get<BadgeEmission[]>(url(hidden.id), { token: outsider.token }), 404, 'NOT_FOUND');
      expectFields(
        await t.get<BadgeEmission[]>(`${url(live.id)}?status=lost`, { token: owner.token }),
        'query.status',
      );
      expectFields(
        await t.get<BadgeEmission[]>(`${url(live.id)}?page=-1`, { token: owner.token }),
        'query.page',
      );
      expectFields(
        await t.get<BadgeEmission[]>('/editions/zzz/badges/emissions', { token: owner.token }),
        'params.edition_id',
      );
    });
  });

  describe('GET /users/{user_id}/badges', () => {
    it('groups active badges of published editions by origin, current and past, without e-mails', async () => {
      const person = await t.actor('collector');
      const event = await fx.createTeamEvent({ name: 'Series' });
      await fx.addMember(owner, event.id, person, 'staff');
      const old = await fx.createEdition(event.id, PAST.from, PAST.to, { name: 'Old' });
      await fx.publishEdition(event.id, old.id);
      const soon = await fx.createEdition(event.id, 900, 920, { name: 'Soon' });
      await fx.publishEdition(event.id, soon.id);
      const later = await fx.createEdition(event.id, 1000, 1020, { name: 'Later' });
      await fx.publishEdition(event.id, later.id);
      const ticket = await createTicketType(soon.id, { name: 'Pass' });
      expectOk(await register(person, soon.id, ticket.id), 201);
      // Nobody registers for an ended edition, not even through staff...
      const oldTicket = await createTicketType(old.id, { name: 'Old pass' });
      expectError(await register(owner, old.id, oldTicket.id, person.email), 409, 'CONFLICT');
      // ...so a past attendant badge is one whose edition has ended since: moved into the past here.
      const moved = await fx.createEdition(event.id, 1400, 1420, { name: 'Moved' });
      await fx.publishEdition(event.id, moved.id);
      const movedTicket = await createTicketType(moved.id, { name: 'Moved pass' });
      expectOk(await register(person, moved.id, movedTicket.id), 201);
      expectOk(
        await t.patch<Edition>(`/events/${event.id}/editions/${moved.id}`, {
          token: owner.token,
          body: { starts_at: fx.at(PAST.from - 200), ends_at: fx.at(PAST.from - 100) },
        }),
      );

      const badges = await userBadges(person.id);
      assert.deepEqual(Object.keys(badges).sort(), ['attendant', 'staff']);
      assert.deepEqual(
        badges.staff.current.map((item) => item.edition.name),
        ['Soon', 'Later'],
      );
      assert.deepEqual(
        badges.staff.past.map((item) => item.edition.name),
        ['Old', 'Moved'],
      );
      assert.deepEqual(
        badges.attendant.current.map((item) => [item.edition.name, item.ticket_name]),
        [['Soon', 'Pass']],
      );
      assert.deepEqual(
        badges.attendant.past.map((item) => [item.edition.name, item.ticket_name, item.status]),
        [['Moved', 'Moved pass', 'active']],
      );
      const item = badges.attendant.current[0];
      assert.deepEqual(
        Object.keys(item).sort(),
        [...EMISSION_KEYS.filter((key) => key !== 'holder_email'), 'edition', 'event'].sort(),
      );
      assert.deepEqual(item.event, { id: event.id, name: 'Series', slug: event.slug });
      assert.deepEqual(Object.keys(item.edition).sort(), ['ends_at', 'id', 'name', 'slug', 'starts_at']);
      assert.equal(item.edition.id, soon.id);
      assert.ok(!JSON.stringify(badges).includes(person.email), 'no e-mail on a public route');
    });

    it('leaves out revoked badges and editions or events that are not published', async () => {
      const person = await t.actor('private');
      const { edition: draftEventEdition } = await setupEdition({ isDraftEvent: true, from: 1100, to: 1120 });
      const hiddenTicket = await createTicketType(draftEventEdition.id);
      expectOk(await register(staff, draftEventEdition.id, hiddenTicket.id, person.email), 201);
      const { edition: draftEdition } = await setupEdition({ isDraft: true, from: 1200, to: 1220 });
      const draftTicket = await createTicketType(draftEdition.id);
      expectOk(await register(owner, draftEdition.id, draftTicket.id, person.email), 201);
      const { edition } = await setupEdition({ from: 1300, to: 1320 });
      const ticket = await createTicketType(edition.id);
      const registration = expectOk(await register(person, edition.id, ticket.id), 201);
      expectOk(await cancel(person, registration.id));

      assert.deepEqual(await userBadges(person.id), {
        attendant: { current: [], past: [] },
        staff: { current: [], past: [] },
      });
    });

    it('answers an unknown user with empty groups, publicly, and refuses a bad id (400)', async () => {
      assert.deepEqual(await userBadges(UNKNOWN_ID), {
        attendant: { current: [], past: [] },
        staff: { current: [], past: [] },
      });
      expectFields(await t.get<UserBadges>('/users/me/badges'), 'params.user_id');
      expectFields(await t.get<UserBadges>(`/users/${UNKNOWN_ID}/badges?all=1`), 'query.all');
    });
  });
});
