/**
 * The console's door in Chromium (docs/console.md, "The door"), over plain HTTP at a made-up host,
 * signed in through the test OpenID provider as a staff member: badges typed in as their QR codes
 * hold them give every answer of a check-in, each in its own colour and words, with the holder's
 * name and ticket; the field is ready for the next badge without a tap; the place chosen (a
 * program) is kept across a reload; the counts and the latest check-ins follow; and the API lists
 * each check-in once.
 * axe-core finds nothing serious or critical, and the screen fits a 360 px phone.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { expectOk } from '../../../test/assertions.ts';
import { attendanceFixtures } from '../events/check-ins/check-ins.fixtures.ts';
import { until } from '../events/registrations/checkout.fixtures.ts';
import { SAM, typeBadge, useConsoleInBrowser, useConsoleTeam } from './console.browser.fixtures.ts';

/** The answer's colour on screen: one per kind (green, amber, red). */
const COLOURS = { ok: 'rgb(13, 107, 47)', warn: 'rgb(138, 83, 0)', bad: 'rgb(163, 22, 28)' } as const;

describe('the console’s door in a browser', () => {
  const { openConsole, signIn, checkScreen, undocumentedOf, visit, reload, ...bench } = useConsoleInBrowser();
  const { team, joinAs } = useConsoleTeam(bench, [SAM], signIn);
  const f = attendanceFixtures(team);

  /**
   * Types `code` as a scanner would and answers the result shown: its kind, colour and text. The
   * screen numbers its answers (`data-scans`), so this one is told from the one before.
   */
  let scans = 0;
  async function scan(page: Page, code: string) {
    scans += 1;
    const shown = await typeBadge(page, code, scans);
    const field = page.getByLabel('Badge code or address');
    const kind = (await shown.getAttribute('class'))?.match(/scan-(ok|warn|bad)/)?.[1];
    // Expressions in the page (its DOM types are not the tests'); one answer is shown at a time.
    const colour = (await page.evaluate(
      "getComputedStyle(document.querySelector('.scan-result')).backgroundColor",
    )) as string;
    // Ready for the next badge: emptied and focused, no tap needed.
    assert.equal(await field.inputValue(), '');
    assert.equal(await page.evaluate('document.activeElement.id'), 'scan-code', 'the field has the focus');
    return { result: await shown.getAttribute('data-result'), kind, colour, text: await shown.innerText() };
  }

  it('gives each answer of a check-in in its colour and words, keeps the place and counts once', async (context) => {
    const { t, owner } = team();
    // An edition under way with a staff-only program, two attendees (Bruno's badge revoked by his
    // cancellation), a badge of another edition, and an edition not open yet.
    const base = await f.setupAttendance();
    const backstage = await f.createProgram(base.edition.id, { name: 'Backstage', staff_only: true });
    const ana = await f.attendee(base.edition.id, base.general.id, 'Ana Souza');
    const bruno = await f.attendee(base.edition.id, base.general.id, 'Bruno Lima');
    const anaCode = await f.badgeUrlOf(base.edition.id, ana.id);
    const brunoCode = await f.badgeUrlOf(base.edition.id, bruno.id);
    expectOk(await f.cancel(bruno, (await f.registrationOf(base.edition.id, bruno.id)).id), 200);
    const other = await f.setupAttendance();
    const carla = await f.attendee(other.edition.id, other.general.id, 'Carla Dias');
    const otherCode = await f.badgeUrlOf(other.edition.id, carla.id);
    const later = await f.setupAttendance({ startsIn: 72 });
    const dora = await f.attendee(later.edition.id, later.general.id, 'Dora Reis');
    const laterCode = await f.badgeUrlOf(later.edition.id, dora.id);

    const opened = await openConsole(context);
    if (opened === undefined) return;
    const { page, requests, problems, refusals } = opened;
    // A refused badge is a 409 carrying the answer: what the screen shows, not a failure.
    for (const { edition } of [base, later]) refusals.add(`409 /editions/${edition.id}/check-ins`);
    await joinAs(page, 'sam-staff', 'staff', base.event.id, later.event.id);

    // From the edition's screen to its door.
    await page.goto(`${bench.origin()}/console/events/${base.event.id}/editions/${base.edition.id}`);
    await page.getByRole('link', { name: 'Scan badges' }).click();
    await page.getByRole('heading', { level: 1, name: `Door: ${base.edition.name}` }).waitFor();
    await page.getByText('Attendance: 0 of 1 checked in').waitFor();

    // 1. At the edition itself: ok, then the same badge again, then each refusal.
    const first = await scan(page, anaCode);
    assert.deepEqual(
      { result: first.result, kind: first.kind, colour: first.colour },
      { result: 'ok', kind: 'ok', colour: COLOURS.ok },
    );
    assert.match(first.text, /Checked in\s+Ana Souza\s+General/);
    await checkScreen(page, 'door');
    const again = await scan(page, anaCode);
    assert.deepEqual(
      { result: again.result, kind: again.kind, colour: again.colour },
      { result: 'already_checked_in', kind: 'warn', colour: COLOURS.warn },
    );
    assert.match(again.text, /Already checked in\s+Ana Souza\s+General\s+First checked in /);
    const refused = [
      [brunoCode, 'revoked', /Badge revoked\s+Bruno Lima/],
      ['not-a-badge-code', 'unknown', /Unknown badge\s+No badge has this code/],
      [otherCode, 'wrong_edition', /Badge of another edition/],
    ] as const;
    for (const [code, result, text] of refused) {
      const shown = await scan(page, code);
      assert.deepEqual(
        { result: shown.result, kind: shown.kind, colour: shown.colour },
        { result, kind: 'bad', colour: COLOURS.bad },
        result,
      );
      assert.match(shown.text, text, result);
    }
    await checkScreen(page, 'door-refused');
    await page.getByText('Attendance: 1 of 1 checked in').waitFor();
    // The latest check-ins: Ana once, where she was checked in.
    const latest = page.locator('#scan-latest-list > li');
    await until(
      () => latest.count(),
      (count) => count === 1,
      'one check-in listed',
    );
    assert.match(await latest.first().innerText(), /^Ana Souza · General · .+ · at the edition$/);

    // 2. The place chosen once, and kept across a reload: a staff-only program refuses Ana.
    await page.getByLabel('Checking in at').selectOption({ label: 'Backstage' });
    // The lists follow the place: nobody at Backstage yet.
    const latestHere = page.getByRole('region', { name: 'Latest check-ins' });
    await latestHere.getByText('No one checked in here yet.').waitFor();
    // The lists are read every few seconds: reloaded between two reads.
    await reload(page);
    scans = 0;
    await page.getByRole('heading', { level: 1, name: `Door: ${base.edition.name}` }).waitFor();
    await until(
      () => page.getByLabel('Checking in at').inputValue(),
      (value) => value === backstage.id,
      'the program remembered',
    );
    const backstageScan = await scan(page, anaCode);
    assert.equal(backstageScan.result, 'not_allowed');
    assert.equal(backstageScan.colour, COLOURS.bad);
    assert.match(backstageScan.text, /Not allowed here\s+Ana Souza[\s\S]*This program is for staff only\./);
    // Nobody at Backstage yet: a refusal records nothing.
    await page
      .getByRole('region', { name: 'Latest check-ins' })
      .getByText('No one checked in here yet.')
      .waitFor();

    // 3. An edition whose door opens in three days.
    await visit(page, `/console/editions/${later.edition.id}/scan`);
    scans = 0;
    await page.getByRole('heading', { level: 1, name: `Door: ${later.edition.name}` }).waitFor();
    const early = await scan(page, laterCode);
    assert.deepEqual(
      { result: early.result, colour: early.colour },
      { result: 'not_open', colour: COLOURS.bad },
    );
    assert.match(early.text, /Check-in is not open\s+Dora Reis[\s\S]*24 hours before the edition starts/);

    // The API counts Ana once, at the edition.
    const listed = expectOk(
      await t.get<Array<{ user_id: string; program_id: string | null }>>(
        `/editions/${base.edition.id}/check-ins`,
        { token: owner.token },
      ),
    );
    assert.deepEqual(
      listed.map(({ user_id, program_id }) => ({ user_id, program_id })),
      [{ user_id: ana.id, program_id: null }],
    );
    assert.deepEqual(problems, [], 'no failed request, console error or CSP refusal');
    assert.deepEqual(undocumentedOf(requests), []);
  });

  it('shows who came: counts per place, the check-ins by place, and a program’s participants, live', async (context) => {
    const { t } = team();
    const base = await f.setupAttendance();
    const workshop = await f.createProgram(base.edition.id, { name: 'Workshop', max_participants: 10 });
    const ana = await f.attendee(base.edition.id, base.general.id, 'Ana Souza');
    const bruno = await f.attendee(base.edition.id, base.general.id, 'Bruno Lima');
    for (const person of [ana, bruno]) {
      expectOk(await t.post(`/programs/${workshop.id}/participants`, { token: person.token }), 201);
    }
    const anaCode = await f.badgeUrlOf(base.edition.id, ana.id);
    const brunoCode = await f.badgeUrlOf(base.edition.id, bruno.id);
    expectOk(await f.scan(base.edition.id, { code: anaCode }));
    expectOk(await f.scan(base.edition.id, { code: anaCode, program_id: workshop.id }));

    const opened = await openConsole(context);
    if (opened === undefined) return;
    const { page, requests, problems } = opened;
    await joinAs(page, 'sam-staff', 'staff', base.event.id);
    await visit(page, `/console/events/${base.event.id}/editions/${base.edition.id}`);
    await page.getByRole('link', { name: 'Attendance' }).click();
    await page.getByRole('heading', { level: 1, name: 'Attendance' }).waitFor();

    // The counts: the edition, and the workshop with its places.
    const table = page.locator('#attendance-table');
    await table.waitFor();
    const rowText = (name: string) => table.getByRole('row', { name: new RegExp(`^${name}`) }).innerText();
    assert.match(await rowText('The edition itself'), /1\s+2/);
    assert.match(await rowText('Workshop'), /1\s+2 of 10 places/);

    // The check-ins everywhere, then at the workshop.
    const checkIns = page.getByRole('region', { name: 'Check-ins' });
    const listed = checkIns.locator('#check-in-list > li');
    await until(
      () => listed.count(),
      (count) => count === 2,
      'two check-ins everywhere',
    );
    await checkIns.getByLabel('Place').selectOption(workshop.id);
    await until(
      () => listed.count(),
      (count) => count === 1,
      'one at the workshop',
    );
    assert.match(await listed.first().innerText(), /Ana Souza[\s\S]*at Workshop/);

    // The workshop's participants; Bruno arrives meanwhile, and the screen follows.
    const participants = page.getByRole('region', { name: 'Programs’ participants' });
    await participants.getByText('2 signed up of 10 places · 1 checked in').waitFor();
    const person = (name: string) => participants.locator('#participant-list > li').filter({ hasText: name });
    await person('Ana Souza')
      .getByText(/^came /)
      .waitFor();
    await person('Bruno Lima').getByText('not yet').waitFor();
    await checkScreen(page, 'attendance');
    expectOk(await f.scan(base.edition.id, { code: brunoCode, program_id: workshop.id }));
    await participants.getByText('2 signed up of 10 places · 2 checked in').waitFor({ timeout: 15_000 });
    await person('Bruno Lima')
      .getByText(/^came /)
      .waitFor();

    assert.deepEqual(problems, [], 'no failed request, console error or CSP refusal');
    assert.deepEqual(undocumentedOf(requests), []);
  });
});
