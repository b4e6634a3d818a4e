/**
 * Every page over plain HTTP at an address that is neither loopback nor localhost, as on a LAN
 * (pages.browser.fixtures.ts): here PUBLIC_BASE_URL itself is `http://convene.test:<port>`, mapped to
 * 127.0.0.1 by Chromium's `--host-resolver-rules`, so the links the service hands out (badge QR codes,
 * signing and verification links) point there too. No page logs a console error: the headers that only
 * mean something over HTTPS (`Cross-Origin-Opener-Policy`, `Strict-Transport-Security`,
 * `Origin-Agent-Cluster`) are not sent, every other security header is, and every page has its icon
 * (`/favicon.ico` and a linked SVG). docs/reference/pages.md.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectOk } from '../../../../test/assertions.ts';
import { HOST, scanQr, UNKNOWN_TOKEN, usePagesInBrowser } from './pages.browser.fixtures.ts';

const HTTPS_ONLY = ['cross-origin-opener-policy', 'strict-transport-security', 'origin-agent-cluster'];
const ALWAYS = [
  'content-security-policy',
  'cross-origin-resource-policy',
  'referrer-policy',
  'x-content-type-options',
  'x-frame-options',
];

function checkHeaders(headers: Record<string, string>, name: string) {
  for (const header of HTTPS_ONLY)
    assert.equal(headers[header], undefined, `${name}: no ${header} over HTTP`);
  for (const header of ALWAYS) assert.ok(headers[header], `${name}: ${header} kept`);
}

describe('every page over plain HTTP at a LAN-like PUBLIC_BASE_URL', () => {
  const {
    bench,
    f,
    open,
    expectAccessible,
    attendedEdition,
    certificateOf,
    signatureRequest,
    startCheckout,
  } = usePagesInBrowser({ publicHost: HOST });

  it('no page logs a console error or gets a header that only means something over HTTPS', async (context) => {
    assert.match(bench().t.baseUrl, /^http:\/\/convene\.test:\d+$/, 'PUBLIC_BASE_URL is the LAN-like name');
    const { edition, ana } = await attendedEdition();
    const certificate = await certificateOf(edition.id, ana);
    const request = await signatureRequest(edition.id);
    const registration = await startCheckout('Bruno Lima');
    const badgeUrl = await f.badgeUrlOf(edition.id, ana.id);
    assert.match(badgeUrl, /^http:\/\/convene\.test:\d+\/b\//);
    // `axe`: whether axe-core runs here too; the found pages are checked in three languages by
    // pages-languages.browser.test.ts, and the address they are served at changes nothing it checks.
    const pages: Array<[string, string, number, { axe: boolean }]> = [
      ['badge', badgeUrl, 200, { axe: false }],
      ['unknown badge', '/b/not-a-code', 404, { axe: true }],
      ['verification', certificate.verify_url, 200, { axe: false }],
      ['unknown certificate', '/verify/not-a-code', 404, { axe: true }],
      ['signing', request.fulfill_url, 200, { axe: false }],
      ['unknown signing link', `/sign?token=${UNKNOWN_TOKEN}`, 404, { axe: true }],
      ['checkout', `/checkout/${registration.intent_id}`, 200, { axe: false }],
      ['unknown checkout', '/checkout/01937a4e-8f2b-7c3d-9e4f-5a6b7c8d9e0f', 404, { axe: true }],
      ['badges list', `/users/${ana.id}/badges`, 200, { axe: false }],
      ['my page, not signed in', '/me', 200, { axe: true }],
    ];
    for (const [name, link, status, { axe }] of pages) {
      const opened = await open(context, link);
      if (opened === undefined) return;
      const { page } = opened;
      assert.equal(opened.status, status, name);
      checkHeaders(opened.headers, name);
      await page.waitForLoadState('load');
      // The icons the page links, and the one browsers ask for by themselves, are served (asked
      // from the page, which is what resolves convene.test).
      const linked = await page
        .locator('link[rel="icon"]')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
      const icons = await page.evaluate(
        (hrefs: string[]) =>
          Promise.all(
            hrefs.map(async (href) => {
              const answer = await fetch(href);
              return { href, status: answer.status, type: answer.headers.get('content-type') };
            }),
          ),
        [...linked, '/favicon.ico'],
      );
      assert.equal(icons.length, 3, `${name}: two icons linked`);
      for (const icon of icons) {
        assert.equal(icon.status, 200, `${name}: ${icon.href}`);
        assert.match(icon.type ?? '', /^image\/(x-icon|svg\+xml)$/, `${name}: ${icon.href}`);
      }
      if (axe) await expectAccessible(page);
      assert.deepEqual(opened.consoleErrors, [], `${name}: no console error`);
      assert.deepEqual(opened.problems, [], `${name}: nothing failed or refused`);
    }
  });

  it('answers /favicon.ico with an icon, cached like the other assets', async (context) => {
    const opened = await open(context, '/favicon.ico');
    if (opened === undefined) return;
    assert.equal(opened.status, 200);
    assert.equal(opened.headers['content-type'], 'image/x-icon');
    assert.equal(opened.headers['cache-control'], 'public, max-age=86400');
    assert.match(opened.headers.etag ?? '', /^"[A-Za-z0-9_-]{16}"$/);
    for (const header of HTTPS_ONLY) assert.equal(opened.headers[header], undefined, header);
    const body = (await bench().t.app.inject({ method: 'GET', url: '/favicon.ico' })).rawPayload;
    // An ICO file: reserved 0, type 1 (icon), one image of 32 × 32 pixels.
    assert.deepEqual([body.readUInt16LE(0), body.readUInt16LE(2), body.readUInt16LE(4)], [0, 1, 1]);
    assert.deepEqual([body[6], body[7]], [32, 32]);
    assert.deepEqual(opened.consoleErrors, []);
  });

  it("the badge page shows the QR code a scanner reads and the edition's venue", async (context) => {
    const { event, edition, ana } = await attendedEdition();
    expectOk(
      await bench().t.patch(`/events/${event.id}/editions/${edition.id}`, {
        token: bench().owner.token,
        body: {
          location_name: 'Centro de Congressos de Lisboa',
          location_description: 'Hall 2, second floor',
        },
      }),
    );
    const badgeUrl = await f.badgeUrlOf(edition.id, ana.id);
    const opened = await open(context, badgeUrl);
    if (opened === undefined) return;
    const { page } = opened;
    await page.getByRole('img', { name: "This badge's QR code" }).waitFor();
    assert.equal(await scanQr(page), badgeUrl, 'the QR code holds the badge URL a door scanner reads');
    const text = await page.locator('main').innerText();
    for (const expected of [
      'Venue',
      'Centro de Congressos de Lisboa',
      'Hall 2, second floor',
      'Show this code',
    ])
      assert.ok(text.includes(expected), expected);
    await expectAccessible(page);
    assert.deepEqual(opened.consoleErrors, []);
    assert.deepEqual(opened.problems, []);
  });
});
