/**
 * Member changes of one event under concurrency (docs/reference/events.md and the emission rules of
 * docs/reference/tickets.md). Every path that writes the editions or members of an event locks the event row
 * first (`lockEvent`), so these requests queue on that one lock instead of deadlocking: inserting a member
 * row takes a KEY SHARE lock on the event row (its foreign key), and a member add that took it before the
 * event lock deadlocked with every other such add (a 503 for most of them).
 *
 * Only a PostgreSQL server (`TEST_DATABASE_URL`) can show it: the requests go through `inject`
 * concurrently and run on separate pooled connections, while the embedded database runs one
 * statement at a time, where nothing can interleave.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { expectOk } from '../../../../test/assertions.ts';
import { TEST_DATABASE_URL } from '../../../../test/database.ts';
import type { ApiResponse, TestUser } from '../../../../test/harness.ts';
import type { BadgeEmission } from '../badges/badges.schemas.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import { useTeam } from '../events.fixtures.ts';
import { ticketFixtures } from '../tickets/tickets.fixtures.ts';
import type { Member } from './members.schemas.ts';

const skip = TEST_DATABASE_URL
  ? false
  : 'needs a PostgreSQL server (set TEST_DATABASE_URL): the embedded database runs one statement at a time, so nothing can race';

const ROUNDS = 3;
const PER_ROUND = 8;

/** `{status: count}` of the responses, e.g. `{ '201': 8 }`. */
function statuses(responses: ApiResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const response of responses) counts[response.status] = (counts[response.status] ?? 0) + 1;
  return counts;
}

/** Asserts every response has `status`; the message lists what the others answered. */
function expectAll(responses: ApiResponse[], status: number, label: string): void {
  const failed = responses.filter((response) => response.status !== status);
  assert.deepEqual(
    statuses(responses),
    { [status]: responses.length },
    `${label}: ${failed.map((response) => `${response.status} ${response.body?.error?.message}`).join('; ')}`,
  );
}

