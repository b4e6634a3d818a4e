/**
 * The development mailbox in Chromium (docs/mail.md): the list shows a kept mail, and its page shows
 * the mail's HTML in a frame with its inline image loaded from the attachment, with no console
 * error and no Content Security Policy violation on either page or in the frame.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sharedBrowser } from '../../../../test/browser.ts';
import { createTestApp, type TestApp } from '../../../../test/harness.ts';
import { queue, useSimpleRenderer, waitForRow } from '../mail.fixtures.ts';

describe('the development mailbox in a browser', () => {
  const browsers = sharedBrowser();
  let t: TestApp;
  let id: string;
  before(async () => {
    t = await createTestApp({ JOBS_POLL_MS: '50' }, { listen: true });
    useSimpleRenderer(t);
    [id] = (await queue(t, {
      to: 'ana@example.com',
      data: { subject: 'Welcome aboard', body: 'See you' },
    })) as [string];
    await waitForRow(t.db, id, (row) => row.status === 'sent');
  });
  after(async () => {
    await browsers.close();
    await t?.close();
  });

  it('lists the mail and shows it, with its inline image, without a console error', async (context) => {
    const browser = await browsers.get(context);
    if (browser === undefined) return;
    const page = await (await browser.newContext()).newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /Refused to|Content Security Policy/.test(message.text())) {
        problems.push(`${message.location().url}: ${message.text()}`);
      }
    });
    page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));

    await page.goto(`${t.baseUrl}/dev/mail`);
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');
    await page.getByRole('link', { name: 'Welcome aboard' }).click();
    await page.waitForURL(`${t.baseUrl}/dev/mail/${id}`);
    await page.getByRole('heading', { name: 'Welcome aboard' }).waitFor();
    const frame = page.frameLocator('iframe.mail-frame');
    await frame.getByText('See you').waitFor();
    const image = frame.locator('img[alt="logo"]');
    await image.waitFor();
    assert.equal(
      await image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth),
      1,
      'the inline image loaded from its attachment',
    );
    assert.deepEqual(problems, []);
  });
});
