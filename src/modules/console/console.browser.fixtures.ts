/**
 * The console's browser tests' common parts (docs/console.md, "Tests"): a Chromium page at the
 * console that records every request, console error, failed request and CSP refusal; the sign-in
 * through the test OpenID provider; each screen's checks (axe-core, a 360 px phone, screenshots);
 * and the check that every request the console made is an operation of `/docs/openapi.json`.
 * `useConsoleInBrowser` also starts the app at a made-up host over plain HTTP (not a secure
 * context, as on a LAN address) with the provider; a test that needs its own app (the checkout
 * bench's) gives `consoleHelpers` its world; `useSellingConsole` is that app with the provider.
 */
import assert from 'node:assert/strict';
import { after, before, type TestContext } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { accessibilityProblems, screenshot, sharedBrowser } from '../../../test/browser.ts';
import { ensureConsoleBuilt } from '../../../test/console-build.ts';
import { createTestApp, type OpenApiDocument, type TestApp } from '../../../test/harness.ts';
import {
  type OidcProviderFixture,
  type ProviderAccount,
  startOidcProvider,
} from '../../../test/oidc-provider.ts';
import type { Team } from '../events/events.fixtures.ts';
import { until, useCheckoutBench } from '../events/registrations/checkout.fixtures.ts';

export const HOST = 'convene.test';

/** `METHOD path` of every operation of the document, as a matcher of concrete requests. */
export function operationsOf(
  document: OpenApiDocument,
): Array<{ key: string; test: (method: string, path: string) => boolean }> {
  return Object.entries(document.paths).flatMap(([template, item]) =>
    Object.keys(item).map((method) => {
      const pattern = template
        .split(/(\{[^}]+\})/)
        .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      const regex = new RegExp(`^${pattern}$`);
      const verb = method.toUpperCase();
      return {
        key: `${verb} ${template}`,
        // HEAD is answered wherever GET is (Fastify's HEAD routes).
        test: (requested: string, path: string) =>
          (requested === verb || (requested === 'HEAD' && verb === 'GET')) && regex.test(path),
      };
    }),
  );
}

/** Each console page's count of requests to the app not yet answered (`openConsole`). */
const inFlightOf = new WeakMap<Page, () => number>();

export interface ConsoleWorld {
  browser: ReturnType<typeof sharedBrowser>;
  /** The app's address, at the made-up host the browser maps to loopback. */
  origin: string;
  operations: ReturnType<typeof operationsOf>;
}

