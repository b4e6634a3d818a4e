/**
 * An attendee's pages in a browser (pages.browser.fixtures.ts): the badge page from the scanned
 * code, and staff checking the attendee in from it by keyboard (told in their language when
 * check-in is not open yet); the verification page of a valid and of a revoked certificate; a
 * person's badges list. axe-core finds nothing serious or critical, and the CSP refuses nothing.
 * `SCREENSHOTS=docs/screenshots` also saves each page at phone and desktop width (docs/features.md,
 * "People-facing pages").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { expectOk } from '../../../../test/assertions.ts';
import { screenshot } from '../../../../test/browser.ts';
import { usePagesInBrowser } from './pages.browser.fixtures.ts';

/** The check-in answer's class and background colour, as staff see it. */
const resultLook = async (page: Page) =>
  page.evaluate(
    "[document.getElementById('staff-result').className, getComputedStyle(document.getElementById('staff-result')).backgroundColor]",
  ) as Promise<[string, string]>;

describe("an attendee's pages in a browser", () => {
  const { bench, f, open, expectAccessible, attendedEdition, certificateOf } = usePagesInBrowser();

  it("shows an attendee's badge from the scanned code, and staff check them in from it by keyboard", async (context) => {
    const { edition, general } = await f.setupAttendance();
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

    // Staff, without a mouse: Tab to the check-in section, open it, paste the token, check in.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement?.tagName'), 'SUMMARY');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement?.id'), 'staff-token');
    await page.keyboard.type(bench().staff.token);
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate('document.activeElement?.id'), 'check-in');
    await page.keyboard.press('Enter');
    const first = page.getByRole('status').filter({ hasText: 'Checked in.' });
    await first.waitFor();
    const firstLook = await resultLook(page);
    assert.equal(firstLook[0], 'status status-ok');
    await expectAccessible(page);
    await screenshot(page, 'badge-staff');
    await page.keyboard.press('Enter');
    const again = page.getByRole('status').filter({ hasText: 'Already checked in at' });
    await again.waitFor();
    // Not the green of a first check-in, and its time says its zone.
    const againLook = await resultLook(page);
    assert.equal(againLook[0], 'status status-already');
    assert.notEqual(againLook[1], firstLook[1], 'another colour than a first check-in');
    assert.match(await again.innerText(), / UTC\.$/);
    await expectAccessible(page);
    // Kept for the tab: a reload still shows the button, not the token field.
    await page.reload();
    await page.locator('summary').click();
    await page.getByRole('button', { name: 'Check in' }).waitFor();
    assert.equal(await page.locator('#staff-token').isVisible(), false);

    const checkIns = expectOk(
      await bench().t.get<unknown[]>(`/editions/${edition.id}/check-ins?user_id=${ana.id}`, {
        token: bench().owner.token,
      }),
    );
    assert.equal(checkIns.length, 1, 'checked in once, though the button was pressed twice');

    // A token that is not accepted is forgotten, and the field comes back.
    await page.getByRole('button', { name: 'Forget my token' }).click();
    await page.getByLabel('Access token').fill('not-a-token');
    await page.getByRole('button', { name: 'Use this token' }).click();
    await page.getByRole('button', { name: 'Check in' }).click();
    await page.getByRole('status').filter({ hasText: 'The token was not accepted' }).waitFor();
    assert.equal(await page.locator('#staff-token').isVisible(), true);
    assert.deepEqual(
      opened.problems.filter((problem) => !problem.includes('check-ins')),
      [],
    );
  });

  it('tells staff in their language that check-in is not open before the edition', async (context) => {
    // Two days ahead: check-in opens a day before the start.
    const { edition, general } = await f.setupAttendance({ startsIn: 48 });
    const ana = await f.attendee(edition.id, general.id, 'Ana Souza');
    const link = await f.badgeUrlOf(edition.id, ana.id);
    const expected: Record<string, { button: string; text: string }> = {
      'en-US': { button: 'Check in', text: 'check-in is open from 24 hours before the edition starts' },
      'pt-BR': { button: 'Fazer check-in', text: 'o check-in abre 24 horas antes do início da edição' },
      es: { button: 'Registrar entrada', text: 'el registro abre 24 horas antes del inicio de la edición' },
    };
    for (const [locale, { button, text }] of Object.entries(expected)) {
      const opened = await open(context, link, locale);
      if (opened === undefined) return;
      const { page } = opened;
      await page.locator('summary').click();
      await page.locator('#staff-token').fill(bench().staff.token);
      await page.locator('#staff-token').press('Enter');
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
