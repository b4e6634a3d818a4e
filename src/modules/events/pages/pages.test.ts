/**
 * The badge and verification pages (contract 10) as a browser receives them: HTML with the page
 * CSP, in the language asked for, every value escaped, and 404 pages for unknown codes. (What a
 * person sees in a real browser is issue 15's browser tests.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { certificateFixtures } from '../certificates/certificates.fixtures.ts';
import { useTeam } from '../events.fixtures.ts';
import { maskEmail } from './badge.page.ts';

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
    assert.ok(!page.body.includes('<script>'), 'no script of any kind on the page');
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
    assert.ok(page.body.includes('href="/assets/convene.css"'));
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
});
