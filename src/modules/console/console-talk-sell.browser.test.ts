/**
 * The console's Talk and Sell screens in Chromium (docs/console.md), signed in through the test
 * OpenID provider, on an edition that sells through the Mercado Pago simulator: the organiser (an
 * admin of the event) edits a mail template and watches the preview follow, saves their version and
 * restores the built-in; finds registrations by name and by paid/free, checks the sales summary
 * against the API, downloads the CSV and parses it, refunds a paid registration and cancels a free
 * one, each after a confirmation stating what happens; and finds the refund mail in the mail log and
 * resends it. (A staff member's view of the same screens is console-first-day.browser.test.ts's.)
 * On every screen axe-core finds nothing serious or critical and nothing overflows 360 px; no
 * console error, failed request or CSP refusal; every request is an operation of the document.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { expectOk } from '../../../test/assertions.ts';
import type { TestUser } from '../../../test/harness.ts';
import { checkoutHelpers, until } from '../events/registrations/checkout.fixtures.ts';
import type { Registration } from '../events/registrations/registrations.schemas.ts';
import { parseCsv } from '../events/registrations/sales.fixtures.ts';
import type { SalesSummary } from '../events/registrations/sales.schemas.ts';
import { brl, literally, useSellingConsole } from './console.browser.fixtures.ts';

describe('the console’s Talk and Sell screens in a browser', () => {
  const { bench, openConsole, signIn, checkScreen, expectDocumented, visit, reload, mailLogOf } =
    useSellingConsole([{ id: 'olga-organiser', email: 'olga@example.com', name: 'Olga Organiser' }]);
  const h = checkoutHelpers(bench);
  let eventId: string;
  let editionId: string;
  let people: Record<'ana' | 'bruno' | 'carla' | 'paula', TestUser>;
  let paidRegistration: Registration;
  before(async () => {
    const { t } = bench();
    // An edition selling a paid pass (R$ 50.50) and a free community ticket.
    const setup = await h.paidEdition({ name: 'Conference pass', price_cents: 5050 });
    eventId = setup.event.id;
    editionId = setup.edition.id;
    const free = await h.createTicketType(editionId, { name: 'Community' });
    people = {
      ana: await t.actor('ana', { name: 'Ana Souza' }),
      bruno: await t.actor('bruno', { name: 'Bruno Lima' }),
      carla: await t.actor('carla', { name: 'Carla Dias' }),
      paula: await t.actor('paula', { name: 'Paula Pagante' }),
    };
    for (const name of ['ana', 'bruno', 'carla'] as const) {
      expectOk(await h.register(people[name], editionId, free.id), 201);
    }
    paidRegistration = expectOk(await h.register(people.paula, editionId, setup.ticketType.id), 201);
    await bench().sim.pay(h.preferenceOf(paidRegistration.intent_id ?? '').id, 'approved');
    await h.registrationWhen(paidRegistration.id, 'confirmed');
  });
  /** Signs `account` in, then makes them an admin of the event (known once signed in). */
  async function signInAsAdmin(page: Page, account: string, email: string) {
    await signIn(page, account);
    await page.getByRole('heading', { level: 1, name: 'Your events' }).waitFor();
    const { t, owner } = bench();
    expectOk(
      await t.post(`/events/${eventId}/members`, { token: owner.token, body: { email, role: 'admin' } }),
      201,
    );
    await reload(page);
  }

  it('edits a mail with its preview, sells, refunds and cancels, and resends the refund mail', async (context) => {
    const opened = await openConsole(context);
    if (opened === undefined) return;
    const { page, requests, problems } = opened;
    const { t, owner } = bench();
    await page.getByRole('heading', { level: 1, name: 'Sign in to the console' }).waitFor();
    await signInAsAdmin(page, 'olga-organiser', 'olga@example.com');

    // 1. Talk: the event's links lead to its mail templates.
    await visit(page, `/console/events/${eventId}`);
    await page.getByRole('link', { name: 'E-mail templates' }).click();
    await page.getByRole('heading', { level: 1, name: 'E-mail templates' }).waitFor();
    const form = page.getByRole('region', { name: /Registration confirmed/ });
    const preview = page.getByRole('region', { name: 'Preview' });
    await form.getByText('Built-in').waitFor();
    const subject = form.getByLabel('Subject');
    const previewSubject = preview.getByTestId('preview-subject');
    await previewSubject.waitFor();
    const englishSubject = await subject.inputValue();

    // The built-in text and the preview in Portuguese, then back.
    await page.getByLabel('Language of the built-in text and the preview').selectOption('pt-BR');
    await until(
      () => subject.inputValue(),
      (value) => value !== englishSubject,
      'the Portuguese built-in subject',
    );
    await until(
      () => previewSubject.innerText(),
      (value) => value !== '' && !value.includes('{{'),
      'a Portuguese preview',
    );
    await page.getByLabel('Language of the built-in text and the preview').selectOption('en');
    await until(
      () => subject.inputValue(),
      (value) => value === englishSubject,
      'English again',
    );

    // Typing re-renders the preview a moment later, with the sample values.
    await subject.fill('Your seat at {{ event_name }} is waiting, {{ recipient_name }}');
    const body = form.getByLabel('Body (HTML and Liquid)');
    const builtIn = await body.inputValue();
    assert.ok(builtIn.includes('Your registration is confirmed'), 'the built-in heading');
    await body.fill(builtIn.replaceAll('Your registration is confirmed', 'Bring a water bottle!'));
    await until(
      () => previewSubject.innerText(),
      (value) => value.startsWith('Your seat at ') && !value.includes('{{'),
      'the preview of the new subject',
    );
    await preview.getByText('Text version').click();
    await until(
      () => preview.getByTestId('preview-text').textContent(),
      (text) => text?.includes('Bring a water bottle!') ?? false,
      'the preview of the new body',
    );
    const image = preview.getByRole('img', { name: /Preview of the mail: Your seat at/ });
    assert.match((await image.getAttribute('src')) ?? '', /^data:image\/svg\+xml/);
    assert.ok(
      await image.evaluate((element) => {
        const drawn = element as unknown as { complete: boolean; naturalWidth: number };
        return drawn.complete && drawn.naturalWidth > 0;
      }),
      'the preview image is drawn',
    );

    // Saved: the event's version, for every language.
    await form.getByRole('button', { name: 'Save your version' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved: this mail now uses your version.' }).waitFor();
    await form.getByText('Your version').first().waitFor();
    const saved = expectOk(
      await t.get<{ source: string; subject: string }>(
        `/events/${eventId}/email-templates/registration_confirmed`,
        { token: owner.token },
      ),
    );
    assert.deepEqual(saved, {
      ...saved,
      source: 'override',
      subject: 'Your seat at {{ event_name }} is waiting, {{ recipient_name }}',
    });
    await checkScreen(page, 'email-templates');

    // Restored after a confirmation.
    await form.getByRole('button', { name: 'Restore the built-in' }).click();
    const restoreDialog = page.getByRole('dialog');
    await restoreDialog.getByText('Restore the built-in “Registration confirmed” mail?').waitFor();
    await restoreDialog.getByRole('button', { name: 'Confirm' }).click();
    await form.getByRole('status').filter({ hasText: 'The built-in mail is back.' }).waitFor();
    assert.equal(await subject.inputValue(), englishSubject);
    const restored = expectOk(
      await t.get<{ source: string }>(`/events/${eventId}/email-templates/registration_confirmed`, {
        token: owner.token,
      }),
    );
    assert.equal(restored.source, 'default');

    // 2. Sell: the edition's registrations, searched and filtered.
    await visit(page, `/console/events/${eventId}/editions/${editionId}`);
    await page.getByRole('link', { name: 'Registrations' }).click();
    await page.getByRole('heading', { level: 1, name: 'Registrations' }).waitFor();
    const list = page.getByRole('region', { name: /./ }).filter({ has: page.getByLabel('Status') });
    const rows = list.locator('ul.registrations > li');
    await until(
      () => rows.count(),
      (count) => count === 4,
      'four registrations',
    );
    await page.getByText('Page 1 of 1 · 4 in all').waitFor();
    await list.getByLabel('Search (optional)').fill('souza');
    await list.getByRole('button', { name: 'Search' }).click();
    await until(
      () => rows.count(),
      (count) => count === 1,
      'one found',
    );
    assert.match(await rows.first().innerText(), /Ana Souza[\s\S]*Confirmed[\s\S]*Community/);
    await list.getByLabel('Search (optional)').fill('');
    await list.getByLabel('Paid or free').selectOption('true');
    await list.getByRole('button', { name: 'Search' }).click();
    // The previous page (one row, too) stays until the new one arrives: wait for its row.
    await rows.filter({ hasText: 'Paula Pagante' }).waitFor();
    await until(
      () => rows.count(),
      (count) => count === 1,
      'one paid',
    );
    assert.match(await rows.first().innerText(), new RegExp(`Paula Pagante[\\s\\S]*${literally(brl(5050))}`));
    await list.getByLabel('Paid or free').selectOption('false');
    await list.getByLabel('Ticket type').selectOption({ label: 'Community' });
    await list.getByRole('button', { name: 'Search' }).click();
    await until(
      () => rows.count(),
      (count) => count === 3,
      'three free',
    );

    // The CSV of the same selection, as the browser downloads it.
    const href =
      (await list.getByRole('link', { name: 'Download these registrations (CSV)' }).getAttribute('href')) ??
      '';
    assert.match(
      href,
      new RegExp(
        `^/editions/${editionId}/registrations\\.csv\\?paid=false&ticket_type_id=|ticket_type_id=.*&paid=false`,
      ),
    );
    const csv = parseCsv(
      (await page.evaluate(async (address) => (await fetch(address)).text(), href)) as string,
    );
    assert.equal(csv[0]?.[0], 'registration_id');
    assert.ok(csv[0]?.includes('amount_cents'), 'an admin gets the money columns');
    assert.deepEqual(
      csv
        .slice(1)
        .map((row) => row[csv[0]!.indexOf('name')])
        .sort(),
      ['Ana Souza', 'Bruno Lima', 'Carla Dias'],
    );
    await checkScreen(page, 'registrations');

    // 3. The sales summary, as the API has it.
    await page.getByRole('link', { name: 'Sales' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sales summary' }).waitFor();
    const summary = expectOk(
      await t.get<SalesSummary>(`/editions/${editionId}/sales`, { token: owner.token }),
      200,
      'events',
    );
    assert.deepEqual(
      { sold: summary.counts.sold, paid: summary.counts.sold_paid, free: summary.counts.sold_free },
      { sold: 4, paid: 1, free: 3 },
    );
    const counts = page.locator('#sales-counts');
    await counts.waitFor();
    assert.match(await counts.innerText(), /Sold\s+4 \(1 paid, 3 free\)/);
    const money = summary.money[0]!;
    const overall = page.getByRole('region', { name: /./ }).first();
    const figures = await overall.innerText();
    for (const [label, cents] of [
      ['Revenue', money.revenue_cents],
      ['Platform fees', money.fees_cents],
      ['Net', money.net_cents],
    ] as const) {
      assert.match(figures, new RegExp(`${label}\\s+${literally(brl(cents))}`), label);
    }
    await page.getByRole('region', { name: 'Per ticket type' }).getByText('Conference pass').waitFor();
    await checkScreen(page, 'sales');

    // 4. Refund the paid registration, and cancel a free one, each confirmed first.
    await page.getByRole('link', { name: 'Registrations' }).click();
    await until(
      () => rows.count(),
      (count) => count === 4,
      'four registrations again',
    );
    // A part first: the registration stays confirmed, and the list shows what was given back.
    await list.getByRole('button', { name: 'Refund Paula Pagante' }).click();
    const partDialog = page.getByRole('dialog');
    await partDialog.getByText(`Refund ${brl(5050)} to Paula Pagante?`).waitFor();
    await partDialog.getByLabel('Amount to refund (BRL)').fill('20.00');
    await partDialog
      .getByText(`Refund ${brl(2000)} of ${brl(5050)} to Paula Pagante? The registration stays confirmed.`)
      .waitFor();
    await partDialog.getByRole('button', { name: 'Confirm' }).click();
    const paula = rows.filter({ hasText: 'Paula Pagante' });
    await paula.getByText(`${brl(2000)} refunded`).waitFor();
    assert.match(await paula.innerText(), /Confirmed/);
    // Then the rest, which ends it.
    await list.getByRole('button', { name: 'Refund Paula Pagante' }).click();
    const refundDialog = page.getByRole('dialog');
    await refundDialog.getByText(`Refund ${brl(3050)} to Paula Pagante?`).waitFor();
    await refundDialog.getByLabel('Reason, told in the mail (optional)').fill('The workshop moved online');
    await refundDialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'Refunded.' }).waitFor();
    await h.registrationWhen(paidRegistration.id, 'refunded');
    await list.getByRole('button', { name: 'Cancel the registration of Bruno Lima' }).click();
    const cancelDialog = page.getByRole('dialog');
    await cancelDialog.getByText('Cancel the registration of Bruno Lima (Community)?').waitFor();
    await cancelDialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'The registration is cancelled.' }).waitFor();
    const statuses = expectOk(
      await t.get<Array<{ name: string; status: string }>>(`/editions/${editionId}/registrations`, {
        token: owner.token,
      }),
      200,
      'events',
    );
    assert.deepEqual(Object.fromEntries(statuses.map((item) => [item.name, item.status])), {
      'Ana Souza': 'confirmed',
      'Bruno Lima': 'cancelled',
      'Carla Dias': 'confirmed',
      'Paula Pagante': 'refunded',
    });

    // 5. The refund mail in the event's mail log, resent after a confirmation.
    await page.getByRole('navigation', { name: 'breadcrumb' }).getByRole('link').nth(1).click();
    const mails = await mailLogOf(page, 'refund_issued', 1);
    assert.match(await mails.first().innerText(), new RegExp(`Refund issued · To: ${people.paula.email}`));
    assert.match(await mails.first().innerText(), /Attempts: \d/);
    await mails
      .first()
      .getByRole('button', { name: `Resend the mail to ${people.paula.email}` })
      .click();
    const resendDialog = page.getByRole('dialog');
    await resendDialog.getByText(new RegExp(`to ${people.paula.email} again\\?`)).waitFor();
    await resendDialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'Queued again as a new mail.' }).waitFor();
    await until(
      () => mails.count(),
      (count) => count === 2,
      'the resent copy',
    );
    await page.getByText('a resend').waitFor();
    const log = expectOk(
      await t.get<Array<{ resent_from: string | null }>>(`/events/${eventId}/emails?kind=refund_issued`, {
        token: owner.token,
      }),
      200,
      'events',
    );
    assert.equal(log.filter((mail) => mail.resent_from !== null).length, 1);
    await checkScreen(page, 'emails');

    assert.deepEqual(problems, [], 'no failed request, console error or CSP refusal');
    expectDocumented(requests);
  });
});
