/**
 * A certificate's PDF is a document: it shows the signatures that were active when the certificate
 * was issued, whatever happens to them later; a revoked certificate's PDF carries a visible
 * "revoked" mark with the date and the reason; and each version (issued, revoked) is rendered once,
 * stored, and served from storage afterwards.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { expectOk } from '../../../../test/assertions.ts';
import type { TestUser } from '../../../../test/harness.ts';
import { hostileSignaturePng, readPdf, signaturePng } from '../../../../test/pdf.ts';
import { useTeam } from '../events.fixtures.ts';
import { formatDate } from './certificate.dates.ts';
import { certificateFixtures } from './certificates.fixtures.ts';
import type { Certificate } from './certificates.schemas.ts';

const drawnSignature = async () => `data:image/png;base64,${(await signaturePng()).toString('base64')}`;

describe('certificate documents', () => {
  const team = useTeam();
  const { t, owner } = team;
  const f = certificateFixtures(() => team);

  const getPdf = (certificateId: string, who: TestUser = owner, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'GET',
      url: `/certificates/${certificateId}/pdf`,
      headers: { authorization: `Bearer ${who.token}`, ...headers },
    });

  async function pdfText(certificateId: string, who: TestUser = owner): Promise<string> {
    const response = await getPdf(certificateId, who);
    assert.equal(response.statusCode, 200, response.body.slice(0, 300));
    const pdf = await readPdf(response.rawPayload);
    return pdf.texts.flat().join(' ').replace(/\s+/g, ' ');
  }

  /** The stored documents of a certificate: version and size, in version order. */
  async function storedVersions(certificateId: string) {
    const result = (await t.db.execute(
      sql`select version, length(pdf)::int as bytes from certificate_documents
           where certificate_id = ${certificateId} order by version`,
    )) as unknown as { rows: Array<{ version: string; bytes: number }> };
    return result.rows;
  }

  /** An edition with one attendee checked in and an attendance template; answers what was made. */
  async function editionWithAttendee(name: string) {
    const base = await f.setupAttendance();
    const person = await f.attendee(base.edition.id, base.general.id, name);
    await f.createTemplate(base.edition.id, 'edition_attendance');
    await f.checkIn(base.edition.id, person);
    return { ...base, person };
  }

  const certificateOf = async (editionId: string, userId: string): Promise<Certificate> => {
    const found = (await f.certificatesOf(editionId)).find((c) => c.user_id === userId);
    assert.ok(found, 'the certificate was issued');
    return found;
  };

  it('shows the signatures active at issuance, not those given or revoked later', async () => {
    const { edition, general, person } = await editionWithAttendee('Ana Lima');
    const marta = await f.sign(edition.id, 'Marta Ferreira', 'Programme chair', await drawnSignature());
    await f.sign(edition.id, 'Marco Rossi', 'Organiser', 'https://signatures.example/marco.png');
    await f.issueAndWait(edition.id);
    const first = await certificateOf(edition.id, person.id);

    // After issuance: Marta revokes hers and Nadia signs. Nobody has asked for the PDF yet.
    expectOk(await t.post(`/signatures/revoke?token=${marta.revoke_token}`));
    await f.sign(edition.id, 'Nadia Novak', 'Dean', await drawnSignature());

    const text = await pdfText(first.id, person);
    for (const name of ['Marta Ferreira', 'Programme chair', 'Marco Rossi']) {
      assert.ok(text.includes(name), `the first certificate shows "${name}": ${text}`);
    }
    assert.ok(!text.includes('Nadia Novak'), 'a signature given after issuance is not on it');

    // Someone certified now gets the set active now.
    const late = await f.attendee(edition.id, general.id, 'Bruno Costa');
    await f.checkIn(edition.id, late);
    await f.issueAndWait(edition.id);
    const second = await pdfText((await certificateOf(edition.id, late.id)).id, late);
    assert.ok(second.includes('Nadia Novak') && second.includes('Marco Rossi'), second);
    assert.ok(!second.includes('Marta Ferreira'), 'a signature revoked before issuance is not on it');
  });

  it('draws what was stored before: large images normalised, older certificates with the set of their day', async () => {
    const { edition, person } = await editionWithAttendee('Elsa Moura');
    const marta = await f.sign(edition.id, 'Marta Ferreira', 'Programme chair', await drawnSignature());
    // Stored before signatures were normalised: the planted image as it came.
    const planted = `data:image/png;base64,${hostileSignaturePng(614).toString('base64')}`;
    await t.db.execute(sql`update signatures set image_url = ${planted} where id = ${marta.id}`);
    await f.issueAndWait(edition.id);
    const certificate = await certificateOf(edition.id, person.id);
    // Issued before the set was recorded; since then Marta revoked hers and Nadia signed.
    await t.db.execute(sql`update certificates set signature_ids = null where id = ${certificate.id}`);
    expectOk(await t.post(`/signatures/revoke?token=${marta.revoke_token}`));
    await f.sign(edition.id, 'Nadia Novak', 'Dean', await drawnSignature());

    const response = await getPdf(certificate.id, person);
    assert.equal(response.statusCode, 200);
    const text = (await readPdf(response.rawPayload)).texts.flat().join(' ');
    assert.ok(text.includes('Marta Ferreira') && !text.includes('Nadia Novak'), text);
    const sizes = [...response.rawPayload.toString('latin1').matchAll(/\/Width (\d+)\s*\/Height (\d+)/g)].map(
      (match) => `${match[1]}x${match[2]}`,
    );
    assert.ok(sizes.includes('200x200'), `the image drawn normalised (${sizes})`);
    assert.ok(!sizes.includes('614x614'), `not as stored (${sizes})`);
  });

  it("marks a revoked certificate's PDF with the date and the reason", async () => {
    const { edition, person } = await editionWithAttendee('Carla Dias');
    await f.issueAndWait(edition.id);
    const certificate = await certificateOf(edition.id, person.id);
    assert.ok(!(await pdfText(certificate.id, person)).includes('REVOKED'), 'a valid one is not marked');

    const reason = 'Issued by mistake: the attendee left on the first morning';
    const revoked = expectOk(
      await t.post<Certificate>(`/certificates/${certificate.id}/revoke`, {
        token: owner.token,
        body: { reason },
      }),
    );
    const text = await pdfText(certificate.id, person);
    assert.ok(text.includes('REVOKED'), `the mark: ${text}`);
    assert.ok(
      text.includes(`Revoked on ${formatDate(new Date(revoked.revoked_at!))}`),
      `the date of the revocation: ${text}`,
    );
    assert.ok(text.includes(reason), `the reason: ${text}`);
    assert.ok(text.includes('Carla Dias'), 'the certificate is still there under the mark');
  });

  it('renders each version once, stores it and serves the stored bytes after', async () => {
    const { edition, person } = await editionWithAttendee('Duarte Reis');
    await f.issueAndWait(edition.id);
    const certificate = await certificateOf(edition.id, person.id);
    // Issuance renders nothing itself. The certificate's mail attaches the same stored document, and
    // the development mailbox may already have sent it (rendering the issued version) by now.
    const atIssuance = await storedVersions(certificate.id);
    assert.ok(
      atIssuance.length === 0 || (atIssuance.length === 1 && atIssuance[0]?.version === 'issued'),
      `nothing but the mail's rendering of the issued version (${JSON.stringify(atIssuance)})`,
    );

    // Concurrent first requests: one document, the same bytes for all.
    const firsts = await Promise.all([
      getPdf(certificate.id),
      getPdf(certificate.id, person),
      getPdf(certificate.id),
    ]);
    for (const response of firsts) assert.equal(response.statusCode, 200);
    const issued = firsts[0]!.rawPayload;
    for (const response of firsts) assert.ok(response.rawPayload.equals(issued), 'the same document');
    assert.deepEqual(await storedVersions(certificate.id), [{ version: 'issued', bytes: issued.length }]);
    const etag = firsts[0]!.headers.etag;
    assert.match(String(etag), /^"[\w-]+"$/, 'a strong ETag');
    assert.equal(firsts[0]!.headers['cache-control'], 'private, no-cache');

    // Served from storage: what is stored is what is sent, not a new rendering.
    const marker = Buffer.from('%stored copy\n');
    await t.db.execute(
      sql`update certificate_documents set pdf = pdf || ${marker} where certificate_id = ${certificate.id}`,
    );
    const again = await getPdf(certificate.id, person);
    assert.ok(again.rawPayload.equals(Buffer.concat([issued, marker])), 'the stored bytes');
    // The ETag names the stored document: a client holding it is told nothing changed.
    const cached = await getPdf(certificate.id, person, { 'if-none-match': String(etag) });
    assert.equal(cached.statusCode, 304);
    assert.equal(cached.rawPayload.length, 0);

    // Revoking makes a second version, rendered once too; the first stays as it was.
    expectOk(
      await t.post(`/certificates/${certificate.id}/revoke`, {
        token: owner.token,
        body: { reason: 'Test' },
      }),
    );
    const revoked = await getPdf(certificate.id, person);
    assert.equal(revoked.statusCode, 200);
    assert.ok(!revoked.rawPayload.equals(again.rawPayload), 'a new document');
    assert.notEqual(revoked.headers.etag, etag);
    assert.equal((await getPdf(certificate.id, person, { 'if-none-match': String(etag) })).statusCode, 200);
    assert.ok((await getPdf(certificate.id)).rawPayload.equals(revoked.rawPayload));
    assert.deepEqual(
      (await storedVersions(certificate.id)).map((row) => row.version),
      ['issued', 'revoked'],
    );
  });
});
