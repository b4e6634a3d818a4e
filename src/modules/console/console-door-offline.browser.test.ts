/**
 * The console's door with the network down (docs/console.md, "The door"), in Chromium at 127.0.0.1
 * (a secure context, where the browser allows the console's service worker). A staff member opens
 * the door once online; then, with the browser context offline, 20 badges are typed in as their QR
 * codes hold them, each shown as saved on the device and counted as waiting; the tab is reloaded
 * halfway, still offline, and the door opens from the worker with the scans still waiting. When the
 * network returns they are sent on their own, and the API lists exactly 20 check-ins, none twice,
 * each at the time it was scanned offline, not when it arrived.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { expectOk } from '../../../test/assertions.ts';
import { attendanceFixtures } from '../events/check-ins/check-ins.fixtures.ts';
import { until } from '../events/registrations/checkout.fixtures.ts';
import { SAM, typeBadge, useConsoleInBrowser, useConsoleTeam } from './console.browser.fixtures.ts';

const BADGES = 20;

interface Listed {
  user_id: string;
  checked_in_at: string;
  recorded_at: string;
  program_id: string | null;
}

describe('the console’s door offline in a browser', () => {
  const { openConsole, signIn, checkScreen, undocumentedOf, settled, ...bench } = useConsoleInBrowser(
    () => ({}),
    { loopback: true },
  );
  const { team, joinAs } = useConsoleTeam(bench, [SAM], signIn);
  const f = attendanceFixtures(team);

  /** Types `code` and waits for this scan's answer (the screen numbers them): answers its kind. */
  let scans = 0;
  async function scan(page: Page, code: string) {
    scans += 1;
    const shown = await typeBadge(page, code, scans);
    return { result: await shown.getAttribute('data-result'), text: await shown.innerText() };
  }

  const waitingText = (page: Page) => page.locator('#scan-waiting').innerText();

  it('keeps 20 scans through a reload offline and sends each once when the network returns', async (context) => {
    const { t, owner } = team();
    const base = await f.setupAttendance();
    const codes: string[] = [];
    const people = new Set<string>();
    for (let index = 0; index < BADGES; index += 1) {
      const person = await f.attendee(base.edition.id, base.general.id, `Guest ${index + 1}`);
      people.add(person.id);
      codes.push(await f.badgeUrlOf(base.edition.id, person.id));
    }

    const opened = await openConsole(context);
    if (opened === undefined) return;
    const { page, requests, problems } = opened;
    await joinAs(page, 'sam-staff', 'staff', base.event.id);

    // Online once: the door opens, and the worker takes the page over and keeps what it reads.
    await page.goto(`${bench.origin()}/console/editions/${base.edition.id}/scan`);
    await page.getByRole('heading', { level: 1, name: `Door: ${base.edition.name}` }).waitFor();
    await until(
      () => page.evaluate('navigator.serviceWorker.controller !== null'),
      (controlled) => controlled === true,
      'the service worker controls the door',
    );
    await page.getByText(`Attendance: 0 of ${BADGES} checked in`).waitFor();
    await settled(page);
    const onlineProblems = problems.length;

    // Offline: each scan is kept on the device and said so.
    await page.context().setOffline(true);
    const offlineFrom = Date.now();
    for (const code of codes.slice(0, BADGES / 2)) {
      const kept = await scan(page, code);
      assert.equal(kept.result, 'queued');
      assert.match(kept.text, /Saved on this device/);
    }
    assert.equal(await waitingText(page), `Scans waiting to be sent: ${BADGES / 2}`);
    await checkScreen(page, 'door-offline');

    // Reloaded, still offline: the door opens from the worker, the scans still wait.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: `Door: ${base.edition.name}` }).waitFor();
    await until(
      () => waitingText(page).catch(() => ''),
      (text) => text === `Scans waiting to be sent: ${BADGES / 2}`,
      'the scans kept across the reload',
    );
    scans = 0;
    for (const code of codes.slice(BADGES / 2)) assert.equal((await scan(page, code)).result, 'queued');
    assert.equal(await waitingText(page), `Scans waiting to be sent: ${BADGES}`);
    const offlineUntil = Date.now();

    // Online again: sent without a tap, each once.
    await page.context().setOffline(false);
    await page.locator('#scan-waiting').waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByText(`Attendance: ${BADGES} of ${BADGES} checked in`).waitFor({ timeout: 15_000 });

    const listed = expectOk(
      await t.get<Listed[]>(`/editions/${base.edition.id}/check-ins?limit=100`, { token: owner.token }),
    );
    assert.equal(listed.length, BADGES, 'exactly 20 check-ins');
    assert.deepEqual(new Set(listed.map((checkIn) => checkIn.user_id)), people, 'each person once');
    for (const checkIn of listed) {
      const scannedAt = Date.parse(checkIn.checked_in_at);
      // At the time of the scan, offline (a second's slack for the clocks' rounding), before it arrived.
      assert.ok(scannedAt >= offlineFrom - 1000 && scannedAt <= offlineUntil, checkIn.checked_in_at);
      assert.ok(Date.parse(checkIn.recorded_at) >= scannedAt, 'recorded after it was scanned');
      assert.equal(checkIn.program_id, null);
    }
    assert.ok(
      listed.some((checkIn) => Date.parse(checkIn.recorded_at) >= offlineUntil),
      'sent once the network returned',
    );

    // Online, nothing failed; offline, only what the missing network refused.
    assert.deepEqual(problems.slice(0, onlineProblems), [], 'no failure while online');
    assert.deepEqual(
      problems.slice(onlineProblems).filter((problem) => !/net::ERR_INTERNET_DISCONNECTED/.test(problem)),
      [],
      'offline, only requests the missing network refused',
    );
    assert.deepEqual(undocumentedOf(requests), []);
  });
});
