/**
 * Signing in with a browser (docs/reference/sign-in.md), in Debian's Chromium: through a real
 * OpenID provider on loopback, and through the development page when no provider is configured,
 * then out again with the sign-out button (its script sends the CSRF header).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { accessibilityProblems, sharedBrowser } from '../../../../test/browser.ts';
import { createTestApp, type TestApp } from '../../../../test/harness.ts';
import { type OidcProviderFixture, startOidcProvider } from '../../../../test/oidc-provider.ts';
import { userIdForEmail } from '../../../kernel/auth/user-ids.ts';

const browser = sharedBrowser();

/** A fresh browser (no cookies) whose console errors and script errors are collected. */
async function freshPage(context: TestContext, appUrl: string, locale = 'en-US') {
  const launched: Browser | undefined = await browser.get(context);
  if (launched === undefined) return undefined;
  const browserContext = await launched.newContext({ locale });
  const page = await browserContext.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    // The service's pages only (the provider's test login page has no icon).
    if (message.type() === 'error' && message.location().url.startsWith(appUrl))
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
  return { page, problems, close: () => browserContext.close() };
}

/** What `/auth/session` says to this browser's cookies (the context's own request client shares them). */
async function sessionIn(page: Page, baseUrl: string) {
  const response = await page.context().request.get(`${baseUrl}/auth/session`);
  return { status: response.status(), body: await response.json() };
}

describe('browser sign-in', () => {
  after(() => browser.close());

  describe('through the identity service', () => {
    let idp: OidcProviderFixture;
    let t: TestApp;

    before(async () => {
      idp = await startOidcProvider();
      t = await createTestApp(idp.env, { listen: true });
      await idp.allowRedirectsTo(t.baseUrl);
      idp.addAccount({ id: 'ana', email: 'ana@example.com', name: 'Ana Souza' });
    });
    after(async () => {
      await t.close();
      await idp.close();
    });

    it('goes to the provider, signs in there and lands back on return_to with a session', async (context) => {
      const opened = await freshPage(context, t.baseUrl);
      if (opened === undefined) return;
      const { page, problems, close } = opened;
      try {
        await page.goto(`${t.baseUrl}/auth/sign-in?return_to=${encodeURIComponent('/health')}`);
        assert.equal(new URL(page.url()).origin, idp.issuer, 'at the identity service');
        await page.getByLabel('Account').fill('ana');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL(`${t.baseUrl}/health`);
        const session = await sessionIn(page, t.baseUrl);
        assert.equal(session.status, 200);
        assert.equal(session.body.data.email, 'ana@example.com');
        assert.equal(session.body.data.name, 'Ana Souza');
        const cookies = await page.context().cookies(t.baseUrl);
        const cookie = cookies.find((entry) => entry.name === 'convene_session');
        assert.ok(cookie?.httpOnly, 'HttpOnly');
        assert.equal(cookie?.sameSite, 'Lax');
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  });

  describe('in development, without an identity service', () => {
    let t: TestApp;

    before(async () => {
      t = await createTestApp({}, { listen: true });
    });
    after(() => t.close());

    it('signs in as the person typed on an accessible page, and out with the sign-out button', async (context) => {
      const opened = await freshPage(context, t.baseUrl);
      if (opened === undefined) return;
      const { page, problems, close } = opened;
      try {
        await page.goto(`${t.baseUrl}/auth/sign-in?return_to=${encodeURIComponent('/health')}`);
        assert.equal(await page.title(), 'Sign in (development) · Convene');
        assert.deepEqual(await accessibilityProblems(page), []);
        await page.getByLabel('E-mail address').fill('bia@example.com');
        await page.getByLabel('Name (optional)').fill('Bia Lopes');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL(`${t.baseUrl}/health`);
        const session = await sessionIn(page, t.baseUrl);
        assert.equal(session.status, 200);
        assert.equal(session.body.data.user_id, userIdForEmail('bia@example.com'));
        assert.equal(session.body.data.name, 'Bia Lopes');

        // Back on the sign-in page: who is signed in, and a sign-out button.
        await page.goto(`${t.baseUrl}/auth/sign-in`);
        await page.getByText('You are signed in as Bia Lopes (bia@example.com).').waitFor();
        assert.deepEqual(await accessibilityProblems(page), []);
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.waitForURL(`${t.baseUrl}/auth/sign-in?return_to=%2F`);
        await page.getByLabel('E-mail address').waitFor();
        assert.equal((await sessionIn(page, t.baseUrl)).status, 401, 'signed out on the server');
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });

    it('speaks Brazilian Portuguese and Spanish by Accept-Language', async (context) => {
      for (const [locale, button] of [
        ['pt-BR', 'Entrar'],
        ['es-AR', 'Iniciar sesión'],
      ] as const) {
        const opened = await freshPage(context, t.baseUrl, locale);
        if (opened === undefined) return;
        try {
          await opened.page.goto(`${t.baseUrl}/auth/sign-in`);
          await opened.page.getByRole('button', { name: button }).waitFor();
          assert.equal(await opened.page.getAttribute('html', 'lang'), locale === 'es-AR' ? 'es' : 'pt-BR');
        } finally {
          await opened.close();
        }
      }
    });
  });
});
