/**
 * The docs page as a person opens it: over plain HTTP at an address that is not loopback (a LAN
 * or container address), where a browser treats the page as insecure and applies every directive
 * of its Content-Security-Policy. Chromium maps the made-up host to the test server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { browserOrSkip } from '../../test/browser.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

describe('the docs page in a browser', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  it('renders at http://<any address>:<port>/docs, every asset loaded, nothing blocked', async (context) => {
    const browser = await browserOrSkip(context, { 'convene.test': '127.0.0.1' });
    if (browser === undefined) return;
    try {
      const page = await browser.newPage();
      const failed: string[] = [];
      page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
      page.on('response', (response) => {
        if (response.status() >= 400) failed.push(`${response.url()}: ${response.status()}`);
      });
      // A script, style sheet, font or connection the policy refused. (swagger-ui also sets one
      // inline style, which the policy blocks without harm to the page.)
      page.on('console', (message) => {
        if (/Refused to (load|execute|connect|apply a stylesheet)/.test(message.text())) {
          failed.push(`console: ${message.text()}`);
        }
      });
      await page.goto(`http://convene.test:${port}/docs`);
      await page
        .locator('.swagger-ui .info .title')
        .filter({ hasText: 'Convene API' })
        .waitFor({ timeout: 60_000 });
      await page
        .locator('.opblock-summary-path', { hasText: '/events/{event_id}/editions' })
        .first()
        .waitFor();
      assert.deepEqual(failed, []);
    } finally {
      await browser.close();
    }
  });
});
