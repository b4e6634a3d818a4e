/**
 * The pages (docs/reference/pages.md) as a browser receives them: HTML with the page CSP, in the language
 * asked for, every value escaped, no inline script, 404 pages for unknown codes and links, JSON
 * for API clients where a page has a JSON form. (What a person sees and does in a real browser is
 * `pages-*.browser.test.ts`.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { createTestApp } from '../../../../test/harness.ts';
import { certificateFixtures } from '../certificates/certificates.fixtures.ts';
import { useTeam } from '../events.fixtures.ts';
import { maskEmail } from '../holder-name.ts';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('people-facing pages', () => {
  const team = useTeam();
  const { t, owner } = team;
  const f = certificateFixtures(() => team);

  const open = (url: string, language?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { accept: BROWSER, ...(language === undefined ? {} : { 'accept-language': language }) },
    });
  const pathOf = (url: string) => new URL(url).pathname;

  it('shows a badge: holder, edition, ticket and validity, escaped, under the page CSP', async () => {
    const base = await f.setupAttendance();
    const ana = await f.attendee(base.edition.id, base.general.id, 'Ana <script>alert(1)</script>');
    const path = pathOf(await f.badgeUrlOf(base.edition.id, ana.id));
    const page = await open(path);
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'; style-src 'self'/);
    assert.doesNotMatch(String(page.headers['content-security-policy']), /unsafe-inline|upgrade-insecure/);
    assert.match(page.body, /<html lang="en">/);
    assert.ok(page.body.includes('Ana &lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(!page.body.includes('<script>'), 'no inline script');
    const scripts = [...page.body.matchAll(/<script[^>]*>/g)].map((match) => match[0]);
    assert.equal(scripts.length, 1, 'one script, from the service');
    assert.match(scripts[0] ?? '', /^<script src="\/assets\/badge\.js\?v=[A-Za-z0-9_-]{16}" defer>$/);
    for (const text of ['Valid badge', base.edition.name, 'General'])
      assert.ok(page.body.includes(text), text);

    // An API client (no Accept for HTML) gets the same data in the envelope.
    const json = expectOk(await t.get<{ holder_name: string; valid: boolean; ticket_name: string }>(path));
    assert.deepEqual(
      [json.holder_name, json.valid, json.ticket_name],
      ['Ana <script>alert(1)</script>', true, 'General'],
    );
    expectError(await t.get('/b/not-a-code'), 404, 'NOT_FOUND');

    const stylesheet = await t.app.inject({ method: 'GET', url: '/assets/convene.css' });
    assert.equal(stylesheet.statusCode, 200);
    assert.match(String(stylesheet.headers['content-type']), /^text\/css/);
    const href = /<link rel="stylesheet" href="([^"]+)">/.exec(page.body)?.[1] ?? '';
    assert.match(href, /^\/assets\/convene\.css\?v=[A-Za-z0-9_-]{16}$/, 'versioned for caches');
    const cached = await t.app.inject({
      method: 'GET',
      url: href,
      headers: { 'if-none-match': String(stylesheet.headers.etag) },
    });
    assert.equal(cached.statusCode, 304);
  });

  it('speaks the language of Accept-Language among en, pt-BR and es', async () => {
    const base = await f.setupAttendance();
    const ana = await f.attendee(base.edition.id, base.general.id, 'Ana');
    const path = pathOf(await f.badgeUrlOf(base.edition.id, ana.id));
    const cases: Array<[string, string, string]> = [
      ['pt-BR,pt;q=0.9,en;q=0.8', 'pt-BR', 'Crachá válido'],
      ['pt-PT', 'pt-BR', 'Crachá válido'],
      ['es-AR,es;q=0.9', 'es', 'Credencial válida'],
      ['fr-FR,fr;q=0.9', 'en', 'Valid badge'],
      ['de;q=0.9,es;q=0.5', 'es', 'Credencial válida'],
    ];
    for (const [header, language, text] of cases) {
      const page = await open(path, header);
      assert.equal(page.headers['content-language'], language, header);
      assert.ok(page.body.includes(`lang="${language}"`), header);
      assert.ok(page.body.includes(text), `${header}: ${text}`);
    }
  });

  it('says a revoked badge is revoked and why; an unknown code is a 404 page', async () => {
    const base = await f.setupAttendance();
    const bo = await f.attendee(base.edition.id, base.general.id);
    const path = pathOf(await f.badgeUrlOf(base.edition.id, bo.id));
    const registration = await f.registrationOf(base.edition.id, bo.id);
    expectOk(await f.cancel(bo, registration.id));
    const revoked = await open(path);
    assert.equal(revoked.statusCode, 200);
    assert.ok(revoked.body.includes('Revoked badge'));
    assert.ok(revoked.body.includes('The registration was cancelled.'));
    // No name in the token: the e-mail, masked, not in full.
    assert.ok(revoked.body.includes(maskEmail(bo.email)));
    assert.ok(!revoked.body.includes(bo.email));

    const unknown = await open('/b/not-a-code', 'es');
    assert.equal(unknown.statusCode, 404);
    assert.match(String(unknown.headers['content-type']), /^text\/html/);
    assert.ok(unknown.body.includes('Credencial no encontrada'));
  });

  it('shows the verification page to browsers and JSON to everyone else', async () => {
    const base = await f.setupAttendance();
    const ana = await f.attendee(base.edition.id, base.general.id, 'Ana Souza');
    await f.createTemplate(base.edition.id, 'edition_attendance', { name: 'Attendance' });
    await f.checkIn(base.edition.id, ana);
    await f.issueAndWait(base.edition.id);
    const [certificate] = await f.certificatesOf(base.edition.id);
    const path = `/verify/${certificate!.verification_code}`;

    const valid = await open(path, 'pt-BR');
    assert.equal(valid.statusCode, 200);
    for (const text of ['Certificado válido', 'Ana Souza', 'Attendance', base.edition.name]) {
      assert.ok(valid.body.includes(text), text);
    }
    assert.equal(
      expectOk(await t.get<{ valid: boolean }>(path)).valid,
      true,
      'curl and API clients get JSON',
    );

    expectOk(
      await t.post(`/certificates/${certificate!.id}/revoke`, {
        token: owner.token,
        body: { reason: 'Issued <by> mistake' },
      }),
    );
    const revoked = await open(path);
    for (const text of ['Revoked certificate', 'Issued &lt;by&gt; mistake']) {
      assert.ok(revoked.body.includes(text), text);
    }
    const unknown = await open('/verify/AAAAAAAAAAAAAAAAAAAAAA');
    assert.equal(unknown.statusCode, 404);
    assert.ok(unknown.body.includes('Certificate not found'));
  });

  it('serves the signing page for each state of a link, escaped, with the link redacted from logs', async () => {
    const base = await f.setupAttendance();
    const create = async (name: string) =>
      expectOk(
        await t.post<{ id: string; token: string; fulfill_url: string }>(
          `/editions/${base.edition.id}/signature-requests`,
          { token: owner.token, body: { signatory_name: name, signatory_email: 'sig@example.com' } },
        ),
        201,
      );
    const pending = await create('Marta <b>Ferreira</b>');
    const page = await open(pathOf(pending.fulfill_url) + new URL(pending.fulfill_url).search, 'es');
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
    assert.ok(page.body.includes('Marta &lt;b&gt;Ferreira&lt;/b&gt;'));
    for (const text of ['Solicitud de firma', 'Su firma', 'Rechazar la firma', base.edition.name])
      assert.ok(page.body.includes(text), text);
    assert.match(page.body, /<script src="\/assets\/sign\.js\?v=[A-Za-z0-9_-]{16}" defer><\/script>/);
    assert.ok(
      !page.body.includes(pending.token),
      'the token is read from the address, not written in the page',
    );

    expectOk(
      await t.post(`/signature-requests/deny?token=${pending.token}`, { body: { reason: 'Not <me>' } }),
    );
    const denied = await open(`/sign?token=${pending.token}`);
    assert.equal(denied.statusCode, 200);
    for (const text of ['Declined', 'Not &lt;me&gt;']) assert.ok(denied.body.includes(text), text);
    assert.ok(!denied.body.includes('<script'), 'nothing to do: no script');

    for (const [url, status, text] of [
      ['/sign?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 404, 'Link not valid'],
      ['/sign?token=%3Cscript%3E', 404, 'Link not valid'],
      ['/sign', 404, 'Link not valid'],
    ] as const) {
      const answer = await open(url);
      assert.equal(answer.statusCode, status, url);
      assert.ok(answer.body.includes(text), url);
    }

    const script = await t.app.inject({ method: 'GET', url: '/assets/sign.js' });
    assert.equal(script.statusCode, 200);
    assert.match(String(script.headers['content-type']), /^text\/javascript/);
    assert.match(String(script.headers['cache-control']), /max-age=86400/);
  });

  it("shows a person's badges to browsers and the JSON to API clients", async () => {
    const base = await f.setupAttendance();
    const ana = await f.attendee(base.edition.id, base.general.id, 'Ana');
    const page = await open(`/users/${ana.id}/badges`, 'pt-BR');
    assert.equal(page.statusCode, 200);
    for (const text of [
      'Crachás',
      'Atuais e próximos',
      base.edition.name,
      'General',
      'Nenhum crachá anterior.',
    ])
      assert.ok(page.body.includes(text), text);
    assert.ok(!page.body.includes(ana.email), 'no e-mails');
    const json = expectOk(await t.get<{ attendant: { current: unknown[] } }>(`/users/${ana.id}/badges`));
    assert.equal(json.attendant.current.length, 1);
  });

  it("shows no holder's e-mail on any public page or answer: the address is masked where a name is missing", async () => {
    // No `name` claim: everything that names Bo falls back to the e-mail, masked in public.
    const { holder: bo, certificate, ...base } = await f.certifiedAttendee();
    // Stored as issued (the e-mail as its holder name); the holder and organisers still see it.
    assert.equal(certificate.holder_name, bo.email);
    const masked = maskEmail(bo.email);
    assert.match(masked, /^a•••@e•••\.com$/);

    const badgePath = pathOf(await f.badgeUrlOf(base.edition.id, bo.id));
    const verifyPath = `/verify/${certificate.verification_code}`;
    const badge = expectOk(await t.get<{ holder_name: string }>(badgePath));
    assert.equal(badge.holder_name, masked);
    const verdict = expectOk(await t.get<{ holder_name: string }>(verifyPath));
    assert.equal(verdict.holder_name, masked);

    const localPart = bo.email.slice(0, bo.email.indexOf('@'));
    const domain = bo.email.slice(bo.email.indexOf('@') + 1);
    const publicReads = [
      badgePath,
      verifyPath,
      `/users/${bo.id}/badges`,
      `/editions/${base.edition.id}`,
      `/events/${base.event.id}`,
      `/events/${base.event.id}/editions`,
      `/editions/${base.edition.id}/signatures`,
      `/editions/${base.edition.id}/ticket-types`,
      `/editions/${base.edition.id}/programs`,
      `/editions/${base.edition.id}/certifications/templates`,
    ];
    for (const path of publicReads) {
      for (const language of ['en', 'pt-BR', 'es']) {
        const html = await open(path, language);
        const json = await t.get(path);
        for (const [kind, status, body] of [
          ['HTML', html.statusCode, html.body],
          ['JSON', json.status, json.text],
        ] as const) {
          assert.equal(status, 200, `${kind} ${path}`);
          for (const secret of [bo.email, localPart, domain]) {
            assert.ok(!body.toLowerCase().includes(secret.toLowerCase()), `${kind} ${path} shows ${secret}`);
          }
        }
      }
    }
    for (const path of [badgePath, verifyPath]) {
      assert.ok((await open(path)).body.includes(`<h1>${masked}</h1>`), path);
    }
  });

  it('answers an unknown checkout with a 404 page, and a 404 envelope to API clients', async () => {
    const unknown = await open('/checkout/01937a4e-0000-7000-8000-0000000000ff', 'pt-BR');
    assert.equal(unknown.statusCode, 404);
    assert.ok(unknown.body.includes('Pagamento não encontrado'));
    expectError(await t.get('/checkout/01937a4e-0000-7000-8000-0000000000ff'), 404, 'NOT_FOUND');
    expectError(await t.get('/checkout/not-an-id'), 400, 'VALIDATION_ERROR');
  });

  it('sends the HTTPS-only headers only when PUBLIC_BASE_URL is https, and every other security header always', async () => {
    const httpsOnly = ['cross-origin-opener-policy', 'strict-transport-security', 'origin-agent-cluster'];
    const always = [
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
      'cross-origin-resource-policy',
    ];
    const overHttp = await open('/b/not-a-code');
    for (const header of httpsOnly) assert.equal(overHttp.headers[header], undefined, `${header} over HTTP`);
    for (const header of always) assert.ok(overHttp.headers[header], header);
    const https = await createTestApp({ PUBLIC_BASE_URL: 'https://convene.example.org' });
    try {
      for (const url of ['/b/not-a-code', '/health', '/favicon.ico']) {
        const answer = await https.app.inject({ method: 'GET', url, headers: { accept: BROWSER } });
        assert.equal(answer.headers['cross-origin-opener-policy'], 'same-origin', url);
        assert.equal(answer.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains', url);
        assert.equal(answer.headers['origin-agent-cluster'], '?1', url);
        for (const header of always) assert.ok(answer.headers[header], `${url}: ${header}`);
      }
    } finally {
      await https.close();
    }
  });

  it('serves the icon as /favicon.ico and as SVG, linked by every page', async () => {
    const page = await open('/b/not-a-code');
    const links = [...page.body.matchAll(/<link rel="icon" href="([^"]+)"[^>]*>/g)].map((match) => match[1]);
    assert.equal(links.length, 2, 'an ICO and an SVG icon');
    assert.equal(links[0], '/favicon.ico');
    assert.match(links[1] ?? '', /^\/assets\/icon\.svg\?v=[A-Za-z0-9_-]{16}$/);
    const ico = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    assert.equal(ico.statusCode, 200);
    assert.equal(ico.headers['content-type'], 'image/x-icon');
    assert.equal(ico.headers['cache-control'], 'public, max-age=86400');
    assert.deepEqual([...ico.rawPayload.subarray(0, 6)], [0, 0, 1, 0, 1, 0], 'an ICO with one image');
    const cached = await t.app.inject({
      method: 'GET',
      url: '/favicon.ico',
      headers: { 'if-none-match': String(ico.headers.etag) },
    });
    assert.equal(cached.statusCode, 304);
    const svg = await t.app.inject({ method: 'GET', url: links[1] ?? '' });
    assert.equal(svg.statusCode, 200);
    assert.equal(svg.headers['content-type'], 'image/svg+xml');
    assert.match(svg.body, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it("shows a valid badge's QR code as inline SVG and the edition's venue, in the JSON too", async () => {
    const base = await f.setupAttendance();
    expectOk(
      await t.patch(`/events/${base.event.id}/editions/${base.edition.id}`, {
        token: owner.token,
        body: { location_name: 'Centro <de> Congressos' },
      }),
    );
    const ana = await f.attendee(base.edition.id, base.general.id, 'Ana');
    const url = await f.badgeUrlOf(base.edition.id, ana.id);
    const page = await open(pathOf(url));
    assert.match(page.body, /<svg class="qr"[^>]* role="img" aria-label="This badge&#39;s QR code"/);
    assert.match(page.body, /<path d="(M\d+ \d+h\d+v1h-\d+z)+" fill="#000"\/>/);
    assert.ok(page.body.includes('<dt>Venue</dt><dd>Centro &lt;de&gt; Congressos</dd>'));
    const json = expectOk(await t.get<{ badge_url: string; location_name: string }>(pathOf(url)));
    assert.deepEqual([json.badge_url, json.location_name], [url, 'Centro <de> Congressos']);
  });

  it('refuses a retry of an id that is no checkout (404, a page for a browser) and a form with fields (400)', async () => {
    const unknown = '/checkout/01937a4e-0000-7000-8000-0000000000ff/retry';
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const page = await t.app.inject({
      method: 'POST',
      url: unknown,
      headers: { ...form, accept: 'text/html' },
      payload: '',
    });
    assert.equal(page.statusCode, 404);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.ok(page.body.includes('<a href="/checkout/01937a4e-0000-7000-8000-0000000000ff">'));
    const api = await t.app.inject({ method: 'POST', url: unknown, headers: form, payload: '' });
    assert.equal(api.statusCode, 404);
    assert.equal(JSON.parse(api.body).error.code, 'NOT_FOUND');
    const withFields = await t.app.inject({ method: 'POST', url: unknown, headers: form, payload: 'a=1' });
    assert.equal(withFields.statusCode, 400);
    assert.deepEqual(JSON.parse(withFields.body).error.fields, [
      { field: 'body', message: 'this operation takes no body' },
    ]);
  });
});
