/**
 * A certificate's PDF through the route (docs/reference/attendance.md), read as a person's viewer reads it:
 * pdf.js extracts the text and the QR code is decoded from the rendered page. The edition has two active
 * signatures (a drawn PNG and a hosted image URL, which is never fetched) and a revoked one, which must not
 * appear.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { readPdf, signaturePng, WORLD_NAMES } from '../../../../test/pdf.ts';
import { useTeam } from '../events.fixtures.ts';
import { maskEmail } from '../holder-name.ts';
import { formatDateRange } from './certificate.dates.ts';
import { certificateFixtures } from './certificates.fixtures.ts';

/** A signature drawn on a pad, as a PNG data URL. */
const drawnSignature = async () => `data:image/png;base64,${(await signaturePng()).toString('base64')}`;

describe('certificate PDF', () => {
  const team = useTeam();
  const { t, owner, staff, outsider } = team;
  const f = certificateFixtures(() => team);
  const sign = f.sign;

  it('renders the holder, edition, event, signatures and a QR code of the verify URL', async () => {
    const base = await f.setupAttendance();
    const ana = await f.attendee(base.edition.id, base.general.id, 'José Ñúñez');
    await f.createTemplate(base.edition.id, 'edition_attendance', {
      name: 'Attendance',
      description: 'Forty hours of talks and workshops',
      design_data: { title: 'Certificate of Attendance', accent_color: '#0b3d91' },
    });
    await sign(base.edition.id, 'Marta Ferreira', 'Programme chair', await drawnSignature());
    await sign(base.edition.id, 'Marco Rossi', 'Organiser', 'https://signatures.example/marco.png');
    const gone = await sign(base.edition.id, 'Revoked Person', 'Former chair', await drawnSignature());
    expectOk(await t.post(`/signatures/revoke?token=${gone.revoke_token}`));
    await f.checkIn(base.edition.id, ana);
    await f.issueAndWait(base.edition.id);
    const [certificate] = await f.certificatesOf(base.edition.id);
    assert.ok(certificate !== undefined);

    const response = await t.app.inject({
      method: 'GET',
      url: `/certificates/${certificate.id}/pdf`,
      headers: { authorization: `Bearer ${ana.token}` },
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/pdf');
    assert.equal(
      response.headers['content-disposition'],
      `inline; filename="certificate-${certificate.id}.pdf"`,
    );
    const pdf = await readPdf(response.rawPayload);
    assert.equal(pdf.pageCount, 1);
    const text = pdf.texts[0]!.join(' ').replace(/\s+/g, ' ');
    for (const expected of [
      'Certificate of Attendance',
      'José Ñúñez',
      base.edition.name,
      'Forty hours of talks and workshops',
      'Marta Ferreira',
      'Programme chair',
      'Marco Rossi',
      'Organiser',
      formatDateRange(new Date(base.edition.starts_at), new Date(base.edition.ends_at)), // the edition's dates
      certificate.verification_code,
    ]) {
      assert.ok(text.includes(expected), `the page shows "${expected}": ${text}`);
    }
    assert.ok(!text.includes('Revoked Person'), 'a revoked signature is not drawn');
    assert.equal(await pdf.qr(0), certificate.verify_url);
    assert.match(
      response.rawPayload.toString('latin1'),
      /\/Subtype \/Image/,
      'the drawn signature is an image',
    );

    // Owners see it too; strangers do not.
    const asOwner = await t.app.inject({
      method: 'GET',
      url: `/certificates/${certificate.id}/pdf`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    assert.equal(asOwner.statusCode, 200);
    expectError(
      await t.get(`/certificates/${certificate.id}/pdf`, { token: outsider.token }),
      404,
      'NOT_FOUND',
    );
    expectError(await t.get(`/certificates/${certificate.id}/pdf`), 401, 'UNAUTHORIZED');
  });

  it('prints a holder without a name as their e-mail masked, never the address', async () => {
    const { holder: bo, certificate } = await f.certifiedAttendee();
    const response = await t.app.inject({
      method: 'GET',
      url: `/certificates/${certificate.id}/pdf`,
      headers: { authorization: `Bearer ${bo.token}` },
    });
    assert.equal(response.statusCode, 200);
    const text = (await readPdf(response.rawPayload)).texts[0]!.join(' ').replace(/\s+/g, ' ');
    assert.ok(text.includes(maskEmail(bo.email)), `the masked address: ${text}`);
    assert.ok(!text.includes(bo.email.slice(0, bo.email.indexOf('@'))), `no part of the address: ${text}`);
    assert.ok(!text.includes('example.com'), `no part of the address: ${text}`);
  });

  it('prints holder and signatory names in any script, read back exactly by pdf.js', async () => {
    const base = await f.setupAttendance();
    const holders = [
      WORLD_NAMES.polishAndJapanese,
      WORLD_NAMES.arabic,
      WORLD_NAMES.korean,
      WORLD_NAMES.greek,
    ];
    const people = [];
    for (const name of holders) people.push(await f.attendee(base.edition.id, base.general.id, name));
    await f.createTemplate(base.edition.id, 'edition_attendance', { name: 'Attendance' });
    await sign(base.edition.id, WORLD_NAMES.cyrillic, WORLD_NAMES.hebrew, 'https://signatures.example/y.png');
    for (const person of people) await f.checkIn(base.edition.id, person);
    await f.issueAndWait(base.edition.id);
    const certificates = await f.certificatesOf(base.edition.id);
    for (const [index, person] of people.entries()) {
      const certificate = certificates.find((one) => one.user_id === person.id);
      assert.ok(certificate !== undefined, `${holders[index]} has a certificate`);
      const response = await t.app.inject({
        method: 'GET',
        url: `/certificates/${certificate.id}/pdf`,
        headers: { authorization: `Bearer ${person.token}` },
      });
      assert.equal(response.statusCode, 200);
      const lines = (await readPdf(response.rawPayload)).lines[0]!;
      assert.ok(lines.includes(holders[index]!), `${holders[index]}: ${JSON.stringify(lines)}`);
      // The signatory's name in the script font's place (a fallback covers Cyrillic) and in print.
      assert.equal(lines.filter((line) => line === WORLD_NAMES.cyrillic).length, 2, JSON.stringify(lines));
      assert.ok(lines.includes(WORLD_NAMES.hebrew), JSON.stringify(lines));
    }
  });

  it('previews a template as a certificate, with unsaved edits, storing nothing', async () => {
    const base = await f.setupAttendance();
    const template = await f.createTemplate(base.edition.id, 'edition_attendance', {
      name: 'Attendance',
      design_data: { title: 'Saved title' },
    });
    await sign(base.edition.id, 'Marta Ferreira', 'Programme chair', await drawnSignature());
    const url = `/certifications/templates/${template.id}/preview`;
    const preview = async (body: unknown, token = owner.token) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });

    const saved = await preview({});
    assert.equal(saved.statusCode, 200, saved.body);
    assert.equal(saved.headers['content-type'], 'application/pdf');
    assert.equal(saved.headers['cache-control'], 'no-store');
    const savedText = (await readPdf(saved.rawPayload)).texts[0]!.join(' ').replace(/\s+/g, ' ');
    for (const expected of ['Saved title', 'Ana Souza', base.edition.name, 'Marta Ferreira', 'PREVIEW']) {
      assert.ok(savedText.includes(expected), `${expected} in ${savedText}`);
    }

    const edited = await preview({
      design_data: { title: 'Edited title' },
      description: 'Two days of talks',
      holder_name: 'José Ñúñez',
    });
    assert.equal(edited.statusCode, 200);
    const editedText = (await readPdf(edited.rawPayload)).texts[0]!.join(' ').replace(/\s+/g, ' ');
    for (const expected of ['Edited title', 'Two days of talks', 'José Ñúñez']) {
      assert.ok(editedText.includes(expected), `${expected} in ${editedText}`);
    }
    assert.ok(!editedText.includes('Saved title'));
    // Nothing saved: the template is as it was.
    const read = expectOk(await t.get<{ design_data: unknown }>(`/certifications/templates/${template.id}`));
    assert.deepEqual(read.design_data, { title: 'Saved title' });

    // Who may, and what is refused.
    // The template is public on a published edition: anyone else may see it exists, not draw it.
    for (const who of [staff, outsider]) assert.equal((await preview({}, who.token)).statusCode, 403);
    const anonymous = await t.post(url, { body: {} });
    expectError(anonymous, 401, 'UNAUTHORIZED');
    expectError(await t.post(url, { token: owner.token, body: { colour: 'red' } }), 400, 'VALIDATION_ERROR');
    expectError(
      await t.post(url, { token: owner.token, body: { design_data: { blob: 'x'.repeat(270_000) } } }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await t.post('/certifications/templates/01937a51-3333-7000-8000-000000000099/preview', {
        token: owner.token,
        body: {},
      }),
      404,
      'NOT_FOUND',
    );
    expectOk(await t.delete(`/certifications/templates/${template.id}`, { token: owner.token }));
    expectError(await t.post(url, { token: owner.token, body: {} }), 404, 'NOT_FOUND');
  });
});
