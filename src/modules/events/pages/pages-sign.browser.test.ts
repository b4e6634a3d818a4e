/**
 * The signing page in a browser (pages.browser.fixtures.ts): a signatory draws with the mouse and
 * signs (the request is completed, the stored PNG has ink, and the signature is on the certificate
 * PDF) or declines with a reason; used, cancelled, expired and unknown links each get their own
 * page. axe-core finds nothing serious or critical on any of them, and the CSP refuses nothing.
 * `SCREENSHOTS=docs/screenshots` also saves each page at phone and desktop width (docs/features.md,
 * "People-facing pages").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadImage } from '@napi-rs/canvas';
import { eq, sql } from 'drizzle-orm';
import { expectOk } from '../../../../test/assertions.ts';
import { screenshot } from '../../../../test/browser.ts';
import { signToken } from '../../../../test/harness.ts';
import { readPdf } from '../../../../test/pdf.ts';
import type { Signature } from '../signatures/signatures.schemas.ts';
import { signatureRequests } from '../signatures/signatures.table.ts';
import { UNKNOWN_TOKEN, usePagesInBrowser } from './pages.browser.fixtures.ts';

describe('the signing page in a browser', () => {
  const {
    bench,
    open,
    expectAccessible,
    drawSignature,
    signatureRequest,
    requestStatus,
    attendedEdition,
    certificateOf,
  } = usePagesInBrowser();

  it('a signatory draws a signature with the mouse and signs; it is on the certificate PDF', async (context) => {
    const { edition, ana } = await attendedEdition();
    // The requester's token once carried their name: the page names them, not their e-mail.
    const named = await signToken(bench().owner, { claims: { name: 'Olga Pereira' } });
    expectOk(await bench().t.get('/events/mine', { token: named }));
    const request = await signatureRequest(edition.id);
    assert.match(request.fulfill_url, /\/sign\?token=/);
    const opened = await open(context, request.fulfill_url);
    if (opened === undefined) return;
    const { page } = opened;
    assert.equal(opened.status, 200);
    await page.getByRole('heading', { level: 1, name: edition.name }).waitFor();
    const text = await page.locator('main').innerText();
    assert.ok(text.includes('Marta Ferreira, Programme chair'), text);
    assert.ok(text.includes('Olga Pereira, for '), text);
    assert.ok(!text.includes(bench().owner.email), 'the requester by name, not e-mail');
    // The upload's limit in words a signatory knows.
    assert.ok(text.includes('a small PNG image (at most 256 KB)'), text);
    assert.ok(!text.includes('KiB'), text);
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
    // A PNG over the limit: choosing it says so, and so does pressing Sign afterwards.
    await page
      .getByLabel('Or upload a small PNG image')
      .setInputFiles({ name: 'scan.png', mimeType: 'image/png', buffer: Buffer.alloc(300 * 1024) });
    const tooLarge = 'This image is too large: it must be at most 256 KB. Choose a smaller PNG image.';
    await page.getByRole('alert').filter({ hasText: tooLarge }).waitFor();
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    assert.equal(await page.locator('#sign-error').innerText(), tooLarge, 'not "draw your signature first"');
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
    assert.deepEqual(opened.consoleErrors, []);
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
    assert.deepEqual(opened.consoleErrors, []);
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
      assert.deepEqual(opened.consoleErrors, []);
    }
  });
});
