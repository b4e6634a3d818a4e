/**
 * An attendee's pages in a browser (pages.browser.fixtures.ts): the badge page from the scanned
 * code, and staff signed in with the session cookie checking the attendee in from it by keyboard
 * (told in their language when check-in is not open yet, and when their session has ended); the verification page of a valid and of a revoked certificate; a
 * person's badges list. axe-core finds nothing serious or critical, and the CSP refuses nothing.
 * `SCREENSHOTS=docs/screenshots` also saves each page at phone and desktop width (docs/features.md,
 * "People-facing pages").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { expectOk } from '../../../../test/assertions.ts';
import { screenshot } from '../../../../test/browser.ts';
import { HOST, usePagesInBrowser } from './pages.browser.fixtures.ts';

/** The check-in answer's class and background colour, as staff see it. */
const resultLook = async (page: Page) =>
  page.evaluate(
    "[document.getElementById('staff-result').className, getComputedStyle(document.getElementById('staff-result')).backgroundColor]",
  ) as Promise<[string, string]>;

describe("an attendee's pages in a browser", () => {
  // PUBLIC_BASE_URL is the browser's address: the staff's cookie writes must come from its origin.
  const { bench, f, open, staffSession, expectAccessible, attendedEdition, certificateOf } =
    usePagesInBrowser({
      publicHost: HOST,
    });

  it("shows an attendee's badge from the scanned code, and signed-in staff check them in by keyboard", async (context) => {
    const { event, edition, general } = await f.setupAttendance();
    const ana = await f.attendee(edition.id, general.id, 'Ana Souza');
    const link = await f.badgeUrlOf(edition.id, ana.id);
    const opened = await open(context, link);
    if (opened === undefined) return;
    const { page } = opened;
    assert.equal(opened.status, 200);
    await page.getByRole('heading', { level: 1, name: 'Ana Souza' }).waitFor();
    const text = await page.locator('main').innerText();
    for (const expected of ['Valid badge', edition.name, 'General'])
      assert.ok(text.includes(expected), expected);
    await expectAccessible(page);
    await screenshot(page, 'badge');
    // Not signed in: no check-in button, a link to sign in and come back.
    assert.equal(await page.getByRole('button', { name: 'Check in' }).count(), 0);
    const signIn = page.getByRole('link', { name: 'Event staff: sign in to check people in' });
    assert.equal(
      await signIn.getAttribute('href'),
      `/auth/sign-in?return_to=${encodeURIComponent(new URL(link).pathname)}`,
    );

    // Staff signed in (the session cookie), without a mouse: Tab to the button, check in.
    const session = await staffSession(event.id);
    const signedIn = await open(context, link, 'en-US', session);
    if (signedIn === undefined) return;
    const staffPage = signedIn.page;
    await staffPage.getByRole('heading', { level: 2, name: 'Staff check-in' }).waitFor();
    await staffPage.keyboard.press('Tab');
    assert.equal(await staffPage.evaluate('document.activeElement?.id'), 'check-in');
    await staffPage.keyboard.press('Enter');
    const first = staffPage.getByRole('status').filter({ hasText: 'Checked in.' });
    await first.waitFor();
    const firstLook = await resultLook(staffPage);
    assert.equal(firstLook[0], 'status status-ok');
    await expectAccessible(staffPage);
    await screenshot(staffPage, 'badge-staff');
    await staffPage.keyboard.press('Enter');
    const again = staffPage.getByRole('status').filter({ hasText: 'Already checked in at' });
    await again.waitFor();
    // Not the green of a first check-in, and its time says its zone.
    const againLook = await resultLook(staffPage);
    assert.equal(againLook[0], 'status status-already');
    assert.notEqual(againLook[1], firstLook[1], 'another colour than a first check-in');
    assert.match(await again.innerText(), / UTC\.$/);
    await expectAccessible(staffPage);

    const checkIns = expectOk(
      await bench().t.get<Array<{ user_id: string }>>(`/editions/${edition.id}/check-ins?user_id=${ana.id}`, {
        token: bench().owner.token,
      }),
    );
    assert.equal(checkIns.length, 1, 'checked in once, though the button was pressed twice');

    // The session ends elsewhere (signed out in another tab): the next press says so and links to sign in.
    const origin = new URL(bench().t.baseUrl).origin;
    const out = await bench().t.post('/auth/sign-out', {
      headers: { cookie: `convene_session=${session}`, origin, 'x-convene-csrf': '1' },
    });
    assert.equal(out.status, 303);
    await staffPage.getByRole('button', { name: 'Check in' }).click();
    await staffPage.getByRole('status').filter({ hasText: 'Your session has ended' }).waitFor();
    await staffPage.getByRole('link', { name: 'Event staff: sign in to check people in' }).waitFor();
    for (const problems of [opened.problems, signedIn.problems]) {
      assert.deepEqual(
        problems.filter((problem) => !problem.includes('check-ins')),
        [],
      );
    }
  });

  it('shows no check-in button to a signed-in person who is not staff of the event', async (context) => {
    const { edition, general } = await f.setupAttendance();
    const other = await f.setupAttendance();
    const ana = await f.attendee(edition.id, general.id, 'Ana Souza');
    const link = await f.badgeUrlOf(edition.id, ana.id);
    // Staff of another event.
    const opened = await open(context, link, 'en-US', await staffSession(other.event.id));
    if (opened === undefined) return;
    await opened.page.getByRole('heading', { level: 1, name: 'Ana Souza' }).waitFor();
    assert.equal(await opened.page.locator('#staff').count(), 0);
    assert.equal(await opened.page.getByRole('link', { name: /sign in/ }).count(), 0);
  });

  it('tells staff in their language that check-in is not open before the edition', async (context) => {
    // Two days ahead: check-in opens a day before the start.
    const { event, edition, general } = await f.setupAttendance({ startsIn: 48 });
    const ana = await f.attendee(edition.id, general.id, 'Ana Souza');
    const link = await f.badgeUrlOf(edition.id, ana.id);
    const session = await staffSession(event.id);
    const expected: Record<string, { button: string; text: string }> = {
      'en-US': { button: 'Check in', text: 'check-in is open from 24 hours before the edition starts' },
      'pt-BR': { button: 'Fazer check-in', text: 'o check-in abre 24 horas antes do início da edição' },
      es: { button: 'Registrar entrada', text: 'el registro abre 24 horas antes del inicio de la edición' },
    };
    for (const [locale, { button, text }] of Object.entries(expected)) {
      const opened = await open(context, link, locale, session);
      if (opened === undefined) return;
      const { page } = opened;
      await page.getByRole('button', { name: button, exact: true }).click();
      await page.getByRole('status').filter({ hasText: text }).waitFor();
      assert.equal(await page.locator('#staff-result').getAttribute('class'), 'status status-bad', locale);
      await expectAccessible(page);
      assert.deepEqual(
        opened.problems.filter((problem) => !problem.includes('check-ins')),
        [],
        locale,
      );
    }
    const checkIns = expectOk(
      await bench().t.get<unknown[]>(`/editions/${edition.id}/check-ins`, { token: bench().owner.token }),
    );
    assert.equal(checkIns.length, 0, 'nothing recorded');
  });

  it('the verification page for a valid and for a revoked certificate', async (context) => {
    const { edition, ana } = await attendedEdition();
    const certificate = await certificateOf(edition.id, ana);
    const opened = await open(context, certificate.verify_url);
    if (opened === undefined) return;
    const { page } = opened;
    assert.equal(opened.status, 200);
    await page.getByText('Valid certificate').waitFor();
    const text = await page.locator('main').innerText();
    for (const expected of ['Ana Souza', edition.name]) assert.ok(text.includes(expected), expected);
    await expectAccessible(page);
    await screenshot(page, 'verify-valid');

    expectOk(
      await bench().t.post(`/certificates/${certificate.id}/revoke`, {
        token: bench().owner.token,
        body: { reason: 'Issued by mistake' },
      }),
    );
    await page.reload();
    await page.getByText('Revoked certificate').waitFor();
    assert.ok((await page.locator('main').innerText()).includes('Issued by mistake'));
    await expectAccessible(page);
    await screenshot(page, 'verify-revoked');
    assert.deepEqual(opened.problems, []);
    assert.deepEqual(opened.consoleErrors, []);
  });

  it("a person's badges as a page", async (context) => {
    const { edition, ana } = await attendedEdition();
    const opened = await open(context, `/users/${ana.id}/badges`);
    if (opened === undefined) return;
    const { page } = opened;
    await page.getByRole('heading', { level: 1, name: 'Badges' }).waitFor();
    const text = await page.locator('main').innerText();
    for (const expected of ['Current and upcoming', edition.name, 'General', 'No past badges.'])
      assert.ok(text.includes(expected), expected);
    await expectAccessible(page);
    await screenshot(page, 'user-badges');
    assert.deepEqual(opened.problems, []);
    assert.deepEqual(opened.consoleErrors, []);
  });
});
