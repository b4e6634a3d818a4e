/**
 * The door's camera in Chromium (docs/console.md, "The door"), at 127.0.0.1 (a secure context, where
 * the browser gives a page the camera). Chromium's fake camera plays a video the test makes from the
 * badges the service issued (test/fake-camera.ts): three badges' QR codes in turn, looped. A staff
 * member turns the camera on and taps nothing else: each badge is checked in as it comes into view,
 * a badge shown again is answered "Already checked in", and the API lists each check-in once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expectOk } from '../../../test/assertions.ts';
import { writeQrVideo } from '../../../test/fake-camera.ts';
import { attendanceFixtures } from '../events/check-ins/check-ins.fixtures.ts';
import { until } from '../events/registrations/checkout.fixtures.ts';
import { SAM, useConsoleInBrowser, useConsoleTeam } from './console.browser.fixtures.ts';

const video = join(mkdtempSync(join(tmpdir(), 'convene-camera-')), 'badges.y4m');

describe('the console’s door reading badges with the camera', () => {
  const { openConsole, signIn, checkScreen, undocumentedOf, ...bench } = useConsoleInBrowser(() => ({}), {
    loopback: true,
    browserArgs: () => [
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
  const { team, joinAs } = useConsoleTeam(bench, [SAM], signIn);
  const f = attendanceFixtures(team);

  it('checks in each badge that comes into view, once, with no tap', async (context) => {
    const { t, owner } = team();
    const base = await f.setupAttendance();
    const names = ['Ana Souza', 'Bruno Lima', 'Carla Dias'];
    const people = await Promise.all(names.map((name) => f.attendee(base.edition.id, base.general.id, name)));
    const codes = await Promise.all(people.map((person) => f.badgeUrlOf(base.edition.id, person.id)));
    // The video exists before the browser starts: Chromium reads the file at launch.
    writeQrVideo(video, codes);

    const opened = await openConsole(context);
    if (opened === undefined) return;
    const { page, requests, problems } = opened;
    await joinAs(page, 'sam-staff', 'staff', base.event.id);
    await page.goto(`${bench.origin()}/console/editions/${base.edition.id}/scan`);
    await page.getByRole('heading', { level: 1, name: `Door: ${base.edition.name}` }).waitFor();
    await page.getByText('Attendance: 0 of 3 checked in').waitFor();

    await page.getByRole('button', { name: 'Use the camera' }).click();
    await page.getByLabel('What the camera sees').waitFor();
    // Each holder is checked in as their badge comes into view.
    const latest = page.getByRole('region', { name: 'Latest check-ins' });
    for (const name of names) await latest.getByText(name).waitFor({ timeout: 30_000 });
    // The video loops: a badge seen again is answered, and counted no more.
    await page.locator('.scan-result[data-result="already_checked_in"]').waitFor({ timeout: 30_000 });
    await checkScreen(page, 'door-camera');
    await page.getByRole('button', { name: 'Stop the camera' }).click();
    await until(
      () => page.getByLabel('What the camera sees').count(),
      (count) => count === 0,
      'the camera stopped',
    );

    const listed = expectOk(
      await t.get<Array<{ user_id: string }>>(`/editions/${base.edition.id}/check-ins`, {
        token: owner.token,
      }),
    );
    assert.deepEqual(
      listed.map((checkIn) => checkIn.user_id).sort(),
      people.map((person) => person.id).sort(),
      'each holder checked in once',
    );
    assert.deepEqual(problems, [], 'no failed request, console error or CSP refusal');
    assert.deepEqual(undocumentedOf(requests), []);
  });
});
