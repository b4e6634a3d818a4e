/**
 * The console's "Get paid" and "Integrate" screens in Chromium (docs/console.md), with the Mercado
 * Pago simulator behind the seller connection and a local webhook subscriber: signed in through the
 * test OpenID provider, an organiser creates a wallet, sets its sandbox and fee, connects a seller
 * on the simulator's consent page (refused once, which the screen explains, then allowed) and comes
 * back to the console showing it connected, links the wallet to the event; then creates a webhook
 * endpoint, sees its secret once, sends a test event and sees the delivery with its attempt,
 * pauses, rotates, retries and deletes. axe-core, 360 px, no console error or CSP refusal, and
 * every request an operation of `/docs/openapi.json`. `SCREENSHOTS=docs/screenshots` saves the
 * screens as `console-get-paid*.png` and `console-integrate*.png`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type MercadoPagoSimulator, startMercadoPagoSimulator } from '../../../test/mercadopago-simulator.ts';
import { type Subscriber, startSubscriber } from '../../../test/subscriber.ts';
import { SIM_CLIENT, simulatorEnv } from '../payments/payments.fixtures.ts';
import { useConsoleInBrowser } from './console.browser.fixtures.ts';

describe('the console’s Get paid and Integrate screens in a browser', () => {
  let sim: MercadoPagoSimulator;
  let subscriber: Subscriber;
  before(async () => {
    sim = await startMercadoPagoSimulator(SIM_CLIENT);
    subscriber = await startSubscriber();
  });
  after(async () => {
    await subscriber?.close();
    await sim?.close();
  });
  // The app's PUBLIC_BASE_URL is its own listening address (the harness sets it after `env`), so the
  // provider's callback reaches it from the browser.
  const { openConsole, signIn, checkScreen, undocumentedOf, ...bench } = useConsoleInBrowser(() =>
    simulatorEnv(sim),
  );
  before(() => {
    bench.idp().addAccount({ id: 'olga-organiser', email: 'olga@example.com', name: 'Olga Organiser' });
  });

  it('connects a seller, links the wallet, and manages a webhook endpoint with its deliveries', async (context) => {
    const opened = await openConsole(context);
    if (opened === undefined) return;
    const { page, requests, problems, refusals } = opened;
    const origin = bench.origin();
    await signIn(page, 'olga-organiser');

    // 1. An event, and its "Get paid" screen from the event's navigation.
    await page.getByRole('heading', { level: 1, name: 'Your events' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Tech Week');
    await page.getByLabel('Short name for addresses').fill('tech-week');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { level: 1, name: /Tech Week/ }).waitFor();
    const eventId = new URL(page.url()).pathname.split('/')[3]!;
    // No link yet is the API's 404, which the screen reads as "none".
    refusals.add(`404 /events/${eventId}/payments`);
    await page.getByRole('link', { name: 'Get paid' }).click();
    await page.getByRole('heading', { level: 1, name: 'Get paid: Tech Week' }).waitFor();
    const link = page.getByRole('region', { name: 'Payment link' });
    const wallets = page.getByRole('region', { name: 'Your wallets' });
    await link.getByText('No wallet is linked').waitFor();
    await wallets.getByText('You have no wallet yet.').waitFor();

    // 2. A wallet, in sandbox, with a 2.5 % fee.
    await wallets.getByLabel('Wallet name').fill('Tech Week tickets');
    await wallets.getByRole('button', { name: 'Create' }).click();
    const wallet = wallets.getByRole('listitem').filter({ hasText: 'Tech Week tickets' });
    await wallet.getByRole('heading', { name: 'Tech Week tickets' }).waitFor();
    const sandbox = wallet.getByRole('checkbox', { name: /Sandbox/ });
    await sandbox.click();
    // Saved when the box is usable again and still ticked.
    await wallet.locator('input[type=checkbox]:checked:not(:disabled)').waitFor();
    await wallet.getByLabel('Platform fee (%)').fill('2.5');
    await wallet.getByRole('button', { name: 'Save the fee' }).click();
    await wallet.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await wallet.getByText('No Mercado Pago account connected.').waitFor();
    await checkScreen(page, 'get-paid');

    // 3. The seller: to the provider's consent page and back to this screen. Refused first: the
    //    screen says why, in words; then allowed: connected.
    sim.denyNext();
    await wallet.getByRole('button', { name: 'Connect a Mercado Pago account to Tech Week tickets' }).click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'error');
    assert.equal(new URL(page.url()).searchParams.get('error'), 'access_denied');
    await page
      .getByRole('alert')
      .filter({
        hasText: 'The Mercado Pago account was not connected (permission was refused on Mercado Pago).',
      })
      .waitFor();
    await wallet.getByText('No Mercado Pago account connected.').waitFor();
    await wallet.getByRole('button', { name: 'Connect a Mercado Pago account to Tech Week tickets' }).click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'connected');
    const back = new URL(page.url());
    assert.equal(`${back.origin}${back.pathname}`, `${origin}/console/events/${eventId}/payments`);
    assert.equal(back.searchParams.get('flow'), 'seller');
    await page.getByRole('status').filter({ hasText: 'The Mercado Pago account is connected.' }).waitFor();
    const connected = page.getByRole('region', { name: 'Your wallets' }).getByRole('listitem').filter({
      hasText: 'Tech Week tickets',
    });
    await connected.getByText('Connected', { exact: true }).waitFor();

    // 4. Link the wallet and its seller to the event.
    const linkAgain = page.getByRole('region', { name: 'Payment link' });
    await linkAgain.getByRole('button', { name: 'Link the wallet' }).click();
    await linkAgain.getByRole('status').filter({ hasText: 'The wallet is linked.' }).waitFor();
    await linkAgain.getByText('Sandbox (test payments)').waitFor();
    assert.match(await linkAgain.innerText(), /Wallet\s+Tech Week tickets/);
    await checkScreen(page, 'get-paid-linked');

    // What the API now holds (read with the browser's own session, as the console would).
    const read = <T>(path: string) =>
      page.evaluate(
        async (at) => ((await (await fetch(at)).json()) as { data: unknown }).data,
        path,
      ) as Promise<T>;
    const held = await read<{ wallet_id: string; sandbox: boolean }>(`/events/${eventId}/payments`);
    assert.equal(held.sandbox, true);
    const walletHeld = await read<{ fee_bps: number; name: string }>(`/wallets/${held.wallet_id}`);
    assert.deepEqual(
      { fee_bps: walletHeld.fee_bps, name: walletHeld.name },
      { fee_bps: 250, name: 'Tech Week tickets' },
    );

    // 5. The wallet's webhooks: an endpoint at the local subscriber, its secret shown once.
    await connected.getByRole('link', { name: 'Webhooks of Tech Week tickets' }).click();
    await page.getByRole('heading', { level: 1, name: 'Integrate: Tech Week tickets' }).waitFor();
    const endpoints = page.getByRole('region', { name: 'Endpoints' });
    await endpoints.getByText('No endpoints yet.').waitFor();
    await endpoints.getByText('New endpoint').click();
    await endpoints.getByLabel('Name', { exact: true }).fill('Order service');
    await endpoints.getByLabel('Address (URL)').fill(`${subscriber.url}/hooks`);
    await endpoints.getByRole('button', { name: 'Create' }).click();
    const secretBox = page.getByRole('region', { name: 'Signing secret of Order service' });
    await secretBox.getByText('you will not see it again').waitFor();
    const secret = await secretBox.getByLabel('Signing secret').inputValue();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    await secretBox.getByRole('button', { name: 'Copy' }).click();
    await secretBox
      .getByRole('status')
      .filter({ hasText: /Copied\.|Select the secret/ })
      .waitFor();
    await checkScreen(page, 'integrate-secret');
    await secretBox.getByRole('button', { name: 'Done' }).click();
    assert.equal(await page.getByLabel('Signing secret').count(), 0, 'the secret is gone for good');

    // 6. A test event: delivered, with its attempt's status, answer and time.
    const endpoint = endpoints
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Order service' }) });
    await endpoint.getByRole('button', { name: 'Send a test event' }).click();
    await endpoint.getByRole('status').filter({ hasText: 'Test event sent' }).waitFor();
    const [received] = await subscriber.waitFor(1);
    assert.equal(received?.path, '/hooks');
    assert.match(String(received?.headers['webhook-signature']), /^v1,/);
    const deliveries = endpoint.getByRole('region', { name: 'Deliveries to Order service' });
    await deliveries.getByText('Delivered', { exact: true }).waitFor({ timeout: 15_000 });
    await deliveries.getByText('Attempts', { exact: true }).click();
    const attempt = deliveries.locator('.attempts li').first();
    await attempt.waitFor();
    const shown = await attempt.innerText();
    assert.match(shown, /Attempt\s+1/);
    assert.match(shown, /Status\s+200/);
    assert.match(shown, /Answer\s+ok/);
    assert.match(shown, /Time\s+\d+ ms/);

    // 7. Pause and resume, rotate the secret (shown once again), retry the delivery.
    await endpoint.getByRole('button', { name: 'Pause' }).click();
    await endpoint.getByText('Paused', { exact: true }).waitFor();
    await endpoint.getByRole('button', { name: 'Resume' }).click();
    await endpoint.getByText('Active', { exact: true }).waitFor();
    await endpoint.getByRole('button', { name: 'Rotate the secret' }).click();
    const rotated = await page
      .getByRole('region', { name: 'Signing secret of Order service' })
      .getByLabel('Signing secret')
      .inputValue();
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, secret);
    await page.getByRole('button', { name: 'Done' }).click();
    await deliveries.getByRole('button', { name: /^Retry now/ }).click();
    await subscriber.waitFor(2);
    await deliveries.getByText(/2 attempts/).waitFor({ timeout: 15_000 });
    await checkScreen(page, 'integrate');

    // 8. Delete, after a confirmation.
    await endpoint.getByRole('button', { name: 'Delete' }).click();
    await endpoint.getByRole('button', { name: 'Yes, delete' }).click();
    await endpoints.getByText('No endpoints yet.').waitFor();

    assert.deepEqual(problems, [], 'no failed request, console error or CSP refusal');
    assert.deepEqual(undocumentedOf(requests), [], 'every request is an operation of /docs/openapi.json');
    for (const used of ['POST /providers/mercadopago/connect', `PUT /events/${eventId}/payments`])
      assert.ok(requests.includes(used), used);
  });
});
