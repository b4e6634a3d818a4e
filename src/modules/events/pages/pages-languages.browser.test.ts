/**
 * Every people-facing page in a browser (pages.browser.fixtures.ts) in en, pt-BR and es: the
 * language the browser asks for is the page's, and axe-core finds nothing serious or critical in
 * any of them. `SCREENSHOTS=docs/screenshots` also saves the pt-BR signing page and the es badge
 * page at phone and desktop width (docs/features.md, "People-facing pages").
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { screenshot } from '../../../../test/browser.ts';
import { usePagesInBrowser } from './pages.browser.fixtures.ts';

describe('the pages in every language in a browser', () => {
  const { f, open, expectAccessible, signatureRequest, startCheckout, attendedEdition, certificateOf } =
    usePagesInBrowser();

  it('every page speaks en, pt-BR and es, and stays accessible in each', async (context) => {
    const { edition, ana } = await attendedEdition();
    const badge = await f.badgeUrlOf(edition.id, ana.id);
    const certificate = await certificateOf(edition.id, ana);
    const request = await signatureRequest(edition.id);
    const registration = await startCheckout();
    const pages = {
      badge,
      verify: certificate.verify_url,
      sign: request.fulfill_url,
      checkout: `/checkout/${registration.intent_id}`,
      badges: `/users/${ana.id}/badges`,
    };
    // What a reader of each language sees on each page.
    const expected: Record<string, Record<keyof typeof pages, string>> = {
      'en-US': {
        badge: 'Valid badge',
        verify: 'Valid certificate',
        sign: 'Your signature',
        checkout: 'Payment pending',
        badges: 'Current and upcoming',
      },
      'pt-BR': {
        badge: 'Crachá válido',
        verify: 'Certificado válido',
        sign: 'Sua assinatura',
        checkout: 'Pagamento pendente',
        badges: 'Atuais e próximos',
      },
      es: {
        badge: 'Credencial válida',
        verify: 'Certificado válido',
        sign: 'Su firma',
        checkout: 'Pago pendiente',
        badges: 'Actuales y próximas',
      },
    };
    for (const [locale, words] of Object.entries(expected)) {
      for (const [name, link] of Object.entries(pages) as Array<[keyof typeof pages, string]>) {
        const opened = await open(context, link, locale);
        if (opened === undefined) return;
        const lang = await opened.page.locator('html').getAttribute('lang');
        assert.equal(lang, locale === 'en-US' ? 'en' : locale, `${name} in ${locale}`);
        await opened.page.getByText(words[name]).first().waitFor();
        await expectAccessible(opened.page);
        if (locale !== 'en-US' && (name === 'sign' || name === 'badge')) {
          await screenshot(opened.page, `${name}-${locale}`);
        }
        assert.deepEqual(opened.problems, [], `${name} in ${locale}`);
        assert.deepEqual(opened.consoleErrors, [], `${name} in ${locale}`);
      }
    }
  });
});
