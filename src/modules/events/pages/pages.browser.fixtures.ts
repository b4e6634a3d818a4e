/**
 * What the browser tests of the people-facing pages share (docs/reference/pages.md): the checkout
 * bench (the app listening, the Mercado Pago simulator behind the checkout), one Chromium per test
 * file (Debian's, driven by playwright-core) that opens the pages over plain HTTP at a made-up host,
 * so the browser applies the CSP as it would on a LAN address, axe-core's verdict, and the records
 * the pages show. The tests are split by page into `pages-*.browser.test.ts` so that `npm test`
 * can spread them over its shard processes (test/shards/shards.ts).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, type TestContext } from 'node:test';
import { eq } from 'drizzle-orm';
import jsQRModule from 'jsqr';
import type { Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { expectOk } from '../../../../test/assertions.ts';
import { accessibilityProblems, sharedBrowser } from '../../../../test/browser.ts';
import type { TestUser } from '../../../../test/harness.ts';
import { certificateFixtures } from '../certificates/certificates.fixtures.ts';
import type { Certificate } from '../certificates/certificates.schemas.ts';
import { checkoutHelpers, useCheckoutBench } from '../registrations/checkout.fixtures.ts';
import type { Registration } from '../registrations/registrations.schemas.ts';
import type { CreatedSignatureRequest } from '../signatures/signatures.schemas.ts';
import { signatureRequests } from '../signatures/signatures.table.ts';

export const HOST = 'convene.test';

type JsQr = typeof jsQRModule.default;
/** jsqr is CommonJS typed with `export default` (as in test/pdf.ts). */
const jsQR: JsQr = (jsQRModule as unknown as { default?: JsQr }).default ?? (jsQRModule as unknown as JsQr);

