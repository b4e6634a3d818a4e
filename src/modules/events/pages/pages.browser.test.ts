/**
 * The people-facing pages (docs/reference/pages.md) as a person uses them: Debian's Chromium, driven by
 * playwright-core, opening the pages over plain HTTP at a made-up host (so the browser applies
 * the CSP as it would on a LAN address), with the Mercado Pago simulator behind the checkout. A
 * signatory draws with the mouse and signs (the signature then is on the certificate PDF) or
 * declines; used, cancelled, expired and unknown links; an attendee's badge page from the scanned
 * code and staff checking them in from it, by keyboard; the verification page for a valid and a
 * revoked certificate; the checkout page turning from pending to paid while open; the badges
 * list; every page in en, pt-BR and es; axe-core finds nothing serious or critical anywhere.
 * `SCREENSHOTS=docs/screenshots` also saves each page at phone and desktop width (README).
 */
import assert from 'node:assert/strict';
import { after, describe, it, type TestContext } from 'node:test';
import { loadImage } from '@napi-rs/canvas';
import { eq, sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { expectOk } from '../../../../test/assertions.ts';
import { accessibilityProblems, screenshot, sharedBrowser } from '../../../../test/browser.ts';
import type { TestUser } from '../../../../test/harness.ts';
import { readPdf } from '../../../../test/pdf.ts';
import { certificateFixtures } from '../certificates/certificates.fixtures.ts';
import type { Certificate } from '../certificates/certificates.schemas.ts';
import { checkoutHelpers, useCheckoutBench } from '../registrations/checkout.fixtures.ts';
import type { Registration } from '../registrations/registrations.schemas.ts';
import type { CreatedSignatureRequest, Signature } from '../signatures/signatures.schemas.ts';
import { signatureRequests } from '../signatures/signatures.table.ts';

const HOST = 'convene.test';
const UNKNOWN_TOKEN = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

describe('the pages in a browser', () => {
  const bench = useCheckoutBench();
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

  interface Opened {
    page: Page;
    status: number;
    /** Requests that failed or answered ≥ 400, and anything the CSP refused. */
    problems: string[];
  }

  /** Opens `link` in a new page speaking `locale`; undefined (test skipped) without Chromium. */
  async function open(context: TestContext, link: string, locale = 'en-US'): Promise<Opened | undefined> {
    const browser = await browsers.get(context);
    if (browser === undefined) return undefined;
    const browserContext = await browser.newContext({ locale, viewport: { width: 1024, height: 800 } });
    context.after(() => browserContext.close());
    const page = await browserContext.newPage();
    const problems: string[] = [];
    page.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));
    page.on('console', (message) => {
      if (/Refused to|Content Security Policy/.test(message.text()))
        problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
    const response = await page.goto(at(link));
    return { page, status: response?.status() ?? 0, problems };
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

  it('a signatory draws a signature with the mouse and signs; it is on the certificate PDF', async (context) => {
    const { edition, ana } = await attendedEdition();
    const request = await signatureRequest(edition.id);
    assert.match(request.fulfill_url, /\/sign\?token=/);
    const opened = await open(context, request.fulfill_url);
    if (opened === undefined) return;
    const { page } = opened;
    assert.equal(opened.status, 200);
    await page.getByRole('heading', { level: 1, name: edition.name }).waitFor();
    const text = await page.locator('main').innerText();
    assert.ok(text.includes('Marta Ferreira, Programme chair'), text);
    assert.ok(
      text.includes(`for ${edition.name.split(' ')[0]}`) || text.includes('asks for your signature'),
      text,
    );
    await expectAccessible(page);
    await screenshot(page, 'sign');

    // Signing with nothing drawn says so; clear and undo leave nothing to send either.
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Draw your signature or choose a PNG image first.' })
      .waitFor();
    await drawSignature(page);
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Draw your signature' }).waitFor();
    await drawSignature(page);
    await page.getByRole('button', { name: 'Clear' }).click();
    await drawSignature(page);
    await page.getByRole('button', { name: 'Sign', exact: true }).click();

    await page.getByRole('heading', { level: 2, name: 'Signed' }).waitFor();
    assert.deepEqual(opened.problems, []);
    assert.equal((await requestStatus(request.id))?.status, 'completed');

    // The stored signature is the drawing: a PNG data URL with ink on it.
    const [signature] = expectOk(
      await bench().t.get<Signature[]>(`/editions/${edition.id}/signatures`, { token: bench().owner.token }),
    );
    assert.ok(signature?.image_url.startsWith('data:image/png;base64,'), 'stored as data:image/png');
    const png = Buffer.from(signature.image_url.split(',')[1] ?? '', 'base64');
    const image = await loadImage(png);
    const { createCanvas } = await import('@napi-rs/canvas');
    const canvas = createCanvas(image.width, image.height);
    canvas.getContext('2d').drawImage(image, 0, 0);
    const pixels = canvas.getContext('2d').getImageData(0, 0, image.width, image.height).data;
    let inked = 0;
    for (let index = 3; index < pixels.length; index += 4) if ((pixels[index] ?? 0) > 0) inked += 1;
    assert.ok(inked > 200, `the drawing has ink (${inked} pixels)`);

    // On the certificate: the signatory's name under an image of the drawing's size.
    const certificate = await certificateOf(edition.id, ana);
    const pdf = await bench().t.app.inject({
      method: 'GET',
      url: `/certificates/${certificate.id}/pdf`,
      headers: { authorization: `Bearer ${ana.token}` },
    });
    assert.equal(pdf.statusCode, 200);
    const raw = pdf.rawPayload.toString('latin1');
    const images = [
      ...raw.matchAll(
        /\/Subtype \/Image[^>]*?\/Width (\d+)[^>]*?\/Height (\d+)|\/Subtype \/Image[^>]*?\/Height (\d+)[^>]*?\/Width (\d+)/g,
      ),
    ];
    const sizes = images.map((m) => (m[1] ? `${m[1]}x${m[2]}` : `${m[4]}x${m[3]}`));
    assert.ok(
      sizes.includes(`${image.width}x${image.height}`),
      `an image of ${image.width}x${image.height} in ${sizes}`,
    );
    const read = await readPdf(pdf.rawPayload);
    assert.ok(read.texts[0]?.join(' ').includes('Marta Ferreira'));
  });

  it('a signatory declines with a reason', async (context) => {
    const { edition } = await attendedEdition();
    const request = await signatureRequest(edition.id, 'Rui Costa');
    const opened = await open(context, request.fulfill_url);
    if (opened === undefined) return;
    const { page } = opened;
    await page.getByLabel('Reason').fill('I did not take part in this edition');
    await page.getByRole('button', { name: 'Decline to sign' }).click();
    await page.getByRole('heading', { level: 2, name: 'Declined' }).waitFor();
    assert.ok((await page.locator('main').innerText()).includes('I did not take part in this edition'));
    assert.deepEqual(await requestStatus(request.id), {
      status: 'denied',
      reason: 'I did not take part in this edition',
    });
    await expectAccessible(page);
    await screenshot(page, 'sign-declined');
    assert.deepEqual(opened.problems, []);
  });

  it('used, cancelled, expired and unknown links each get their own page', async (context) => {
    const { edition } = await attendedEdition();
    const cancelled = await signatureRequest(edition.id, 'Cancelled Person');
    expectOk(
      await bench().t.post(`/signature-requests/${cancelled.id}/cancel`, { token: bench().owner.token }),
    );
    const expired = await signatureRequest(edition.id, 'Late Person');
    await bench()
      .t.db.update(signatureRequests)
      .set({ expires_at: sql`now() - interval '1 minute'` })
      .where(eq(signatureRequests.id, expired.id));
    const used = await signatureRequest(edition.id, 'Quick Person');
    expectOk(
      await bench().t.post(`/signature-requests/fulfill?token=${used.token}`, {
        body: { image_url: 'https://signatures.example/quick.png' },
      }),
      201,
    );
    const cases = [
      { link: used.fulfill_url, status: 200, heading: 'Signed', shot: 'sign-used' },
      { link: cancelled.fulfill_url, status: 200, heading: 'Request cancelled', shot: undefined },
      { link: expired.fulfill_url, status: 410, heading: 'Link expired', shot: 'sign-expired' },
      { link: `/sign?token=${UNKNOWN_TOKEN}`, status: 404, heading: 'Link not valid', shot: undefined },
      { link: '/sign', status: 404, heading: 'Link not valid', shot: undefined },
    ];
    for (const expected of cases) {
      const opened = await open(context, expected.link);
      if (opened === undefined) return;
      assert.equal(opened.status, expected.status, expected.link);
      await opened.page.getByRole('heading', { name: expected.heading }).first().waitFor();
      assert.equal(await opened.page.locator('#sign-form').count(), 0, 'no form to sign');
      await expectAccessible(opened.page);
      if (expected.shot !== undefined) await screenshot(opened.page, expected.shot);
      assert.deepEqual(opened.problems, []);
    }
  });

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
    await page.getByRole('status').filter({ hasText: 'Checked in.' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'badge-staff');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Already checked in at' }).waitFor();
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
  });

  it('the checkout page turns from pending to paid while open, with a link to the badge', async (context) => {
    const registration = await startCheckout('Bruno Lima');
    // Mercado Pago appends its own view of the payment to the return address; anyone can type
    // that, so the page goes by the service's records only.
    const returned = `/checkout/${registration.intent_id}?collection_status=approved&status=approved&external_reference=${registration.intent_id}&payment_id=123`;
    const opened = await open(context, returned);
    if (opened === undefined) return;
    const { page } = opened;
    assert.equal(opened.status, 200);
    await page.getByText('Payment pending').waitFor();
    assert.ok((await page.locator('main').innerText()).includes('R$'), 'the amount in its currency');
    await expectAccessible(page);
    await screenshot(page, 'checkout-pending');

    await bench().sim.pay(h.preferenceOf(registration.intent_id).id, 'approved');
    await page.getByText('Paid', { exact: true }).waitFor({ timeout: 20_000 });
    const badge = page.getByRole('link', { name: 'Open your badge' });
    const href = await badge.getAttribute('href');
    assert.match(href ?? '', /\/b\/[A-Za-z0-9_-]{43}$/);
    await expectAccessible(page);
    await screenshot(page, 'checkout-paid');
    // The link opens the buyer's badge.
    await page.goto(at(href ?? ''));
    await page.getByRole('heading', { level: 1, name: 'Bruno Lima' }).waitFor();
    assert.deepEqual(opened.problems, []);
  });

  it('a refused payment shows as failed, with the seat still held', async (context) => {
    const registration = await startCheckout();
    await bench().sim.pay(h.preferenceOf(registration.intent_id).id, 'rejected');
    const intent = await h.intent(registration.intent_id);
    assert.ok(['rejected', 'pending'].includes(intent.status));
    const opened = await open(context, `/checkout/${registration.intent_id}`);
    if (opened === undefined) return;
    await opened.page.getByText('Payment not completed').waitFor({ timeout: 20_000 });
    assert.ok((await opened.page.locator('main').innerText()).includes('Your seat stays held until'));
    await expectAccessible(opened.page);
    await screenshot(opened.page, 'checkout-failed');
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
  });

  it('every page speaks en, pt-BR and es, and stays accessible in each', async (context) => {
    const { edition, ana } = await attendedEdition();
    const badge = await f.badgeUrlOf(edition.id, ana.id);
    const certificate = await certificateOf(edition.id, ana);
    const request = await signatureRequest(edition.id);
    const registration = await startCheckout();
    const pages = {
      badge,
      verify: certificate.verify_url,
      sign: request.fulfill_url,
      checkout: `/checkout/${registration.intent_id}`,
      badges: `/users/${ana.id}/badges`,
    };
    // What a reader of each language sees on each page.
    const expected: Record<string, Record<keyof typeof pages, string>> = {
      'en-US': {
        badge: 'Valid badge',
        verify: 'Valid certificate',
        sign: 'Your signature',
        checkout: 'Payment pending',
        badges: 'Current and upcoming',
      },
      'pt-BR': {
        badge: 'Crachá válido',
        verify: 'Certificado válido',
        sign: 'Sua assinatura',
        checkout: 'Pagamento pendente',
        badges: 'Atuais e próximos',
      },
      es: {
        badge: 'Credencial válida',
        verify: 'Certificado válido',
        sign: 'Su firma',
        checkout: 'Pago pendiente',
        badges: 'Actuales y próximas',
      },
    };
    for (const [locale, words] of Object.entries(expected)) {
      for (const [name, link] of Object.entries(pages) as Array<[keyof typeof pages, string]>) {
        const opened = await open(context, link, locale);
        if (opened === undefined) return;
        const lang = await opened.page.locator('html').getAttribute('lang');
        assert.equal(lang, locale === 'en-US' ? 'en' : locale, `${name} in ${locale}`);
        await opened.page.getByText(words[name]).first().waitFor();
        await expectAccessible(opened.page);
        if (locale !== 'en-US' && (name === 'sign' || name === 'badge')) {
          await screenshot(opened.page, `${name}-${locale}`);
        }
        assert.deepEqual(opened.problems, [], `${name} in ${locale}`);
      }
    }
  });
});
