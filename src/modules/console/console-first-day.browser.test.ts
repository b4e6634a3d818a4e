/**
 * An organiser's first day in the console, end to end in Chromium (docs/console.md, "Tests"), signed
 * in through the test OpenID provider, with the Mercado Pago simulator as the provider: Olga creates
 * an event, an edition and a paid ticket type; connects her seller account on the simulator's
 * consent page and links the wallet; publishes; invites Sam as staff. A buyer, in a browser of her
 * own, signs in, registers, pays on the simulator's page and lands on the checkout page as paid.
 * Olga sees the sale and the revenue, downloads the CSV (parsed here), refunds it after a
 * confirmation and finds the refund mail in the mail log. Sam, signed in, sees the registrations
 * and no sales. Every request either browser made at the service is an operation of the document.
 * The screens' own details (filters, partial refunds, axe-core and 360 px) are the other console
 * tests'; here only the staff member's registrations screen is checked so (the others do it for
 * an owner's).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { until } from '../events/registrations/checkout.fixtures.ts';
import { parseCsv } from '../events/registrations/sales.fixtures.ts';
import { brl, literally, useSellingConsole } from './console.browser.fixtures.ts';

describe('an organiser’s first day in the console', () => {
  const {
    bench,
    origin: appOrigin,
    openConsole,
    signIn,
    checkScreen,
    undocumentedOf,
    visit,
    reload,
    mailLogOf,
  } = useSellingConsole([
    { id: 'olga-organiser', email: 'olga@example.com', name: 'Olga Organiser' },
    { id: 'sam-staff', email: 'sam@example.com', name: 'Sam Staff' },
    { id: 'bia-buyer', email: 'bia@example.com', name: 'Bia Compradora' },
  ]);

  it('sets up, connects the seller, sells to a buyer who pays, refunds, and keeps staff from the money', async (context) => {
    const organiser = await openConsole(context);
    if (organiser === undefined) return;
    const { page, refusals } = organiser;
    const { t, sim } = bench();
    const origin = appOrigin();
    await signIn(page, 'olga-organiser');

    // 1. An event, an edition, a paid ticket type.
    await page.getByRole('heading', { level: 1, name: 'Your events' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Forró Fest');
    await page.getByLabel('Short name for addresses').fill('forro-fest');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { level: 1, name: /Forró Fest/ }).waitFor();
    const eventId = new URL(page.url()).pathname.split('/')[3]!;
    const editions = page.getByRole('region', { name: 'Editions' });
    await editions.getByText('New edition').click();
    await editions.getByLabel('Name', { exact: true }).fill('Forró Fest 2027');
    await editions.getByLabel('Short name for addresses').fill('2027');
    await editions.getByLabel('Starts').fill('2027-06-20T18:00');
    await editions.getByLabel('Ends').fill('2027-06-21T02:00');
    await editions.getByRole('button', { name: 'Create' }).click();
    await editions.getByRole('link', { name: 'Forró Fest 2027' }).click();
    await page.getByRole('heading', { level: 1, name: /Forró Fest 2027/ }).waitFor();
    const editionPath = new URL(page.url()).pathname;
    const editionId = editionPath.split('/')[5]!;
    const tickets = page.getByRole('region', { name: 'Ticket types' });
    await tickets.getByText('New ticket type').click();
    await tickets.getByLabel('Name', { exact: true }).fill('Pista');
    await tickets.getByLabel('Paid').check();
    await tickets.getByLabel('Price').fill('80.00');
    await tickets.getByLabel('Currency').selectOption('BRL');
    await tickets.getByRole('button', { name: 'Create' }).click();
    await tickets.getByText('Pista').waitFor();

    // 2. Get paid: a sandbox wallet, its seller connected on the provider's consent page, linked.
    await page.getByRole('link', { name: 'Forró Fest', exact: true }).click();
    // No link yet is the API's 404, which the screen reads as "none".
    refusals.add(`404 /events/${eventId}/payments`);
    await page.getByRole('link', { name: 'Get paid' }).click();
    await page.getByRole('heading', { level: 1, name: 'Get paid: Forró Fest' }).waitFor();
    const wallets = page.getByRole('region', { name: 'Your wallets' });
    await wallets.getByLabel('Wallet name').fill('Forró tickets');
    await wallets.getByRole('button', { name: 'Create' }).click();
    const wallet = wallets.getByRole('listitem').filter({ hasText: 'Forró tickets' });
    await wallet.getByRole('checkbox', { name: /Sandbox/ }).click();
    await wallet.locator('input[type=checkbox]:checked:not(:disabled)').waitFor();
    await wallet.getByRole('button', { name: 'Connect a Mercado Pago account to Forró tickets' }).click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'connected');
    await page.getByRole('status').filter({ hasText: 'The Mercado Pago account is connected.' }).waitFor();
    const link = page.getByRole('region', { name: 'Payment link' });
    await link.getByRole('button', { name: 'Link the wallet' }).click();
    await link.getByRole('status').filter({ hasText: 'The wallet is linked.' }).waitFor();

    // 3. Publish the edition and the event; invite Sam as staff.
    await visit(page, editionPath);
    await page.getByRole('button', { name: 'Publish the edition' }).click();
    await page.getByRole('heading', { level: 1, name: /Forró Fest 2027 Published/ }).waitFor();
    await page.getByRole('link', { name: 'Forró Fest', exact: true }).click();
    await page.getByRole('button', { name: 'Publish the event' }).click();
    await page.getByRole('heading', { level: 1, name: /Forró Fest Published/ }).waitFor();
    const invitations = page.getByRole('region', { name: 'Invitations' });
    await invitations.getByText('Invite someone').click();
    await invitations.getByLabel('E-mail', { exact: true }).fill('sam@example.com');
    await invitations.getByLabel('Role').selectOption('staff');
    await invitations.getByRole('button', { name: 'Send the invitation' }).click();
    await invitations.getByText('sam@example.com').waitFor();

    // 4. The buyer, in a browser of her own: signed in, registers, pays on the provider's page.
    const buyer = await openConsole(context);
    if (buyer === undefined) return;
    const ticketTypeId = (
      await t.get<Array<{ id: string; name: string }>>(`/editions/${editionId}/ticket-types`)
    ).body.data.find((type) => type.name === 'Pista')?.id;
    assert.ok(ticketTypeId !== undefined, 'the ticket type Olga created');
    await signIn(buyer.page, 'bia-buyer');
    // With her session, as an event's own site would register her (the console has no buyer screen).
    const registered = (await buyer.page.evaluate(
      async ([edition, ticket]) => {
        const answer = await fetch(`/editions/${edition}/registrations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-convene-csrf': '1' },
          body: JSON.stringify({ ticket_type_id: ticket }),
        });
        return { status: answer.status, body: await answer.json() };
      },
      [editionId, ticketTypeId],
    )) as { status: number; body: { data: { id: string; status: string; checkout_url: string } } };
    assert.equal(registered.status, 201);
    assert.equal(registered.body.data.status, 'pending_payment');
    // `checkout_url` is the provider's payment page; paid, it sends her back to the checkout page.
    assert.ok(registered.body.data.checkout_url.startsWith(sim.url), 'the provider’s own page');
    await buyer.page.goto(registered.body.data.checkout_url);
    await buyer.page.getByRole('heading', { name: 'Mercado Pago simulator' }).waitFor();
    await buyer.page.getByRole('button', { name: 'Approve the payment' }).click();
    await buyer.page.waitForURL((url) => url.origin === origin && url.pathname.startsWith('/checkout/'));
    await buyer.page.getByText('Paid', { exact: true }).waitFor({ timeout: 20_000 });

    // 5. Olga sees the sale and the revenue.
    await visit(page, `${editionPath}/sales`);
    await page.getByRole('heading', { level: 1, name: 'Sales summary' }).waitFor();
    await until(
      async () => {
        await reload(page);
        await page.locator('#sales-counts').waitFor();
        return page.locator('#sales-counts').innerText();
      },
      (text) => /Sold\s+1 \(1 paid, 0 free\)/.test(text),
      'one sale',
    );
    const figures = await page.getByRole('region', { name: /./ }).first().innerText();
    assert.match(figures, new RegExp(`Revenue\\s+${literally(brl(8000))}`));

    // 6. The registrations, and their CSV as the browser downloads it.
    await page.getByRole('link', { name: 'Registrations' }).click();
    await page.getByRole('heading', { level: 1, name: 'Registrations' }).waitFor();
    const list = page.getByRole('region', { name: /./ }).filter({ has: page.getByLabel('Status') });
    const bia = list.locator('ul.registrations > li').filter({ hasText: 'Bia Compradora' });
    await bia.waitFor();
    assert.match(await bia.innerText(), new RegExp(`Confirmed[\\s\\S]*${literally(brl(8000))}`));
    const href =
      (await list.getByRole('link', { name: 'Download these registrations (CSV)' }).getAttribute('href')) ??
      '';
    const csv = parseCsv((await page.evaluate(async (at) => (await fetch(at)).text(), href)) as string);
    const [header = [], ...rows] = csv;
    assert.equal(rows.length, 1);
    const column = (name: string) => rows[0]?.[header.indexOf(name)];
    assert.deepEqual(
      { email: column('email'), status: column('status'), amount: column('amount_cents') },
      { email: 'bia@example.com', status: 'confirmed', amount: '8000' },
    );

    // 7. Refunded after a confirmation; the refund mail is in the event's mail log.
    await list.getByRole('button', { name: 'Refund Bia Compradora' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`Refund ${brl(8000)} to Bia Compradora?`).waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'Refunded.' }).waitFor();
    // Refunded once the provider's notification is recorded; the list follows.
    await until(
      async () => {
        await page.getByRole('button', { name: 'Search' }).click();
        return bia.innerText();
      },
      (text) => /Refunded/.test(text),
      'the registration refunded',
    );
    await visit(page, `/console/events/${eventId}`);
    const mails = await mailLogOf(page, 'refund_issued', 1);
    assert.match(await mails.first().innerText(), /Refund issued · To: bia@example\.com/);

    // 8. Sam, invited as staff, signs in: the event is theirs to see, the money is not.
    const staff = await openConsole(context);
    if (staff === undefined) return;
    await signIn(staff.page, 'sam-staff');
    await staff.page.getByRole('link', { name: 'Forró Fest' }).click();
    await staff.page.getByRole('link', { name: 'Forró Fest 2027' }).click();
    await staff.page.getByRole('link', { name: 'Registrations' }).click();
    await staff.page.locator('ul.registrations > li').filter({ hasText: 'Bia Compradora' }).waitFor();
    assert.equal(await staff.page.getByRole('link', { name: 'Sales' }).count(), 0, 'no way to the sales');
    assert.equal(await staff.page.getByRole('button', { name: /^Refund|^Cancel/ }).count(), 0);
    assert.doesNotMatch(await staff.page.locator('ul.registrations').innerText(), /R\$/);
    await checkScreen(staff.page, 'registrations-staff');
    // The sales screen opened by its address says whose it is, and asks the API nothing.
    await visit(staff.page, `${editionPath}/sales`);
    await staff.page.getByText('Sales are shown to the event’s owners and admins.').waitFor();
    assert.ok(!staff.requests.includes(`GET /editions/${editionId}/sales`), 'no request for the sales');
    // Nor do the event's mail screens appear.
    await visit(staff.page, `/console/events/${eventId}`);
    await staff.page.getByRole('heading', { level: 1 }).first().waitFor();
    assert.equal(await staff.page.getByRole('link', { name: 'Mail log' }).count(), 0);

    for (const [who, opened] of [
      ['Olga', organiser],
      ['the buyer', buyer],
      ['Sam', staff],
    ] as const) {
      assert.deepEqual(opened.problems, [], `${who}: no failed request, console error or CSP refusal`);
      assert.deepEqual(undocumentedOf(opened.requests), [], `${who}: every request is documented`);
    }
  });
});