/** The helpers of a test file, on its world (read when each helper runs, after the `before` hooks). */
export function consoleHelpers(world: () => ConsoleWorld) {
  /** The requests (`METHOD /path`) that match no operation of the document. */
  function undocumentedOf(requests: string[]): string[] {
    const { operations } = world();
    return requests.filter((request) => {
      const [method = '', path = ''] = request.split(' ');
      return !operations.some((operation) => operation.test(method, path));
    });
  }

  /**
   * A new browser at `/console`, recording requests, console errors and CSP refusals. A refusal the
   * test provokes on purpose is added to `refusals` (`<status> <path>`) first; the session probe's
   * 401 before sign-in is one the console always expects.
   */
  async function openConsole(context: TestContext, locale = 'en-US') {
    const { browser, origin } = world();
    const launched = await browser.get(context);
    if (launched === undefined) return undefined;
    const browserContext = await launched.newContext({ locale, viewport: { width: 1280, height: 800 } });
    context.after(() => browserContext.close());
    const page = await browserContext.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    const refusals = new Set(['401 /auth/session']);
    const isRefusal = (status: number, url: string) =>
      url.startsWith(origin) && refusals.has(`${status} ${new URL(url).pathname}`);
    let inFlight = 0;
    inFlightOf.set(page, () => inFlight);
    page.on('request', (request) => {
      const url = new URL(request.url());
      // A `blob:` address (a PDF the console drew) has the page's origin but asks the service nothing.
      if (url.origin !== origin || url.protocol === 'blob:') return;
      requests.push(`${request.method()} ${url.pathname}`);
      inFlight += 1;
    });
    page.on('requestfinished', (request) => {
      if (request.url().startsWith(origin)) inFlight -= 1;
    });
    page.on('requestfailed', (request) => {
      if (!request.url().startsWith(origin)) return;
      inFlight -= 1;
      problems.push(`${request.url()}: ${request.failure()?.errorText}`);
    });
    page.on('response', (response) => {
      const status = response.status();
      if (response.url().startsWith(origin) && status >= 400 && !isRefusal(status, response.url())) {
        problems.push(`${status} ${response.request().method()} ${response.url()}`);
      }
    });
    page.on('console', (message) => {
      if (/Refused to|Content Security Policy/.test(message.text())) problems.push(`CSP: ${message.text()}`);
      const status = Number(/responded with a status of (\d+)/.exec(message.text())?.[1]);
      const isExpected = isRefusal(status, message.location().url);
      if (message.type() === 'error' && message.location().url.startsWith(origin) && !isExpected) {
        problems.push(`console: ${message.location().url}: ${message.text()}`);
      }
    });
    page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
    await page.goto(`${origin}/console`);
    return { page, requests, problems, refusals };
  }

  /** Through the console's sign-in link and the provider's page, back to where the console was. */
  async function signIn(page: Page, account: string, linkName = 'Sign in') {
    const { origin } = world();
    // The link leaves the page: a read still in flight (the console asks who is signed in as it
    // opens) would be aborted, as by `visit`.
    await settled(page);
    await page.getByRole('link', { name: linkName }).click();
    await page.getByLabel('Account').fill(account);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${origin}/console`);
    // The console reads the caller's events on arrival; a test that goes elsewhere next would abort it.
    await settled(page);
  }

  /** axe-core's verdict, nothing wider than a 360 px phone, and the screenshots of the screen. */
  async function checkScreen(page: Page, name: string) {
    assert.deepEqual(
      await accessibilityProblems(page),
      [],
      `${name}: axe-core, no serious or critical violation`,
    );
    const size = page.viewportSize();
    await page.setViewportSize({ width: 360, height: 740 });
    const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    assert.ok(width <= 360, `${name}: fits a 360 px phone (${width} px wide)`);
    if (size !== null) await page.setViewportSize(size);
    await screenshot(page, `console-${name}`);
  }

  function expectDocumented(requests: string[]) {
    assert.deepEqual(
      undocumentedOf(requests),
      [],
      'every request of the console is an operation of /docs/openapi.json',
    );
    assert.ok(requests.some((request) => request.startsWith('POST /events/')));
  }

  /**
   * Resolves once none of the page's requests to the app is in flight: a navigation or a reload
   * then aborts nothing (screens read some lists every few seconds, and again after a change).
   */
  async function settled(page: Page) {
    await page.waitForLoadState('networkidle');
    const inFlight = inFlightOf.get(page) ?? (() => 0);
    // None for 100 ms on end: a request the page just started is reported a moment later.
    let quietSince = Date.now();
    while (Date.now() - quietSince < 100) {
      if (inFlight() > 0) quietSince = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Reloads the page once it is settled (a reload aborts the reads still in flight). */
  async function reload(page: Page) {
    await settled(page);
    await page.reload();
  }

  /** Opens `path` once the page is settled. */
  async function visit(page: Page, path: string) {
    await settled(page);
    await page.goto(`${world().origin}${path}`);
  }

  /**
   * From an event's screen, its mail log filtered to the mails of `kind`, once `count` are listed;
   * answers the list's items.
   */
  async function mailLogOf(page: Page, kind: string, count: number) {
    await page.getByRole('link', { name: 'Mail log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Mail log' }).waitFor();
    await page.getByLabel('Mail', { exact: true }).selectOption(kind);
    await page.getByRole('button', { name: 'Filter' }).click();
    const mails = page.locator('ul.mails > li');
    await until(
      () => mails.count(),
      (listed) => listed === count,
      `${count} ${kind} mail(s) in the log`,
    );
    return mails;
  }

  return {
    openConsole,
    signIn,
    checkScreen,
    expectDocumented,
    undocumentedOf,
    visit,
    reload,
    settled,
    mailLogOf,
  };
}

/** An amount of BRL as the console's English screens write it. */
export const brl = (cents: number) =>
  new Intl.NumberFormat('en', { style: 'currency', currency: 'BRL' }).format(cents / 100);

/** `text` taken literally in a regular expression. */
export const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Call inside a `describe`: the checkout bench's app (checkout.fixtures.ts: the Mercado Pago
 * simulator, a wallet with a seller) with the test OpenID provider holding `accounts`, and the
 * console's helpers on it. At 127.0.0.1, not a made-up host as `useConsoleInBrowser`'s: the
 * simulator notifies the app at its public address, which only the browser could resolve.
 */
export function useSellingConsole(accounts: Array<{ id: string; email: string; name: string }>) {
  const browser = sharedBrowser();
  let idp: OidcProviderFixture;
  // Filled by the first hook, read by the bench's when it starts the app.
  const env: Record<string, string> = {};
  before(async () => {
    ensureConsoleBuilt();
    idp = await startOidcProvider();
    Object.assign(env, idp.env);
    for (const account of accounts) idp.addAccount(account);
  });
  const bench = useCheckoutBench(env);
  let origin: string;
  let operations: ReturnType<typeof operationsOf>;
  before(async () => {
    const { t } = bench();
    origin = t.baseUrl;
    await idp.allowRedirectsTo(origin);
    operations = operationsOf(JSON.parse((await t.get('/docs/openapi.json')).text) as OpenApiDocument);
  });
  after(async () => {
    await browser.close();
    await idp?.close();
  });
  return { bench, origin: () => origin, ...consoleHelpers(() => ({ browser, origin, operations })) };
}

/**
 * Call inside a `describe`: starts the provider and the app at HOST (with `env()` added, read in
 * `before`) and closes them and the browser after; answers the helpers on that world. With
 * `loopback`, the app is at 127.0.0.1 instead: a secure context, where the browser allows the
 * console's service worker and the camera. `browserArgs` are Chromium's extra flags, read when
 * the first test opens the console.
 */
export function useConsoleInBrowser(
  env: () => Record<string, string> = () => ({}),
  { loopback = false, browserArgs = () => [] }: { loopback?: boolean; browserArgs?: () => string[] } = {},
) {
  const browser = sharedBrowser(loopback ? {} : { [HOST]: '127.0.0.1' }, browserArgs);
  let idp: OidcProviderFixture;
  let t: TestApp;
  let origin: string;
  let operations: ReturnType<typeof operationsOf>;

  before(async () => {
    ensureConsoleBuilt();
    idp = await startOidcProvider();
    t = await createTestApp(
      { ...idp.env, ...env() },
      { listen: true, ...(loopback ? {} : { publicHost: HOST }) },
    );
    origin = t.baseUrl;
    await idp.allowRedirectsTo(origin);
    operations = operationsOf(JSON.parse((await t.get('/docs/openapi.json')).text) as OpenApiDocument);
  });
  after(async () => {
    await browser.close();
    await t?.close();
    await idp?.close();
  });

  return {
    t: () => t,
    idp: () => idp,
    origin: () => origin,
    ...consoleHelpers(() => ({ browser, origin, operations })),
  };
}

/**
 * Call inside a `describe`, after `useConsoleInBrowser`: the events fixtures' team (owner, admin,
 * staff and outsider, as API callers), made in `before`, and `accounts` added to the provider.
 * `joinAs` signs an account in on a page (to "Your events"), then the owner makes that person a
 * member of the events: the service knows someone by e-mail only once they have signed in.
 */
export function useConsoleTeam(
  bench: { t(): TestApp; idp(): OidcProviderFixture },
  accounts: ProviderAccount[],
  signIn: (page: Page, account: string) => Promise<void>,
) {
  let team: Team;
  before(async () => {
    const t = bench.t();
    team = {
      t,
      owner: await t.actor('owner'),
      admin: await t.actor('admin'),
      staff: await t.actor('staff'),
      outsider: await t.actor('outsider'),
    };
    for (const account of accounts) bench.idp().addAccount(account);
  });

  async function joinAs(page: Page, account: string, role: 'admin' | 'staff', ...eventIds: string[]) {
    await signIn(page, account);
    await page.getByRole('heading', { level: 1, name: 'Your events' }).waitFor();
    const email = accounts.find((known) => known.id === account)?.email;
    for (const eventId of eventIds) {
      const added = await team.t.post(`/events/${eventId}/members`, {
        token: team.owner.token,
        body: { email, role },
      });
      assert.equal(added.status, 201, added.text);
    }
  }

  return { team: () => team, joinAs };
}

/** Sam, the door staff of the console tests, as the test OpenID provider knows him. */
export const SAM = { id: 'sam-staff', email: 'sam@example.com', name: 'Sam Staff' };

/**
 * Types `code` at the door as a keyboard scanner would (the code, then Enter) and answers the
 * answer the screen shows as its `number`th (`data-scans`), once it is there: so this scan's answer
 * is told from the one before.
 */
export async function typeBadge(page: Page, code: string, number: number): Promise<Locator> {
  const field = page.getByLabel('Badge code or address');
  await field.fill(code);
  await field.press('Enter');
  const shown = page.locator(`.scan-result[data-scans="${number}"]`);
  await shown.waitFor();
  return shown;
}