/** What a scanner reads off the screen: the QR code's element (the page's first) as pixels, decoded by jsqr. */
export async function scanQr(where: Page | Locator): Promise<string> {
  const png = PNG.sync.read(await where.locator('svg.qr').first().screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? '';
}
/** A signing token of the right shape that no request has. */
export const UNKNOWN_TOKEN = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export interface Opened {
  page: Page;
  status: number;
  /** The page's response headers (lower-case names). */
  headers: Record<string, string>;
  /** Requests that failed or answered ≥ 400, and anything the CSP refused. */
  problems: string[];
  /**
   * Every console message of type error (a header the browser ignores, a refused resource, a
   * failed load), except the one Chromium logs for a page opened on purpose with a 4xx status
   * (`Failed to load resource` for the document itself): no page may log any other.
   */
  consoleErrors: string[];
}

/**
 * Call inside a `describe`: starts the bench in `before`, closes it and the browser in `after`, and
 * gives the helpers below. With `publicHost: HOST`, PUBLIC_BASE_URL itself is `http://convene.test:<port>`
 * (the links the service hands out point there); Mercado Pago's simulator cannot notify that
 * address, so such a bench shows pages but does not take payments.
 */
export function usePagesInBrowser(options: { publicHost?: string } = {}) {
  const bench = useCheckoutBench({}, {}, options);
  const f = certificateFixtures(bench);
  const h = checkoutHelpers(bench);
  const browsers = sharedBrowser({ [HOST]: '127.0.0.1' });
  after(() => browsers.close());

  /** The app's address as a person on the network would type it (not a secure context). */
  const origin = () => `http://${HOST}:${new URL(bench().t.baseUrl).port}`;
  /** A link the service handed out (PUBLIC_BASE_URL is loopback), at the browser's address. */
  const at = (link: string) => {
    const url = new URL(link, origin());
    return `${origin()}${url.pathname}${url.search}`;
  };

  /**
   * Opens `link` in a new page speaking `locale`, signed in with `session` (a session cookie's value,
   * see `staffSession`) when given; undefined (test skipped) without Chromium.
   */
  async function open(
    context: TestContext,
    link: string,
    locale = 'en-US',
    session?: string,
  ): Promise<Opened | undefined> {
    const browser = await browsers.get(context);
    if (browser === undefined) return undefined;
    const browserContext = await browser.newContext({ locale, viewport: { width: 1024, height: 800 } });
    context.after(() => browserContext.close());
    if (session !== undefined) {
      await browserContext.addCookies([{ name: 'convene_session', value: session, url: origin() }]);
    }
    const page = await browserContext.newPage();
    const problems: string[] = [];
    const consoleErrors: string[] = [];
    const address = at(link);
    page.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));
    page.on('console', (message) => {
      if (/Refused to|Content Security Policy/.test(message.text()))
        problems.push(`console: ${message.text()}`);
      if (message.type() !== 'error') return;
      const isOwnStatus =
        message.location().url === address && /^Failed to load resource: .* 4\d\d/.test(message.text());
      if (!isOwnStatus) consoleErrors.push(`${message.location().url}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
    const response = await page.goto(address);
    return {
      page,
      status: response?.status() ?? 0,
      headers: response?.headers() ?? {},
      problems,
      consoleErrors,
    };
  }

  /**
   * The session cookie of a new person, signed in by the development sign-in (docs/reference/sign-in.md)
   * and added by the owner to `eventId`'s team as `role`. Only a bench whose PUBLIC_BASE_URL is the
   * browser's address (`publicHost: HOST`) takes that cookie's writes: they must come from its origin.
   */
  async function staffSession(eventId: string, role: 'staff' | 'admin' = 'staff'): Promise<string> {
    const { t, owner } = bench();
    const email = `door-${randomBytes(3).toString('hex')}@example.com`;
    const signedIn = await t.post('/auth/dev-sign-in', {
      body: { email, name: 'Door Staff' },
      headers: { origin: new URL(t.baseUrl).origin },
    });
    assert.equal(signedIn.status, 303, signedIn.text);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0] ?? '';
    expectOk(await t.post(`/events/${eventId}/members`, { token: owner.token, body: { email, role } }), 201);
    return cookie.slice(cookie.indexOf('=') + 1);
  }

  async function expectAccessible(page: Page) {
    assert.deepEqual(await accessibilityProblems(page), [], 'axe-core: no serious or critical violations');
  }

  /** Draws a wavy line across the signature pad with the mouse, as a person would. */
  async function drawSignature(page: Page) {
    const box = await page.locator('#pad').boundingBox();
    assert.ok(box, 'the signature pad is on screen');
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    for (let step = 1; step <= 30; step += 1) {
      const x = box.x + 20 + step * ((box.width - 40) / 30);
      await page.mouse.move(x, box.y + box.height / 2 + Math.sin(step / 3) * (box.height / 4));
    }
    await page.mouse.up();
  }

  async function signatureRequest(editionId: string, name = 'Marta Ferreira') {
    return expectOk(
      await bench().t.post<CreatedSignatureRequest>(`/editions/${editionId}/signature-requests`, {
        token: bench().owner.token,
        body: {
          signatory_name: name,
          signatory_email: 'marta@example.com',
          signatory_title: 'Programme chair',
        },
      }),
      201,
      'events',
    );
  }

  const requestStatus = async (id: string) =>
    (
      await bench()
        .t.db.select({ status: signatureRequests.status, reason: signatureRequests.reason })
        .from(signatureRequests)
        .where(eq(signatureRequests.id, id))
    )[0];

  /** A paid ticket checkout just started: the buyer's registration, pending payment. */
  async function startCheckout(name?: string) {
    const { edition, ticketType } = await h.paidEdition();
    const buyer = await bench().t.actor('buyer', name === undefined ? undefined : { name });
    return expectOk(
      await bench().t.post<Registration & { intent_id: string }>(`/editions/${edition.id}/registrations`, {
        token: buyer.token,
        body: { ticket_type_id: ticketType.id },
      }),
      201,
      'events',
    );
  }

  /** A published edition, Ana registered and checked in, an attendance template. */
  async function attendedEdition() {
    const base = await f.setupAttendance();
    const ana = await f.attendee(base.edition.id, base.general.id, 'Ana Souza');
    await f.checkIn(base.edition.id, ana);
    await f.createTemplate(base.edition.id, 'edition_attendance');
    return { ...base, ana };
  }

  async function certificateOf(editionId: string, holder: TestUser): Promise<Certificate> {
    await f.issueAndWait(editionId);
    const found = (await f.certificatesOf(editionId)).find((item) => item.user_id === holder.id);
    assert.ok(found, 'the holder has a certificate');
    return found;
  }

  return {
    bench,
    f,
    h,
    at,
    open,
    staffSession,
    expectAccessible,
    drawSignature,
    signatureRequest,
    requestStatus,
    startCheckout,
    attendedEdition,
    certificateOf,
  };
}
