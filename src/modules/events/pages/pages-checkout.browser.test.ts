/**
 * The checkout page in a browser (pages.browser.fixtures.ts), with the Mercado Pago simulator
 * behind it: it turns from pending to paid while open and links to the badge; a refused payment
 * shows as failed with the seat still held. axe-core finds nothing serious or critical.
 * `SCREENSHOTS=docs/screenshots` also saves each page at phone and desktop width (docs/features.md, "People-facing pages").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { screenshot } from '../../../../test/browser.ts';
import { usePagesInBrowser } from './pages.browser.fixtures.ts';

describe('the checkout page in a browser', () => {
  const { bench, h, at, open, expectAccessible, startCheckout } = usePagesInBrowser();

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
});
