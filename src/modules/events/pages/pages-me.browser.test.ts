/**
 * A person's own page in a browser (pages.browser.fixtures.ts): signed in through the development
 * sign-in page, `/me` lists their registrations, badge (its QR code drawn) and certificate, whose
 * PDF link answers with the session cookie; the sign-out button ends the session and the page asks
 * to sign in again. axe-core finds nothing serious or critical, no console error, and the CSP
 * refuses nothing over plain HTTP. `SCREENSHOTS=docs/screenshots` also saves `me` at phone and
 * desktop width (docs/features.md, "People-facing pages").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { screenshot } from '../../../../test/browser.ts';
import { meScene } from './me.fixtures.ts';
import { HOST, scanQr, usePagesInBrowser } from './pages.browser.fixtures.ts';

describe("a person's own page in a browser", () => {
  // PUBLIC_BASE_URL is the browser's address: the sign-in form and sign-out must come from its origin.
  const { bench, f, h, open, expectAccessible } = usePagesInBrowser({ publicHost: HOST });

  it('signs in through the development page and shows their registrations, badge and certificate', async (context) => {
    const scene = await meScene(() => bench().t, f, h);
    const opened = await open(context, `/auth/sign-in?return_to=${encodeURIComponent('/me')}`);
    if (opened === undefined) return;
    const { page } = opened;
    await page.getByLabel('E-mail').fill(scene.person.email);
    await page.getByLabel('Name').fill(scene.person.name);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/me$/);
    await page.getByRole('heading', { level: 1, name: 'My page' }).waitFor();

    const main = await page.locator('main').innerText();
    assert.ok(main.includes(`Ana Souza (${scene.person.email})`), 'who is signed in');
    for (const heading of ['Registrations', 'Badges', 'Certificates']) {
      assert.equal(await page.getByRole('heading', { level: 2, name: heading }).count(), 1, heading);
    }
    const registrations = page.getByRole('region', { name: 'Registrations' }).getByRole('listitem');
    assert.ok((await registrations.count()) >= 2);
    assert.match(
      await page.locator(`[data-registration-id="${scene.pending.id}"]`).innerText(),
      /Awaiting payment/,
    );
    assert.match(await page.locator(`[data-registration-id="${scene.free.id}"]`).innerText(), /Confirmed/);
    assert.ok(!main.includes('Bruno Lima'), "nobody else's things");

    // The badge's QR code is drawn: an SVG with a size on screen, named for screen readers.
    const qr = page.getByRole('region', { name: 'Badges' }).getByRole('img', { name: /QR code/ });
    assert.equal(await qr.count(), 1);
    const box = await qr.boundingBox();
    assert.ok(
      box !== null && box.width > 100 && box.height > 100,
      `QR code on screen: ${JSON.stringify(box)}`,
    );
    // And a scanner reads the badge's address off it, the one its link opens.
    const badgeRegion = page.getByRole('region', { name: 'Badges' });
    const badgePath = await badgeRegion.getByRole('link', { name: /Open the badge/ }).getAttribute('href');
    assert.equal(await scanQr(badgeRegion), `${new URL(page.url()).origin}${badgePath}`);

    // The certificate's PDF link answers with the browser's session cookie.
    const pdfLink = page.getByRole('link', { name: /Download the PDF/ });
    const href = await pdfLink.getAttribute('href');
    assert.equal(href, `/certificates/${scene.certificate.id}/pdf`);
    // Fetched by the page itself (same origin, so the browser sends the cookie as a click would).
    const fetchPdf = () =>
      page.evaluate(
        `fetch(${JSON.stringify(href)}).then((r) => [r.status, r.headers.get('content-type')])`,
      ) as Promise<[number, string | null]>;
    assert.deepEqual(await fetchPdf(), [200, 'application/pdf']);

    await expectAccessible(page);
    await screenshot(page, 'me');
    assert.deepEqual(opened.problems, [], 'no failed request, CSP refusal or script error');
    assert.deepEqual(opened.consoleErrors, [], 'no console error');

    // Signing out ends the session and comes back here, which asks to sign in again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to see your page' }).waitFor();
    const signIn = page.getByRole('link', { name: 'Sign in' });
    assert.equal(await signIn.getAttribute('href'), '/auth/sign-in?return_to=%2Fme');
    await expectAccessible(page);
    // The sign-out script does not follow the POST's 303 to `/` (`redirect: 'manual'`, then it
    // opens `/me`): Playwright reports that unfollowed redirect as an aborted request, nothing more.
    const unfollowed = `${new URL(page.url()).origin}/: net::ERR_ABORTED`;
    assert.deepEqual(
      opened.problems.filter((problem) => problem !== unfollowed),
      [],
    );
    assert.deepEqual(opened.consoleErrors, []);
    // Last, as Chromium logs the 401 it asks for: the session ended on the server.
    assert.equal((await fetchPdf())[0], 401);
  });
});
