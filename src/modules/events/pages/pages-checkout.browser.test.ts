/**
 * The checkout page in a browser (pages.browser.fixtures.ts), with the Mercado Pago simulator
 * behind it: it turns from pending to paid while open and links to the badge; a refused payment
 * shows as failed with the seat still held, and its fresh checkout (a new intent for the same
 * registration) is paid from the page it leads to. axe-core finds nothing serious or critical.
 * `SCREENSHOTS=docs/screenshots` also saves each page at phone and desktop width (docs/features.md,
 * "People-facing pages").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectOk } from '../../../../test/assertions.ts';
import { screenshot } from '../../../../test/browser.ts';
import { eventually } from '../../../../test/subscriber.ts';
import type { Registration } from '../registrations/registrations.schemas.ts';
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
    assert.deepEqual(opened.consoleErrors, []);
  });

  it('a refused payment shows as failed, with the seat still held and a fresh checkout for it', async (context) => {
    const registration = await startCheckout();
    await bench().sim.pay(h.preferenceOf(registration.intent_id).id, 'rejected');
    const intent = await h.intent(registration.intent_id);
    assert.ok(['rejected', 'pending'].includes(intent.status));
    const opened = await open(context, `/checkout/${registration.intent_id}`);
    if (opened === undefined) return;
    const { page } = opened;
    await page.getByText('Payment not completed').waitFor({ timeout: 20_000 });
    const text = await page.locator('main').innerText();
    assert.ok(text.includes('Your seat stays held until'));
    // The edition's dates, its venue when it has one, and the payment reference the payer quotes.
    for (const expected of ['Dates', 'Payment reference', registration.intent_id])
      assert.ok(text.includes(expected), expected);
    await expectAccessible(page);
    await screenshot(page, 'checkout-failed');

    // A fresh checkout for the same registration: a new intent's page, with the link to pay it.
    await page.getByRole('button', { name: 'Try again with a new payment link' }).click();
    await page.getByText('Payment pending').waitFor();
    const fresh = /\/checkout\/([0-9a-f-]{36})$/.exec(new URL(page.url()).pathname)?.[1] ?? '';
    assert.ok(fresh !== '' && fresh !== registration.intent_id, 'a new intent');
    const again = await h.intent(fresh);
    assert.equal(again.status, 'pending');
    const pay = page.getByRole('link', { name: 'Pay with Mercado Pago' });
    assert.match((await pay.getAttribute('href')) ?? '', new RegExp(`pref_id=${h.preferenceOf(fresh).id}$`));
    await expectAccessible(page);
    // Paying it confirms the same registration: the page turns to paid.
    await bench().sim.pay(h.preferenceOf(fresh).id, 'approved');
    await page.getByText('Paid', { exact: true }).waitFor({ timeout: 20_000 });
    await h.registrationWhen(registration.id, 'confirmed');
    // The first, failed payment's page now leads to the one that replaced it.
    await page.goto(at(`/checkout/${registration.intent_id}`));
    await page.getByText('Payment not completed').waitFor();
    assert.equal(
      await page.getByRole('link', { name: 'See that payment' }).getAttribute('href'),
      `/checkout/${fresh}`,
    );
    assert.equal(await page.getByRole('button', { name: 'Try again with a new payment link' }).count(), 0);
    assert.deepEqual(opened.consoleErrors, []);
    assert.deepEqual(opened.problems, []);
  });

  it('a fresh checkout that cannot be made says so on a page, and in the envelope to API clients', async () => {
    const { event, edition, ticketType } = await h.paidEdition();
    const buyer = await bench().t.actor('buyer');
    const registration = expectOk(
      await bench().t.post<Registration & { intent_id: string }>(`/editions/${edition.id}/registrations`, {
        token: buyer.token,
        body: { ticket_type_id: ticketType.id },
      }),
      201,
      'events',
    );
    await bench().sim.pay(h.preferenceOf(registration.intent_id).id, 'rejected');
    await eventually(
      async () => ((await h.intent(registration.intent_id)).status === 'rejected' ? true : undefined),
      'the refusal is recorded',
    );
    // The event stops selling: no fresh checkout can be made for the held seat.
    const unlinked = await bench().t.delete(`/events/${event.id}/payments`, { token: bench().owner.token });
    assert.equal(unlinked.status, 200);
    const url = `/checkout/${registration.intent_id}/retry`;
    const page = await bench().t.app.inject({
      method: 'POST',
      url,
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    assert.equal(page.statusCode, 409);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.ok(page.body.includes('No new payment link yet'));
    assert.ok(page.body.includes(`<a href="/checkout/${registration.intent_id}">Back to your payment</a>`));
    const api = await bench().t.post(url, {});
    assert.equal(api.status, 409);
    assert.equal((api.body as { error: { reason: string } }).error.reason, 'payments_not_linked');
  });
});
