/**
 * Certificates (docs/reference/attendance.md): who qualifies per template kind, issuing again, the job's
 * progress, reading, revoking and verifying, and who may do each.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { queryRows } from '../../../kernel/db/raw.ts';
import { useTeam } from '../events.fixtures.ts';
import { certificateFixtures } from './certificates.fixtures.ts';
import { findIssuance, insertIssuance } from './certificates.repository.ts';
import type { Certificate } from './certificates.schemas.ts';
import { ISSUE_JOB, issueCertificatesJob } from './issuance.service.ts';

describe('certificates', () => {
  const team = useTeam();
  const { t, owner, admin, staff, outsider } = team;
  const f = certificateFixtures(() => team);

  /** A published edition, three attendees (with names), and both kinds of template. */
  async function setup() {
    const base = await f.setupAttendance();
    const [ana, bo, cy] = await Promise.all(
      ['Ana Souza', 'Bo Lin', undefined].map((name) => f.attendee(base.edition.id, base.general.id, name)),
    );
    const p1 = await f.createProgram(base.edition.id, { name: 'Workshop A' });
    const p2 = await f.createProgram(base.edition.id, { name: 'Workshop B' });
    const attendance = await f.createTemplate(base.edition.id, 'edition_attendance', { name: 'Attendance' });
    const series = await f.createTemplate(base.edition.id, 'program_attendance', { name: 'Workshop series' });
    await f.link(series.id, p1.id);
    await f.link(series.id, p2.id);
    return { ...base, ana: ana!, bo: bo!, cy: cy!, p1, p2, attendance, series };
  }

  const holders = (certificates: Certificate[], templateId: string) =>
    certificates
      .filter((certificate) => certificate.template_id === templateId)
      .map((certificate) => certificate.user_id)
      .sort();

  it('qualifies people per template kind and issues one certificate per template and person', async () => {
    const s = await setup();
    await f.checkIn(s.edition.id, s.ana); // at the door
    await f.checkIn(s.edition.id, s.ana, s.p1.id);
    await f.checkIn(s.edition.id, s.ana, s.p2.id); // every linked program: the series too
    await f.checkIn(s.edition.id, s.bo, s.p1.id); // one program: attendance, not the series
    // cy never came

    const job = await f.issueAndWait(s.edition.id);
    assert.deepEqual(
      { total: job.total, done: job.done, issued: job.issued, skipped: job.skipped, errors: job.errors },
      { total: 3, done: 3, issued: 3, skipped: 0, errors: 0 },
    );
    const certificates = await f.certificatesOf(s.edition.id);
    assert.deepEqual(holders(certificates, s.attendance.id), [s.ana.id, s.bo.id].sort());
    assert.deepEqual(holders(certificates, s.series.id), [s.ana.id]);

    const anas = certificates.find((c) => c.user_id === s.ana.id && c.template_id === s.attendance.id)!;
    assert.equal(anas.holder_name, 'Ana Souza');
    assert.equal(anas.holder_email, s.ana.email);
    assert.equal(anas.status, 'valid');
    assert.equal(anas.edition_id, s.edition.id);
    assert.equal(anas.certificate_name, 'Attendance');
    assert.match(anas.verification_code, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(anas.verify_url, `${t.baseUrl}/verify/${anas.verification_code}`);
    assert.equal(new Set(certificates.map((c) => c.verification_code)).size, certificates.length);
  });

  it('issues again only to the newly qualified, and a template selection limits the run', async () => {
    const s = await setup();
    await f.checkIn(s.edition.id, s.ana);
    const first = await f.issueAndWait(s.edition.id);
    assert.equal(first.issued, 1);

    await f.checkIn(s.edition.id, s.cy);
    await f.checkIn(s.edition.id, s.cy, s.p1.id);
    await f.checkIn(s.edition.id, s.cy, s.p2.id);
    const onlySeries = await f.issueAndWait(s.edition.id, { template_ids: [s.series.id] });
    assert.deepEqual([onlySeries.total, onlySeries.issued, onlySeries.skipped], [1, 1, 0]);
    const all = await f.issueAndWait(s.edition.id);
    assert.deepEqual([all.total, all.issued, all.skipped], [3, 1, 2]);
    const again = await f.issueAndWait(s.edition.id);
    assert.deepEqual([again.total, again.issued, again.skipped], [3, 0, 3]);

    const certificates = await f.certificatesOf(s.edition.id);
    assert.equal(certificates.length, 3);
    assert.deepEqual(holders(certificates, s.attendance.id), [s.ana.id, s.cy.id].sort());
    // Two runs at once still issue each certificate once.
    await f.checkIn(s.edition.id, s.bo);
    const racing = await Promise.all([f.issue(s.edition.id), f.issue(s.edition.id)]);
    const jobs = await Promise.all(racing.map((id) => f.waitForJob(id)));
    assert.equal(jobs[0]!.issued + jobs[1]!.issued, 1);
    assert.equal((await f.certificatesOf(s.edition.id)).length, 4);
  });

  it('does not count check-ins of badges revoked since', async () => {
    const s = await setup();
    await f.checkIn(s.edition.id, s.ana);
    await f.checkIn(s.edition.id, s.bo);
    const registration = await f.registrationOf(s.edition.id, s.bo.id);
    expectOk(await f.cancel(s.bo, registration.id));
    const job = await f.issueAndWait(s.edition.id);
    assert.equal(job.issued, 1);
    assert.deepEqual(holders(await f.certificatesOf(s.edition.id), s.attendance.id), [s.ana.id]);
  });

  it('issues only once the edition has started: before starts_at a 409 names it, and nothing is queued', async () => {
    const ahead = await f.setupAttendance({ startsIn: 2 });
    await f.createTemplate(ahead.edition.id, 'edition_attendance');
    const issue = (token: string) => t.post(`/editions/${ahead.edition.id}/certificates/issue`, { token });
    // The role first: staff learn nothing about the edition's state.
    expectError(await issue(staff.token), 403, 'FORBIDDEN');
    const early = expectError(await issue(owner.token), 409, 'CONFLICT');
    assert.equal(early.reason, 'edition_not_started');
    assert.deepEqual(early.meta, { starts_at: ahead.edition.starts_at });
    assert.match(early.message, /started/);
    const [runs] = await queryRows<{ runs: number }>(
      t.db,
      sql`select count(*)::int as runs from certificate_issuances where edition_id = ${ahead.edition.id}`,
    );
    assert.equal(runs?.runs, 0);

    // Moved to have started an hour ago, the same edition issues.
    const startsAt = new Date(Date.now() - 3_600_000).toISOString();
    expectOk(
      await t.patch(`/events/${ahead.event.id}/editions/${ahead.edition.id}`, {
        token: owner.token,
        body: { starts_at: startsAt },
      }),
    );
    expectOk(await issue(owner.token), 202);
  });

  it('issues nothing from a run queued before the start moved later: the job checks the start again', async () => {
    const s = await setup();
    await f.checkIn(s.edition.id, s.ana);
    // A run accepted while the edition was under way, whose job has not run yet when an owner
    // moves the edition to tomorrow: written as the route writes it, its job then run by hand.
    const run = await insertIssuance(t.db, {
      id: uuidv7(),
      edition_id: s.edition.id,
      template_ids: null,
      requested_by: owner.id,
    });
    const startsAt = new Date(Date.now() + 24 * 3_600_000);
    expectOk(
      await t.patch(`/events/${s.event.id}/editions/${s.edition.id}`, {
        token: owner.token,
        body: {
          starts_at: startsAt.toISOString(),
          ends_at: new Date(startsAt.getTime() + 3_600_000).toISOString(),
        },
      }),
    );
    const job = { id: uuidv7(), kind: ISSUE_JOB, key: run.id, payload: {}, attempts: 1 };
    assert.equal(await issueCertificatesJob(t.db, 60_000)(job), undefined, 'the job ends');
    const ended = await findIssuance(t.db, run.id);
    assert.equal(ended?.status, 'failed');
    assert.match(ended?.last_error ?? '', /^edition_not_started/);
    assert.deepEqual(await f.certificatesOf(s.edition.id), []);
  });

  it('refuses unknown templates and lets only owners and admins issue and follow the job', async () => {
    const s = await setup();
    const other = await f.setupAttendance();
    const foreign = await f.createTemplate(other.edition.id, 'edition_attendance');
    const refused = expectError(
      await t.post(`/editions/${s.edition.id}/certificates/issue`, {
        token: owner.token,
        body: { template_ids: [foreign.id] },
      }),
      400,
      'VALIDATION_ERROR',
    );
    assert.equal(refused.fields?.[0]?.field, 'template_ids');
    expectError(
      await t.post(`/editions/${s.edition.id}/certificates/issue`, {
        token: owner.token,
        body: { template_ids: [] },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await t.post(`/editions/${s.edition.id}/certificates/issue`, { token: owner.token, body: { nope: 1 } }),
      400,
      'VALIDATION_ERROR',
    );
    for (const who of [staff, outsider, s.ana]) {
      expectError(
        await t.post(`/editions/${s.edition.id}/certificates/issue`, { token: who.token }),
        403,
        'FORBIDDEN',
      );
    }
    const jobId = await f.issue(s.edition.id, undefined, admin);
    await f.waitForJob(jobId);
    expectError(await t.get(`/jobs/${jobId}`, { token: staff.token }), 403, 'FORBIDDEN');
    expectError(await t.get(`/jobs/${jobId}`, { token: outsider.token }), 403, 'FORBIDDEN');
    expectError(
      await t.get('/jobs/01937a4e-0000-7000-8000-0000000000ff', { token: owner.token }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.get(`/editions/${s.edition.id}/certificates`, { token: staff.token }),
      403,
      'FORBIDDEN',
    );
  });

  it('shows a certificate to its holder and to owners and admins only', async () => {
    const s = await setup();
    await f.checkIn(s.edition.id, s.ana);
    await f.issueAndWait(s.edition.id);
    const [certificate] = await f.certificatesOf(s.edition.id);
    const url = `/certificates/${certificate!.id}`;
    for (const who of [s.ana, owner, admin]) {
      assert.deepEqual(
        expectOk(await t.get<Certificate>(url, { token: who.token }), 200, 'events'),
        certificate,
      );
    }
    expectError(await t.get(url, { token: staff.token }), 403, 'FORBIDDEN');
    for (const who of [s.bo, outsider]) expectError(await t.get(url, { token: who.token }), 404, 'NOT_FOUND');
    expectError(await t.get(url), 401, 'UNAUTHORIZED');

    const mine = await t.get<Certificate[]>('/users/me/certificates', { token: s.ana.token });
    assert.deepEqual(expectOk(mine), [certificate]);
    assert.equal(mine.body.pagination.total, 1);
    assert.deepEqual(
      expectOk(await t.get<Certificate[]>('/users/me/certificates', { token: s.bo.token })),
      [],
    );
  });

  it('finds certificates by a part of the holder’s name or e-mail, and by status', async () => {
    const s = await setup();
    for (const who of [s.ana, s.bo]) await f.checkIn(s.edition.id, who);
    await f.issueAndWait(s.edition.id, { template_ids: [s.attendance.id] });
    const all = await f.certificatesOf(s.edition.id);
    const list = async (query: string) =>
      expectOk(
        await t.get<Certificate[]>(`/editions/${s.edition.id}/certificates?${query}`, { token: owner.token }),
      ).map((certificate) => certificate.holder_name);
    assert.deepEqual(await list('q=SOUZA'), ['Ana Souza'], 'any case');
    const boEmail = all.find((certificate) => certificate.user_id === s.bo.id)!.holder_email;
    assert.deepEqual(await list(`q=${encodeURIComponent(boEmail.toUpperCase())}`), ['Bo Lin'], 'by e-mail');
    assert.deepEqual(await list('q=%25'), [], 'a % is a character, not a wildcard');
    const ana = all.find((certificate) => certificate.user_id === s.ana.id)!;
    expectOk(
      await t.post(`/certificates/${ana.id}/revoke`, { token: owner.token, body: { reason: 'Duplicate' } }),
    );
    assert.deepEqual(await list('status=revoked'), ['Ana Souza']);
    assert.deepEqual(await list('status=valid&q=souza'), []);
    for (const query of ['q=', 'status=lost', 'sort=name']) {
      expectError(
        await t.get(`/editions/${s.edition.id}/certificates?${query}`, { token: owner.token }),
        400,
        'VALIDATION_ERROR',
      );
    }
  });

  it('revokes with a reason, once, and verification says so', async () => {
    const s = await setup();
    await f.checkIn(s.edition.id, s.ana);
    await f.issueAndWait(s.edition.id);
    const [certificate] = await f.certificatesOf(s.edition.id);
    const verifyUrl = `/verify/${certificate!.verification_code}`;
    const valid = expectOk(await t.get<Record<string, unknown>>(verifyUrl), 200, 'events');
    assert.deepEqual(valid, {
      valid: true,
      status: 'valid',
      holder_name: 'Ana Souza',
      certificate_name: 'Attendance',
      edition_name: s.edition.name,
      event_name: s.event.name,
      issued_at: certificate!.issued_at,
      revoked_at: null,
      reason: null,
    });

    const revokeUrl = `/certificates/${certificate!.id}/revoke`;
    expectError(await t.post(revokeUrl, { token: s.ana.token, body: { reason: 'mine' } }), 403, 'FORBIDDEN');
    expectError(await t.post(revokeUrl, { token: staff.token, body: { reason: 'x' } }), 403, 'FORBIDDEN');
    expectError(await t.post(revokeUrl, { token: outsider.token, body: { reason: 'x' } }), 404, 'NOT_FOUND');
    expectError(await t.post(revokeUrl, { token: owner.token, body: {} }), 400, 'VALIDATION_ERROR');
    expectError(
      await t.post(revokeUrl, { token: owner.token, body: { reason: '' } }),
      400,
      'VALIDATION_ERROR',
    );
    const revoked = expectOk(
      await t.post<Certificate>(revokeUrl, { token: admin.token, body: { reason: 'Did not attend' } }),
    );
    assert.equal(revoked.status, 'revoked');
    assert.equal(revoked.reason, 'Did not attend');
    assert.ok(revoked.revoked_at !== null);
    expectError(await t.post(revokeUrl, { token: owner.token, body: { reason: 'again' } }), 409, 'CONFLICT');

    const verdict = expectOk(await t.get<Record<string, unknown>>(verifyUrl));
    assert.equal(verdict.valid, false);
    assert.equal(verdict.status, 'revoked');
    assert.equal(verdict.reason, 'Did not attend');
    assert.equal(verdict.revoked_at, revoked.revoked_at);
    // A revoked certificate is not issued again.
    const job = await f.issueAndWait(s.edition.id);
    assert.deepEqual([job.issued, job.skipped], [0, 1]);
  });

  it('answers 404 for unknown or malformed verification codes', async () => {
    for (const code of ['AAAAAAAAAAAAAAAAAAAAAA', 'no such code', '%00', 'x'.repeat(64)]) {
      expectError(await t.get(`/verify/${encodeURIComponent(code)}`), 404, 'NOT_FOUND');
    }
    expectError(await t.get(`/verify/${'x'.repeat(200)}`), 400, 'VALIDATION_ERROR');
  });
});