describe('event members under concurrency (PostgreSQL)', { skip }, () => {
  const team = useTeam();
  const { t, owner } = team;
  const {
    createEvent,
    createEdition,
    publishEdition,
    addMember,
    listMembers,
    createTicketType,
    register,
    cancel,
  } = ticketFixtures(() => team);

  const postMember = (eventId: string, who: TestUser) =>
    t.post<Member>(`/events/${eventId}/members`, {
      token: owner.token,
      body: { email: who.email, role: 'staff' },
    });
  const deleteMember = (eventId: string, who: TestUser) =>
    t.delete<Member>(`/events/${eventId}/members/${who.id}`, {
      token: owner.token,
      body: { email: who.email },
    });
  /** The badges of one origin in the edition, by holder. */
  const badgesOf = async (
    editionId: string,
    origin: 'staff' | 'participant' = 'staff',
  ): Promise<Map<string, BadgeEmission>> => {
    const emissions = expectOk(
      await t.get<BadgeEmission[]>(`/editions/${editionId}/badges/emissions?limit=100`, {
        token: owner.token,
      }),
      200,
      'events',
    );
    return new Map(emissions.filter((row) => row.origin === origin).map((row) => [row.user_id, row]));
  };
  const people = async (count: number, name: string) => {
    const made: TestUser[] = [];
    for (let index = 0; index < count; index++) made.push(await t.actor(`${name}${index}`));
    return made;
  };

  it(`adds ${PER_ROUND} members at once, ${ROUNDS} rounds, each with a staff badge of the current edition`, async (ctx: TestContext) => {
    const event = await createEvent(owner);
    const edition = await publishEdition(event.id, (await createEdition(event.id, 0, 48)).id);
    const added: TestUser[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const batch = await people(PER_ROUND, `r${round}-`);
      const started = performance.now();
      const responses = await Promise.all(batch.map((person) => postMember(event.id, person)));
      ctx.diagnostic(
        `round ${round}: ${JSON.stringify(statuses(responses))} in ${Math.round(performance.now() - started)} ms`,
      );
      expectAll(responses, 201, `round ${round}`);
      added.push(...batch);
    }
    const members = new Set<string>((await listMembers(owner, event.id)).map((member) => member.user_id));
    for (const person of added) assert.ok(members.has(person.id), `${person.email} is a member`);
    assert.equal(members.size, 1 + ROUNDS * PER_ROUND, 'the owner and every added member');
    const badges = await badgesOf(edition.id);
    for (const id of members) assert.equal(badges.get(id)?.status, 'active', `staff badge of ${id}`);
  });

  it('adds and removes members at once, the removed losing their staff badges', async () => {
    const event = await createEvent(owner);
    const edition = await publishEdition(event.id, (await createEdition(event.id, 0, 48)).id);
    for (let round = 1; round <= ROUNDS; round++) {
      const leaving = await people(PER_ROUND / 2, `leave${round}-`);
      for (const person of leaving) await addMember(owner, event.id, person, 'staff');
      const joining = await people(PER_ROUND / 2, `join${round}-`);
      const [added, removed] = await Promise.all([
        Promise.all(joining.map((person) => postMember(event.id, person))),
        Promise.all(leaving.map((person) => deleteMember(event.id, person))),
      ]);
      expectAll(added, 201, `round ${round}: adds`);
      expectAll(removed, 200, `round ${round}: removals`);
      const badges = await badgesOf(edition.id);
      for (const person of joining) assert.equal(badges.get(person.id)?.status, 'active');
      for (const person of leaving) {
        assert.deepEqual(
          [badges.get(person.id)?.status, badges.get(person.id)?.status_reason],
          ['revoked', 'member_removed'],
        );
      }
    }
  });

  it('adds members while editions are created and published: every member gets every staff badge', async () => {
    const event = await createEvent(owner);
    for (let round = 1; round <= ROUNDS; round++) {
      const draft = await createEdition(event.id, round * 100, round * 100 + 48);
      const joining = await people(PER_ROUND - 2, `pub${round}-`);
      const [published, created, ...added] = await Promise.all([
        t.post<Edition>(`/events/${event.id}/editions/${draft.id}/publish`, { token: owner.token }),
        t.post<Edition>(`/events/${event.id}/editions`, {
          token: owner.token,
          body: {
            name: `Next ${round}`,
            slug: `next-${round}`,
            starts_at: new Date(Date.UTC(2031, 0, round)).toISOString(),
            ends_at: new Date(Date.UTC(2031, 0, round, 12)).toISOString(),
          },
        }),
        ...joining.map((person) => postMember(event.id, person)),
      ]);
      expectAll([published!], 200, `round ${round}: publish`);
      expectAll([created!], 201, `round ${round}: create edition`);
      expectAll(added, 201, `round ${round}: adds`);
      // Whichever committed first, the other saw it: the publish saw the member, or the add saw
      // the published edition. Never neither.
      const members = (await listMembers(owner, event.id)).map((member) => member.user_id);
      const badges = await badgesOf(draft.id);
      for (const id of members)
        assert.equal(badges.get(id)?.status, 'active', `round ${round}: badge of ${id}`);
    }
  });

  it('registers, cancels and adds members while the edition is published', async () => {
    const event = await createEvent(owner);
    for (let round = 1; round <= ROUNDS; round++) {
      const draft = await createEdition(event.id, round * 100, round * 100 + 48);
      const ticket = await createTicketType(draft.id, { max_quantity: 50 });
      const leaving = [];
      for (const person of await people(3, `held${round}-`)) {
        leaving.push(expectOk(await register(owner, draft.id, ticket.id, person.email), 201, 'events'));
      }
      const [buyers, joining] = [await people(3, `buy${round}-`), await people(3, `crew${round}-`)];
      const [published, ...rest] = await Promise.all([
        t.post<Edition>(`/events/${event.id}/editions/${draft.id}/publish`, { token: owner.token }),
        ...buyers.map((person) => register(owner, draft.id, ticket.id, person.email)),
        ...leaving.map((registration) => cancel(owner, registration.id)),
        ...joining.map((person) => postMember(event.id, person)),
      ]);
      expectAll([published!], 200, `round ${round}: publish`);
      expectAll(rest.slice(0, 3), 201, `round ${round}: registrations`);
      expectAll(rest.slice(3, 6), 200, `round ${round}: cancellations`);
      expectAll(rest.slice(6), 201, `round ${round}: adds`);
      const [participants, staff] = [await badgesOf(draft.id, 'participant'), await badgesOf(draft.id)];
      for (const person of buyers) assert.equal(participants.get(person.id)?.status, 'active');
      for (const { user_id } of leaving) assert.equal(participants.get(user_id)?.status, 'revoked');
      for (const person of joining) assert.equal(staff.get(person.id)?.status, 'active');
    }
  });
});
