/**
 * Check-ins (docs/reference/attendance.md): every result of a scan, offline scans and nonce dedupe, who may
 * scan, and what the lists and counts show afterwards.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import { useTeam } from '../events.fixtures.ts';
import { attendanceFixtures } from './check-ins.fixtures.ts';
import type { CheckInAnswer } from './check-ins.schemas.ts';

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

describe('check-ins', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  const f = attendanceFixtures(() => team);

  /** The 409 answer of a refused scan: the same object as a 200's data, in error.meta. */
  const refused = (response: Awaited<ReturnType<typeof f.scan>>, result: string) => {
    const error = expectError(response, 409, 'CONFLICT');
    const meta = error.meta as unknown as CheckInAnswer;
    assert.equal(meta.result, result);
    return meta;
  };

  it('admits a badge once at the door, names its holder, then says when it first came in', async () => {
    const { edition, general } = await f.setupAttendance();
    const ana = await f.attendee(edition.id, general.id, 'Ana Souza');
    const url = await f.badgeUrlOf(edition.id, ana.id);
    assert.match(url, new RegExp(`^${t.baseUrl}/b/[A-Za-z0-9_-]{43}$`));

    const first = expectOk(await f.scan(edition.id, { code: url }), 200, 'events');
    assert.equal(first.result, 'ok');
    assert.equal(first.holder_name, 'Ana Souza');
    assert.equal(first.ticket_name, 'General');
    assert.equal(first.emission?.user_id, ana.id);
    assert.equal(first.emission?.origin, 'participant');
    assert.equal(first.program_id, null);
    assert.ok(first.first_checked_in_at !== null);

    // The code alone works as well as the URL; the second scan records nothing new.
    const code = url.slice(url.lastIndexOf('/') + 1);
    const again = expectOk(await f.scan(edition.id, { code }, admin), 200, 'events');
    assert.equal(again.result, 'already_checked_in');
    assert.equal(again.first_checked_in_at, first.first_checked_in_at);
    assert.equal(again.check_in_id, first.check_in_id);

    const list = await t.get<Array<Record<string, unknown>>>(`/editions/${edition.id}/check-ins`, {
      token: staff.token,
    });
    const rows = expectOk(list, 200, 'events');
    assert.equal(list.body.pagination.total, 1);
    assert.equal(rows[0]?.holder_name, 'Ana Souza');
    assert.equal(rows[0]?.holder_email, ana.email);
    assert.equal(rows[0]?.scanned_by, staff.id);
  });

  it('falls back to the e-mail when the token carried no name', async () => {
    const { edition, general } = await f.setupAttendance();
    const bo = await f.attendee(edition.id, general.id);
    const answer = expectOk(await f.scan(edition.id, { code: await f.badgeUrlOf(edition.id, bo.id) }), 200);
    assert.equal(answer.holder_name, bo.email);
    const [item] = [...(await f.badgeUrls(edition.id)).values()].filter(
      (entry) => entry.item.user_id === bo.id,
    );
    assert.equal(item?.item.variables.holder_name, bo.email);
  });

  it('refuses forged, truncated and foreign codes as unknown, recording nothing', async () => {
    const { edition, general } = await f.setupAttendance();
    const ana = await f.attendee(edition.id, general.id, 'Ana');
    const url = await f.badgeUrlOf(edition.id, ana.id);
    const code = url.slice(url.lastIndexOf('/') + 1);
    const flip = (text: string, index: number) =>
      text.slice(0, index) + (text[index] === 'A' ? 'B' : 'A') + text.slice(index + 1);
    const forged = [
      flip(code, 30), // the tag
      flip(code, 5), // the emission id: a valid tag for another id cannot be made without the key
      flip(code, 42), // the last character (its two unused bits too: only the canonical spelling is a code)
      code.slice(0, 42),
      `${code}A`,
      'not-a-code',
      `${t.baseUrl}/b/`,
      `${t.baseUrl}/users/${ana.id}/badges`,
    ];
    for (const value of forged) {
      const meta = refused(await f.scan(edition.id, { code: value }), 'unknown');
      assert.equal(meta.emission, null, value);
      assert.equal(meta.holder_name, null, value);
    }
    const list = await t.get(`/editions/${edition.id}/check-ins`, { token: staff.token });
    assert.equal(list.body.pagination.total, 0);
  });

  it('refuses a badge of another edition as wrong_edition without naming its holder', async () => {
    const { edition, general } = await f.setupAttendance();
    const other = await f.setupAttendance();
    const ana = await f.attendee(other.edition.id, other.general.id, 'Ana');
    const meta = refused(
      await f.scan(edition.id, { code: await f.badgeUrlOf(other.edition.id, ana.id) }),
      'wrong_edition',
    );
    assert.equal(meta.emission, null);
    assert.equal(meta.holder_name, null);
    void general;
  });

  it('refuses a revoked badge (cancelled registration)', async () => {
    const { edition, general } = await f.setupAttendance();
    const ana = await f.attendee(edition.id, general.id, 'Ana');
    const url = await f.badgeUrlOf(edition.id, ana.id);
    const registration = await f.registrationOf(edition.id, ana.id);
    expectOk(await f.cancel(ana, registration.id), 200);
    const meta = refused(await f.scan(edition.id, { code: url }), 'revoked');
    assert.equal(meta.holder_name, 'Ana');
    assert.equal(meta.emission?.status, 'revoked');
    assert.equal(meta.emission?.status_reason, 'registration_cancelled');
  });

  it('applies program rules: staff-only and access level are not_allowed, staff badges enter everything', async () => {
    const { edition, general, vip } = await f.setupAttendance();
    const open = await f.createProgram(edition.id, { name: 'Open talk' });
    const vipRoom = await f.createProgram(edition.id, { name: 'VIP lounge', min_access_level: 5 });
    const crew = await f.createProgram(edition.id, { name: 'Crew briefing', staff_only: true });
    const ana = await f.attendee(edition.id, general.id, 'Ana');
    const vera = await f.attendee(edition.id, vip.id, 'Vera');
    const anaUrl = await f.badgeUrlOf(edition.id, ana.id);
    const veraUrl = await f.badgeUrlOf(edition.id, vera.id);
    const staffUrl = await f.badgeUrlOf(edition.id, staff.id, 'staff');

    assert.equal(expectOk(await f.scan(edition.id, { code: anaUrl, program_id: open.id })).result, 'ok');
    assert.equal(
      refused(await f.scan(edition.id, { code: anaUrl, program_id: vipRoom.id }), 'not_allowed').reason,
      'access_level',
    );
    assert.equal(expectOk(await f.scan(edition.id, { code: veraUrl, program_id: vipRoom.id })).result, 'ok');
    assert.equal(
      refused(await f.scan(edition.id, { code: veraUrl, program_id: crew.id }), 'not_allowed').reason,
      'staff_only',
    );
    for (const program of [open, vipRoom, crew]) {
      const answer = expectOk(await f.scan(edition.id, { code: staffUrl, program_id: program.id }, owner));
      assert.equal(answer.result, 'ok', program.name);
      assert.equal(answer.emission?.origin, 'staff');
    }
    // Each place is its own check-in: the door is still to come for Ana.
    assert.equal(expectOk(await f.scan(edition.id, { code: anaUrl })).result, 'ok');

    const atOpen = await t.get<Array<{ user_id: string }>>(
      `/editions/${edition.id}/check-ins?program_id=${open.id}`,
      { token: staff.token },
    );
    assert.deepEqual(
      expectOk(atOpen)
        .map((row) => row.user_id)
        .sort(),
      [ana.id, staff.id].sort(),
    );
    const ofAna = await t.get(`/editions/${edition.id}/check-ins?user_id=${ana.id}`, { token: staff.token });
    assert.equal(ofAna.body.pagination.total, 2);
  });

  it('refuses a program of another edition and out-of-range scan times with a 400, recording nothing', async () => {
    const { edition, general } = await f.setupAttendance();
    const other = await f.setupAttendance();
    const foreignProgram = await f.createProgram(other.edition.id);
    const ana = await f.attendee(edition.id, general.id);
    const code = await f.badgeUrlOf(edition.id, ana.id);
    const now = Date.now();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ code, program_id: foreignProgram.id }, 'program_id'],
      [{ code, program_id: '01937a4e-0000-7000-8000-0000000000ff' }, 'program_id'],
      [{ code, scanned_at: new Date(now + 10 * 60_000).toISOString() }, 'scanned_at'],
      [{ code, scanned_at: new Date(now - 8 * DAY).toISOString() }, 'scanned_at'],
      [{ code, scanned_at: 'yesterday' }, 'scanned_at'],
      [{ code: '' }, 'code'],
      [{ code: 12 }, 'code'],
      [{ code, extra: true }, 'extra'],
      [{ code, nonce: '' }, 'nonce'],
    ];
    for (const [body, field] of cases) {
      const error = expectError(await f.scan(edition.id, body), 400, 'VALIDATION_ERROR');
      assert.ok(
        error.fields?.some((entry) => entry.field === field),
        `${JSON.stringify(body)}: ${JSON.stringify(error.fields)}`,
      );
    }
    const list = await t.get(`/editions/${edition.id}/check-ins`, { token: staff.token });
    assert.equal(list.body.pagination.total, 0);
  });

  it('takes offline scans up to 7 days old, keeping the earliest as the first check-in', async () => {
    // An edition under way for six days already, so both scans fall inside its check-in window.
    const { edition, general } = await f.setupAttendance({ startsIn: -6 * 24, lasts: 7 * 24 });
    const ana = await f.attendee(edition.id, general.id);
    const code = await f.badgeUrlOf(edition.id, ana.id);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000).toISOString();
    const sixDaysAgo = new Date(Date.now() - 6 * DAY).toISOString();
    const first = expectOk(await f.scan(edition.id, { code, scanned_at: twoHoursAgo }));
    assert.equal(first.result, 'ok');
    assert.equal(first.first_checked_in_at, twoHoursAgo);
    // An older scan uploaded later: still one check-in, now dated at the older scan.
    const older = expectOk(await f.scan(edition.id, { code, scanned_at: sixDaysAgo }));
    assert.equal(older.result, 'already_checked_in');
    assert.equal(older.first_checked_in_at, sixDaysAgo);
    const rows = expectOk(
      await t.get<Array<{ checked_in_at: string }>>(`/editions/${edition.id}/check-ins`, {
        token: staff.token,
      }),
    );
    assert.deepEqual(
      rows.map((row) => row.checked_in_at),
      [sixDaysAgo],
    );
  });

  it('admits scans from 24 hours before the edition starts to 24 hours after it ends; outside, not_open records nothing', async () => {
    // Two days ahead: too early at the door, and the refusal names the holder, as `revoked` does.
    const ahead = await f.setupAttendance({ startsIn: 48 });
    const ana = await f.attendee(ahead.edition.id, ahead.general.id, 'Ana Souza');
    const tooEarly = refused(
      await f.scan(ahead.edition.id, { code: await f.badgeUrlOf(ahead.edition.id, ana.id) }),
      'not_open',
    );
    assert.equal(tooEarly.holder_name, 'Ana Souza');
    assert.equal(tooEarly.emission?.user_id, ana.id);
    assert.deepEqual(
      [tooEarly.reason, tooEarly.first_checked_in_at, tooEarly.check_in_id],
      [null, null, null],
    );
    const none = await t.get<unknown[]>(`/editions/${ahead.edition.id}/check-ins`, { token: staff.token });
    assert.equal(expectOk(none).length, 0);

    // Less than a day ahead: the doors are open.
    const soon = await f.setupAttendance({ startsIn: 23 });
    const bo = await f.attendee(soon.edition.id, soon.general.id);
    const early = await f.scan(soon.edition.id, { code: await f.badgeUrlOf(soon.edition.id, bo.id) });
    assert.equal(expectOk(early).result, 'ok');

    // By `scanned_at`, bounds included: an edition of the past few days (its attendees registered
    // while it ran), its scans uploaded later by an offline scanner.
    const past = await f.setupAttendance();
    const [first, last] = [
      await f.attendee(past.edition.id, past.general.id),
      await f.attendee(past.edition.id, past.general.id),
    ];
    const at = (ms: number) => new Date(ms).toISOString();
    const moved = expectOk(
      await t.patch<Edition>(`/events/${past.event.id}/editions/${past.edition.id}`, {
        token: owner.token,
        body: { starts_at: at(Date.now() - 72 * HOUR), ends_at: at(Date.now() - 49 * HOUR) },
      }),
    );
    const opensAt = Date.parse(moved.starts_at) - DAY;
    const closesAt = Date.parse(moved.ends_at) + DAY;
    const scanAt = async (person: { id: string }, scannedAt: number, programId?: string) =>
      f.scan(past.edition.id, {
        code: await f.badgeUrlOf(past.edition.id, person.id),
        scanned_at: at(scannedAt),
        ...(programId === undefined ? {} : { program_id: programId }),
      });
    refused(await scanAt(first, opensAt - 1), 'not_open');
    refused(await scanAt(last, closesAt + 1), 'not_open');
    assert.equal(expectOk(await scanAt(first, opensAt)).result, 'ok');
    assert.equal(expectOk(await scanAt(last, closesAt)).result, 'ok');
    // Now is after the window: a scan without `scanned_at` is refused, at a program as well.
    const workshop = await f.createProgram(past.edition.id);
    refused(
      await f.scan(past.edition.id, { code: await f.badgeUrlOf(past.edition.id, first.id) }),
      'not_open',
    );
    refused(await scanAt(first, Date.now(), workshop.id), 'not_open');
    const rows = expectOk(
      await t.get<Array<{ checked_in_at: string }>>(`/editions/${past.edition.id}/check-ins`, {
        token: staff.token,
      }),
    );
    assert.deepEqual(rows.map((row) => row.checked_in_at).sort(), [at(opensAt), at(closesAt)]);
  });

  it('counts a re-uploaded scan once by its nonce, and refuses a nonce reused for another badge', async () => {
    const { edition, general } = await f.setupAttendance();
    const ana = await f.attendee(edition.id, general.id);
    const bo = await f.attendee(edition.id, general.id);
    const anaCode = await f.badgeUrlOf(edition.id, ana.id);
    const scannedAt = new Date(Date.now() - 3600_000).toISOString();
    const body = { code: anaCode, scanned_at: scannedAt, nonce: 'scanner-1:0001' };
    const first = expectOk(await f.scan(edition.id, body));
    const uploads = await Promise.all([1, 2, 3].map(() => f.scan(edition.id, body)));
    for (const upload of uploads) {
      const answer = expectOk(upload);
      assert.equal(answer.result, 'ok');
      assert.equal(answer.check_in_id, first.check_in_id);
      assert.equal(answer.first_checked_in_at, scannedAt);
    }
    expectError(
      await f.scan(edition.id, { code: await f.badgeUrlOf(edition.id, bo.id), nonce: 'scanner-1:0001' }),
      409,
      'CONFLICT',
    );
    const list = await t.get(`/editions/${edition.id}/check-ins`, { token: staff.token });
    assert.equal(list.body.pagination.total, 1);
  });

  it('lets only staff and up of the event scan, list and count', async () => {
    const { edition, general } = await f.setupAttendance();
    const ana = await f.attendee(edition.id, general.id);
    const code = await f.badgeUrlOf(edition.id, ana.id);
    for (const who of [outsider, ana]) {
      expectError(await f.scan(edition.id, { code }, who), 403, 'FORBIDDEN');
      expectError(await t.get(`/editions/${edition.id}/check-ins`, { token: who.token }), 403, 'FORBIDDEN');
      expectError(await t.get(`/editions/${edition.id}/attendance`, { token: who.token }), 403, 'FORBIDDEN');
    }
    expectError(await t.post(`/editions/${edition.id}/check-ins`, { body: { code } }), 401, 'UNAUTHORIZED');
    // A draft edition of a draft event does not exist for outsiders, even with a forged code.
    const draft = await f.setupEdition({ isDraft: true, isDraftEvent: true });
    expectError(await f.scan(draft.edition.id, { code: 'x' }, outsider), 404, 'NOT_FOUND');
    expectError(await f.scan('not-a-uuid', { code }), 400, 'VALIDATION_ERROR');
  });

  it('counts attendance per edition and program', async () => {
    const { edition, general } = await f.setupAttendance();
    const talk = await f.createProgram(edition.id, { name: 'Talk', max_participants: 10 });
    const people = await Promise.all([1, 2, 3].map(() => f.attendee(edition.id, general.id)));
    const [p1, p2] = people;
    for (const person of [p1!, p2!]) {
      expectOk(await t.post(`/programs/${talk.id}/participants`, { token: person.token }), 201);
      expectOk(await f.scan(edition.id, { code: await f.badgeUrlOf(edition.id, person.id) }));
    }
    expectOk(await f.scan(edition.id, { code: await f.badgeUrlOf(edition.id, p1!.id), program_id: talk.id }));
    // A staff badge at the door is not a participant checked in.
    expectOk(await f.scan(edition.id, { code: await f.badgeUrlOf(edition.id, staff.id, 'staff') }));

    const counts = expectOk(
      await t.get<{
        edition: { registered: number; checked_in: number };
        programs: Array<{
          program_id: string;
          registered: number;
          checked_in: number;
          max_participants: number;
        }>;
      }>(`/editions/${edition.id}/attendance`, { token: staff.token }),
    );
    assert.deepEqual(counts.edition, { registered: 3, checked_in: 2 });
    assert.deepEqual(
      counts.programs.map(({ program_id, registered, checked_in, max_participants }) => ({
        program_id,
        registered,
        checked_in,
        max_participants,
      })),
      [{ program_id: talk.id, registered: 2, checked_in: 1, max_participants: 10 }],
    );
  });
});
