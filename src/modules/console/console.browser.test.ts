/**
 * An organiser's first hour in the console (docs/console.md), in Debian's Chromium over plain HTTP
 * at a made-up host (not a secure context, as on a LAN address): signed in through the test OpenID
 * provider from the console's own sign-in link, they create an event, an edition with its venue and
 * banner, a paid ticket type and a program, publish both, and invite a colleague; a staff member
 * sees the event read-only. On every screen axe-core finds nothing serious or critical and nothing
 * overflows a 360 px phone; no console error, failed request or CSP refusal; and every request the
 * console made is an operation of `/docs/openapi.json`. `SCREENSHOTS=docs/screenshots` saves each
 * screen at phone and desktop width as `console-*.png`.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { TestApp } from '../../../test/harness.ts';
import { until } from '../events/registrations/checkout.fixtures.ts';
import { useConsoleInBrowser } from './console.browser.fixtures.ts';

describe('the organiser console in a browser', () => {
  const { openConsole, signIn, checkScreen, expectDocumented, undocumentedOf, reload, ...bench } =
    useConsoleInBrowser();
  let t: TestApp;

  before(() => {
    t = bench.t();
    bench.idp().addAccount({ id: 'olga-organiser', email: 'olga@example.com', name: 'Olga Organiser' });
    bench.idp().addAccount({ id: 'sam-staff', email: 'sam@example.com', name: 'Sam Staff' });
  });

  it('sets up an event, an edition, a paid ticket and a program, publishes them and invites a colleague', async (context) => {
    const opened = await openConsole(context);
    if (opened === undefined) return;
    const { page, requests, problems, refusals } = opened;

    // 1. Not signed in: the console says so and links to the sign-in, coming back here.
    await page.getByRole('heading', { level: 1, name: 'Sign in to the console' }).waitFor();
    assert.equal(
      await page.getByRole('link', { name: 'Sign in' }).getAttribute('href'),
      '/auth/sign-in?return_to=%2Fconsole',
    );
    // The keyboard's first stop is the link past the header to the screen.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement.textContent'), 'Skip to content');
    await checkScreen(page, 'sign-in');
    await signIn(page, 'olga-organiser');

    // 2. Their events: none yet; create one. The console opens it.
    await page.getByRole('heading', { level: 1, name: 'Your events' }).waitFor();
    await page.getByText('Signed in as Olga Organiser').waitFor();
    await page.getByText('You have no events yet.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Tech Week');
    await page.getByLabel('Short name for addresses').fill('tech-week');
    await page.getByLabel('Contact e-mail (optional)').fill('hello@techweek.example');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { level: 1, name: /Tech Week/ }).waitFor();
    const eventId = new URL(page.url()).pathname.split('/')[3]!;
    assert.match(page.url(), /\/console\/events\/[0-9a-f-]{36}$/);

    // 3. An edition with its dates and venue.
    const editions = page.getByRole('region', { name: 'Editions' });
    await editions.getByText('No editions yet.').waitFor();
    await editions.getByText('New edition').click();
    await editions.getByLabel('Name', { exact: true }).fill('Tech Week 2027');
    await editions.getByLabel('Short name for addresses').fill('2027');
    await editions.getByLabel('Starts').fill('2027-03-10T09:00');
    await editions.getByLabel('Ends').fill('2027-03-12T18:00');
    await editions.getByLabel('Venue (optional)').fill('Centro de Convenções');
    await editions.getByRole('button', { name: 'Create' }).click();
    await editions.getByRole('link', { name: 'Tech Week 2027' }).waitFor();
    await checkScreen(page, 'event');
    await editions.getByRole('link', { name: 'Tech Week 2027' }).click();

    // 4. The edition: a banner by address, a paid ticket type, a program, then publish.
    await page.getByRole('heading', { level: 1, name: /Tech Week 2027/ }).waitFor();
    const editionId = new URL(page.url()).pathname.split('/')[5]!;
    const details = page.getByRole('region', { name: 'Edition details' });
    await details.getByLabel('Banner image address (URL)').fill('https://cdn.example.com/tech-week.png');
    await details.getByRole('button', { name: 'Save changes' }).click();
    await details.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

    const tickets = page.getByRole('region', { name: 'Ticket types' });
    await tickets.getByText('New ticket type').click();
    await tickets.getByLabel('Name', { exact: true }).fill('General');
    await tickets.getByLabel('Paid').check();
    await tickets.getByLabel('Price').fill('120.50');
    await tickets.getByLabel('Currency').selectOption('BRL');
    await tickets.getByLabel('Capacity (optional)').fill('300');
    await tickets.getByRole('button', { name: 'Create' }).click();
    await tickets.getByText('General').waitFor();
    assert.match(
      await tickets.getByRole('listitem').first().innerText(),
      /R\$\s?120\.50 · level 0 · 0 sold of 300/,
    );

    const programs = page.getByRole('region', { name: 'Programs' });
    await programs.getByText('New program').click();
    await programs.getByLabel('Name', { exact: true }).fill('Opening keynote');
    await programs.getByLabel('Place (optional)').fill('Main hall');
    await programs.getByRole('button', { name: 'Create' }).click();
    await programs.getByText('Opening keynote', { exact: true }).waitFor();
    // Changed in place, then a second program removed after a confirmation.
    const keynote = programs.getByRole('listitem').filter({ hasText: 'Opening keynote' });
    await keynote.getByText('Edit', { exact: true }).click();
    await keynote.getByLabel('Place (optional)').fill('Auditorium A');
    await keynote.getByRole('button', { name: 'Save changes' }).click();
    await keynote.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await programs.getByText('· Auditorium A').waitFor();
    // The creation form stays open under the list.
    const newProgram = programs.locator(':scope > details.create');
    await newProgram.getByLabel('Name', { exact: true }).fill('Coffee break');
    await newProgram.getByRole('button', { name: 'Create' }).click();
    await programs.getByRole('button', { name: 'Remove Coffee break' }).click();
    const removal = page.getByRole('dialog');
    await removal.getByText('Remove “Coffee break” from the schedule?').waitFor();
    await removal.getByRole('button', { name: 'Confirm' }).click();
    await until(
      () => programs.getByRole('listitem').count(),
      (count) => count === 1,
      'the coffee break removed',
    );

    await page.getByRole('button', { name: 'Publish the edition' }).click();
    await page.getByRole('heading', { level: 1, name: /Tech Week 2027 Published/ }).waitFor();
    await checkScreen(page, 'edition');

    // 5. Back to the event: publish it, and invite a colleague as staff.
    await page.getByRole('link', { name: 'Tech Week', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: /Tech Week Draft/ }).waitFor();
    await page.getByRole('button', { name: 'Publish the event' }).click();
    await page.getByRole('heading', { level: 1, name: /Tech Week Published/ }).waitFor();
    const invitations = page.getByRole('region', { name: 'Invitations' });
    await invitations.getByText('Invite someone').click();
    await invitations.getByLabel('E-mail', { exact: true }).fill('rui@example.com');
    await invitations.getByLabel('Role').selectOption('staff');
    await invitations.getByRole('button', { name: 'Send the invitation' }).click();
    await invitations.getByText('rui@example.com').waitFor();
    assert.match(await invitations.getByRole('listitem').first().innerText(), /Staff\s+Pending/);
    const members = page.getByRole('region', { name: 'Members' });
    assert.match(await members.innerText(), /olga@example\.com\s+Owner/);
    // Adding someone who never signed in is refused, and the console says what to do instead.
    refusals.add(`404 /events/${eventId}/members`);
    await members.getByText('Add a member').click();
    await members.getByLabel('E-mail', { exact: true }).fill('nobody@example.com');
    await members.getByRole('button', { name: 'Add' }).click();
    await members
      .getByRole('alert')
      .filter({
        hasText: 'No one with that e-mail has signed in to Convene yet: send them an invitation instead.',
      })
      .waitFor();
    await checkScreen(page, 'event-published');

    // 6. The events list, in another language from the switcher.
    await page.getByRole('link', { name: 'All events' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your events' }).waitFor();
    // A second event with the same short name: the service's `slug_taken`, in words.
    refusals.add('409 /events');
    await page.getByLabel('Name', { exact: true }).fill('Tech Week again');
    await page.getByLabel('Short name for addresses').fill('tech-week');
    await page.getByRole('button', { name: 'Create' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'That short name is already used: pick another.' })
      .waitFor();
    await checkScreen(page, 'events');
    await page.getByLabel('Language').selectOption('pt-BR');
    await page.getByRole('heading', { level: 1, name: 'Seus eventos' }).waitFor();
    // The document's language is set by an effect after the words change: waited for, not raced.
    await page.locator('html[lang="pt-BR"]').waitFor({ state: 'attached' });
    await checkScreen(page, 'events-pt-BR');

    // What the API now holds is what the organiser typed.
    const event = await t.get<{ status: string }>(`/events/${eventId}`);
    assert.equal(event.body.data.status, 'active');
    const edition = await t.get<{ is_draft: boolean; banner_url: string; location_name: string }>(
      `/editions/${editionId}`,
    );
    assert.equal(edition.body.data.is_draft, false);
    assert.equal(edition.body.data.banner_url, 'https://cdn.example.com/tech-week.png');
    assert.equal(edition.body.data.location_name, 'Centro de Convenções');
    const types = await t.get<Array<{ price_cents: number; currency: string; max_quantity: number }>>(
      `/editions/${editionId}/ticket-types`,
    );
    assert.deepEqual(
      types.body.data.map(({ price_cents, currency, max_quantity }) => ({
        price_cents,
        currency,
        max_quantity,
      })),
      [{ price_cents: 12050, currency: 'BRL', max_quantity: 300 }],
    );
    const schedule = await t.get<Array<{ name: string; location: string | null }>>(
      `/editions/${editionId}/programs`,
    );
    assert.deepEqual(
      schedule.body.data.map(({ name, location }) => ({ name, location })),
      [{ name: 'Opening keynote', location: 'Auditorium A' }],
    );

    assert.deepEqual(problems, [], 'no failed request, console error or CSP refusal');
    expectDocumented(requests);
  });

  it('speaks the browser’s language until the person picks another', async (context) => {
    const opened = await openConsole(context, 'es-AR');
    if (opened === undefined) return;
    const { page, problems } = opened;
    await page.getByRole('heading', { level: 1, name: 'Inicia sesión en la consola' }).waitFor();
    assert.equal(await page.evaluate('document.documentElement.lang'), 'es');
    assert.equal(await page.getByLabel('Idioma').inputValue(), 'es');
    await checkScreen(page, 'sign-in-es');
    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Sign in to the console' }).waitFor();
    // Remembered on the device: a reload keeps the pick over the browser's language.
    await reload(page);
    await page.getByRole('heading', { level: 1, name: 'Sign in to the console' }).waitFor();
    assert.deepEqual(problems, [], 'no failed request, console error or CSP refusal');
  });

  it('shows a staff member the event read-only, without invitations', async (context) => {
    // Olga's event from the test above, with Sam (signed in once, so known) added as staff.
    const setUp = await openConsole(context);
    if (setUp === undefined) return;
    await signIn(setUp.page, 'sam-staff');
    await setUp.page.getByRole('heading', { level: 1, name: 'Your events' }).waitFor();
    const owner = await t.actor('owner');
    const created = await t.post<{ id: string }>('/events', {
      token: owner.token,
      body: { name: 'Door Day', slug: 'door-day' },
    });
    assert.equal(created.status, 201, created.text);
    const added = await t.post(`/events/${created.body.data.id}/members`, {
      token: owner.token,
      body: { email: 'sam@example.com', role: 'staff' },
    });
    assert.equal(added.status, 201, added.text);

    const { page, requests, problems } = setUp;
    await reload(page);
    await page.getByRole('link', { name: 'Door Day' }).click();
    await page.getByRole('heading', { level: 1, name: /Door Day/ }).waitFor();
    await page.getByText('Your role lets you see this event but not change it.').waitFor();
    await page.getByRole('region', { name: 'Members' }).getByText('sam@example.com').waitFor();
    assert.equal(await page.getByRole('region', { name: 'Invitations' }).count(), 0);
    assert.equal(await page.getByText('New edition').count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Publish the event' }).count(), 0);
    assert.ok(await page.getByLabel('Name', { exact: true }).isDisabled(), 'the details are read-only');
    await checkScreen(page, 'event-staff');
    assert.deepEqual(problems, [], 'no failed request, console error or CSP refusal');
    assert.deepEqual(undocumentedOf(requests), []);
  });
});
