/**
 * `GET /me` (docs/reference/pages.md) as a browser receives it: the person signed in by the session
 * cookie sees their registrations (the pending one with its payment links, the confirmed one with
 * its badge), their badge with its QR code and their certificate with its links, and nothing of
 * anyone else's; nobody signed in gets the sign-in link back here; a bearer token counts as signed
 * in; every language has its heading; the page is never cached. (The browser: me.browser.test.ts.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { certificateFixtures } from '../certificates/certificates.fixtures.ts';
import { checkoutHelpers, useCheckoutBench } from '../registrations/checkout.fixtures.ts';
import { browserPerson, devSessionOf, meScene } from './me.fixtures.ts';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('GET /me', () => {
  const bench = useCheckoutBench();
  const f = certificateFixtures(bench);
  const h = checkoutHelpers(bench);
  const t = () => bench().t;

  const open = (headers: Record<string, string> = {}) =>
    t().app.inject({ method: 'GET', url: '/me', headers: { accept: BROWSER, ...headers } });

  /** The text of the `<section id="...">` of the page. */
  const sectionOf = (body: string, id: string) => {
    const match = new RegExp(`<section aria-labelledby="${id}-title" id="${id}">([\\s\\S]*?)</section>`).exec(
      body,
    );
    assert.ok(match, `section ${id}`);
    return match[1] ?? '';
  };

  it("lists the signed-in person's registrations, badges and certificates, and nobody else's", async () => {
    const scene = await meScene(t, f, h);
    const cookie = await devSessionOf(t(), scene.person);
    const page = await open({ cookie });
    assert.equal(page.statusCode, 200, page.body);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
    assert.doesNotMatch(page.body, /<script(?![^>]*\bsrc=)/, 'no inline script');
    assert.match(page.body, /<h1>My page<\/h1>/);
    assert.ok(page.body.includes(`Ana Souza (${scene.person.email})`));
    assert.match(page.body, /<form method="post" action="\/auth\/sign-out" data-sign-out data-after="\/me"/);
    assert.match(page.body, /<script src="\/assets\/sign-out\.js\?v=[^"]+" defer>/);

    const registrations = sectionOf(page.body, 'registrations');
    const items = [...registrations.matchAll(/data-registration-id="([^"]+)"/g)].map((match) => match[1]);
    // Newest first: the paid one was made last.
    assert.deepEqual(items, [scene.pending.id, scene.free.id]);
    assert.ok(registrations.includes('Awaiting payment'));
    assert.ok(registrations.includes('Confirmed'));
    assert.ok(registrations.includes('Conference pass') && registrations.includes('General'));
    assert.ok(
      registrations.includes(scene.base.edition.name) && registrations.includes(scene.paid.edition.name),
    );
    assert.ok(registrations.includes(`href="${scene.pending.checkout_url.replaceAll('&', '&amp;')}"`));
    assert.ok(registrations.includes(`href="/checkout/${scene.pending.intent_id}"`));
    assert.match(registrations, /Seat held until<\/dt><dd>[^<]+ UTC<\/dd>/);
    const badgeLink = /href="(\/b\/[A-Za-z0-9_-]+)">Open the badge/.exec(registrations)?.[1];
    assert.ok(badgeLink, "the confirmed registration links its badge's page");
    const badgePage = await t().app.inject({ method: 'GET', url: badgeLink, headers: { accept: BROWSER } });
    assert.equal(badgePage.statusCode, 200);
    assert.ok(badgePage.body.includes('Ana Souza') && badgePage.body.includes('Valid badge'));

    const badges = sectionOf(page.body, 'badges');
    assert.equal([...badges.matchAll(/data-badge-id=/g)].length, 1, 'one active badge');
    assert.match(badges, /<svg class="qr"[^>]* role="img" aria-label="This badge&#39;s QR code: /);
    assert.ok(badges.includes(`href="${badgeLink}"`), 'the same badge page');

    const certificates = sectionOf(page.body, 'certificates');
    const id = scene.certificate.id;
    assert.deepEqual(
      [...certificates.matchAll(/data-certificate-id="([^"]+)"/g)].map((match) => match[1]),
      [id],
    );
    assert.ok(certificates.includes('Attendance') && certificates.includes('Valid certificate'));
    for (const link of [
      `/certificates/${id}/pdf`,
      `/certificates/${id}/credential`,
      `/verify/${scene.certificate.verification_code}`,
    ]) {
      assert.ok(certificates.includes(`href="${link}"`), link);
    }
    // The PDF link works with the same cookie.
    const pdf = await t().app.inject({ method: 'GET', url: `/certificates/${id}/pdf`, headers: { cookie } });
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');

    // The other person's things never show.
    for (const foreign of [
      scene.other.id,
      scene.other.email,
      'Bruno Lima',
      scene.othersCertificate.id,
      scene.othersCertificate.verification_code,
      scene.othersRegistration.id,
    ]) {
      assert.ok(!page.body.includes(foreign), `nothing of the other person: ${foreign}`);
    }
  });

  it('shows a revoked certificate as revoked, with its date and reason', async () => {
    const scene = await meScene(t, f, h, 'Carla Dias');
    const revoked = await t().post(`/certificates/${scene.certificate.id}/revoke`, {
      token: bench().owner.token,
      body: { reason: 'Issued by mistake' },
    });
    assert.equal(revoked.status, 200, revoked.text);
    const page = await open({ cookie: await devSessionOf(t(), scene.person) });
    const certificates = sectionOf(page.body, 'certificates');
    assert.ok(certificates.includes('Revoked certificate'));
    assert.match(certificates, /Revoked on<\/dt><dd>[^<]+<\/dd>/);
    assert.ok(certificates.includes('Issued by mistake'));
  });

  it('shows empty sections to a person with nothing yet', async () => {
    const person = await browserPerson(t(), 'Dora Nunes');
    const page = await open({ cookie: await devSessionOf(t(), person), 'accept-language': 'en' });
    assert.equal(page.statusCode, 200);
    assert.ok(sectionOf(page.body, 'registrations').includes('You have no registrations yet.'));
    assert.ok(sectionOf(page.body, 'badges').includes('You have no active badges.'));
    assert.ok(sectionOf(page.body, 'certificates').includes('You have no certificates yet.'));
  });

  it('asks anyone not signed in to sign in and come back, also with an ended or forged session', async () => {
    for (const headers of [{}, { cookie: 'convene_session=forged' }] as Record<string, string>[]) {
      const page = await open(headers);
      assert.equal(page.statusCode, 200);
      assert.equal(page.headers['cache-control'], 'no-store');
      assert.match(page.body, /data-signed-in="false"/);
      assert.match(page.body, /<h1>Sign in to see your page<\/h1>/);
      assert.ok(page.body.includes('href="/auth/sign-in?return_to=%2Fme"'));
      assert.ok(!page.body.includes('data-sign-out'));
    }
    // Signed out on the server, the cookie is worth nothing.
    const person = await browserPerson(t(), 'Eva Prado');
    const cookie = await devSessionOf(t(), person);
    const out = await t().post('/auth/sign-out', {
      headers: { cookie, origin: new URL(t().baseUrl).origin, 'x-convene-csrf': '1' },
    });
    assert.equal(out.status, 303);
    assert.match((await open({ cookie })).body, /data-signed-in="false"/);
  });

  it('takes a bearer token as signed in, without a sign-out button', async () => {
    const person = await browserPerson(t(), 'Fabio Reis');
    const page = await open({ authorization: `Bearer ${person.token}` });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /data-signed-in="true"/);
    assert.ok(page.body.includes(person.email));
    assert.ok(!page.body.includes('data-sign-out'));
    assert.ok(!page.body.includes('sign-out.js'));
  });

  it('speaks English, Brazilian Portuguese and Spanish by Accept-Language', async () => {
    const person = await browserPerson(t(), 'Gil Souto');
    const cookie = await devSessionOf(t(), person);
    const headings = {
      en: ['My page', 'Registrations', 'Badges', 'Certificates', 'Sign in to see your page'],
      'pt-BR': ['Minha página', 'Inscrições', 'Crachás', 'Certificados', 'Entre para ver sua página'],
      es: ['Mi página', 'Inscripciones', 'Credenciales', 'Certificados', 'Inicie sesión para ver su página'],
    };
    for (const [language, [title, ...rest]] of Object.entries(headings)) {
      const signedOut = rest.pop();
      const page = await open({ cookie, 'accept-language': language });
      assert.equal(page.headers['content-language'], language);
      assert.match(page.body, new RegExp(`<html lang="${language}">`));
      assert.ok(page.body.includes(`<h1>${title}</h1>`), `${language} h1`);
      for (const heading of rest)
        assert.match(page.body, new RegExp(`<h2 id="[a-z]+-title">${heading}</h2>`));
      const anonymous = await open({ 'accept-language': language });
      assert.ok(anonymous.body.includes(`<h1>${signedOut}</h1>`), `${language} signed out`);
    }
  });
});
