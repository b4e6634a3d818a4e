/**
 * Program sign-ups (docs/reference/attendance.md): who may sign up (registration, access level, staff-only),
 * capacity under concurrency (the point of the PostgreSQL run, where the sign-ups really run in
 * parallel on separate connections), cancel and sign up again, and the participants list.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import type { TestUser } from '../../../../test/harness.ts';
import { attendanceFixtures } from '../check-ins/check-ins.fixtures.ts';
import { useTeam } from '../events.fixtures.ts';
import type { Program } from '../programs/programs.schemas.ts';

interface Participant {
  program_id: string;
  user_id: string;
  registration_id: string | null;
  status: 'active' | 'cancelled';
  cancelled_at: string | null;
}

describe('program sign-ups', () => {
  const team = useTeam();
  const { t, owner, staff, outsider } = team;
  const f = attendanceFixtures(() => team);
  const signUp = (programId: string, who: TestUser) =>
    t.post<Participant>(`/programs/${programId}/participants`, { token: who.token });
  const cancel = (programId: string, who: TestUser) =>
    t.delete<Participant>(`/programs/${programId}/participants/me`, { token: who.token });
  const participants = (programId: string) =>
    t.get<Array<{ user_id: string; holder_name: string; checked_in: boolean; checked_in_at: string | null }>>(
      `/programs/${programId}/participants?limit=100`,
      { token: staff.token },
    );

  it('needs a confirmed registration whose ticket reaches the access level; staff-only needs staff', async () => {
    const { edition, general, vip } = await f.setupAttendance();
    const open = await f.createProgram(edition.id, { name: 'Open' });
    const lounge = await f.createProgram(edition.id, { name: 'Lounge', min_access_level: 5 });
    const crew = await f.createProgram(edition.id, { name: 'Crew', staff_only: true });
    const ana = await f.attendee(edition.id, general.id, 'Ana');
    const vera = await f.attendee(edition.id, vip.id, 'Vera');

    const signed = expectOk(await signUp(open.id, ana), 201, 'events');
    assert.equal(signed.status, 'active');
    assert.equal(signed.user_id, ana.id);
    assert.ok(signed.registration_id !== null);
    expectError(await signUp(open.id, outsider), 403, 'FORBIDDEN');
    expectError(await signUp(lounge.id, ana), 403, 'FORBIDDEN');
    expectOk(await signUp(lounge.id, vera), 201);
    // A staff-only program does not exist for attendees; staff sign up without a registration.
    expectError(await signUp(crew.id, vera), 404, 'NOT_FOUND');
    assert.equal(expectOk(await signUp(crew.id, staff), 201).registration_id, null);
    expectError(await signUp(open.id, ana), 409, 'CONFLICT');
    expectError(await t.post(`/programs/${open.id}/participants`), 401, 'UNAUTHORIZED');
    expectError(await signUp('01937a4e-0000-7000-8000-0000000000ff', ana), 404, 'NOT_FOUND');

    // A cancelled registration no longer admits new sign-ups.
    const registration = await f.registrationOf(edition.id, vera.id);
    expectOk(await f.cancel(vera, registration.id));
    expectError(await signUp(open.id, vera), 403, 'FORBIDDEN');
  });

  it('cancels a sign-up, frees the seat, and lets the person sign up again', async () => {
    const { edition, general } = await f.setupAttendance();
    const talk = await f.createProgram(edition.id, { max_participants: 1 });
    const ana = await f.attendee(edition.id, general.id, 'Ana');
    const bo = await f.attendee(edition.id, general.id, 'Bo');
    expectOk(await signUp(talk.id, ana), 201);
    const full = expectError(await signUp(talk.id, bo), 409, 'CONFLICT');
    assert.equal(full.meta?.max_participants, 1);
    const cancelled = expectOk(await cancel(talk.id, ana));
    assert.equal(cancelled.status, 'cancelled');
    assert.ok(cancelled.cancelled_at !== null);
    expectError(await cancel(talk.id, ana), 404, 'NOT_FOUND');
    expectOk(await signUp(talk.id, bo), 201);
    expectError(await signUp(talk.id, ana), 409, 'CONFLICT');
    const list = expectOk(await participants(talk.id));
    assert.deepEqual(
      list.map((row) => row.holder_name),
      ['Bo'],
    );
  });

  it('never exceeds max_participants when many sign up at once', async () => {
    const { edition, general } = await f.setupAttendance();
    const talk = await f.createProgram(edition.id, { max_participants: 5 });
    const people = await Promise.all(Array.from({ length: 20 }, () => f.attendee(edition.id, general.id)));
    const responses = await Promise.all(people.map((person) => signUp(talk.id, person)));
    const won = responses.filter((response) => response.status === 201);
    for (const response of responses) {
      if (response.status !== 201) expectError(response, 409, 'CONFLICT');
    }
    assert.equal(won.length, 5);
    const listed = await participants(talk.id);
    assert.equal(listed.body.pagination.total, 5);
  });

  it('refuses to lower max_participants below the current sign-ups', async () => {
    const { edition, general } = await f.setupAttendance();
    const talk = await f.createProgram(edition.id, { max_participants: 3 });
    for (const person of await Promise.all([1, 2].map(() => f.attendee(edition.id, general.id)))) {
      expectOk(await signUp(talk.id, person), 201);
    }
    const lower = (value: number | null) =>
      t.patch<Program>(`/programs/${talk.id}`, { token: owner.token, body: { max_participants: value } });
    expectError(await lower(1), 409, 'CONFLICT');
    assert.equal(expectOk(await lower(2)).max_participants, 2);
    assert.equal(expectOk(await lower(null)).max_participants, null);
    expectError(await lower(0), 400, 'VALIDATION_ERROR');
  });

  it('lists participants with their check-in state, to staff and up only', async () => {
    const { edition, general } = await f.setupAttendance();
    const talk = await f.createProgram(edition.id);
    const ana = await f.attendee(edition.id, general.id, 'Ana');
    const bo = await f.attendee(edition.id, general.id);
    expectOk(await signUp(talk.id, ana), 201);
    expectOk(await signUp(talk.id, bo), 201);
    expectOk(await f.scan(edition.id, { code: await f.badgeUrlOf(edition.id, ana.id), program_id: talk.id }));
    const list = expectOk(await participants(talk.id));
    assert.deepEqual(
      list.map((row) => [row.user_id, row.holder_name, row.checked_in]),
      [
        [ana.id, 'Ana', true],
        [bo.id, bo.email, false],
      ],
    );
    assert.ok(list[0]?.checked_in_at !== null);
    for (const who of [ana, outsider]) {
      expectError(await t.get(`/programs/${talk.id}/participants`, { token: who.token }), 403, 'FORBIDDEN');
    }
  });
});
