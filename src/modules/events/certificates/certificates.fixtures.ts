/**
 * Shared setup of the certificate tests (not a test file itself): templates, links, issuing and
 * waiting for the job, on top of the attendance fixtures (editions, attendees, badge scans).
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { expectOk } from '../../../../test/assertions.ts';
import type { TestUser } from '../../../../test/harness.ts';
import type { CertificationTemplate } from '../certification-templates/certification-templates.schemas.ts';
import { attendanceFixtures } from '../check-ins/check-ins.fixtures.ts';
import type { Team } from '../events.fixtures.ts';
import type { Certificate } from './certificates.schemas.ts';

export interface IssuanceJobView {
  id: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  total: number;
  done: number;
  issued: number;
  skipped: number;
  errors: number;
}

export function certificateFixtures(getTeam: () => Team) {
  const app = () => getTeam().t;
  const attendance = attendanceFixtures(getTeam);

  async function createTemplate(
    editionId: string,
    kind: 'edition_attendance' | 'program_attendance',
    fields: Record<string, unknown> = {},
  ) {
    return expectOk(
      await app().post<CertificationTemplate>(`/editions/${editionId}/certifications/templates`, {
        token: getTeam().owner.token,
        body: { kind, name: kind === 'edition_attendance' ? 'Attendance' : 'Workshop series', ...fields },
      }),
      201,
      'events',
    );
  }

  async function link(templateId: string, programId: string) {
    expectOk(
      await app().post(`/certifications/templates/${templateId}/link`, {
        token: getTeam().owner.token,
        body: { program_id: programId },
      }),
      201,
    );
  }

  /** Starts an issuance run and answers its job id. */
  async function issue(editionId: string, body?: Record<string, unknown>, by: TestUser = getTeam().owner) {
    const response = await app().post<{ job_id: string }>(`/editions/${editionId}/certificates/issue`, {
      token: by.token,
      ...(body === undefined ? {} : { body }),
    });
    return expectOk(response, 202, 'events').job_id;
  }

  /** Polls the job until it is completed (or fails the test after `timeoutMs`). */
  async function waitForJob(jobId: string, timeoutMs = 30_000): Promise<IssuanceJobView> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = expectOk(
        await app().get<IssuanceJobView>(`/jobs/${jobId}`, { token: getTeam().owner.token }),
        200,
        'events',
      );
      if (job.status === 'completed') return job;
      assert.notEqual(job.status, 'failed', `job ${jobId} failed`);
      if (Date.now() > deadline) assert.fail(`job ${jobId} still ${job.status} after ${timeoutMs} ms`);
      await sleep(50);
    }
  }

  async function issueAndWait(editionId: string, body?: Record<string, unknown>) {
    return waitForJob(await issue(editionId, body));
  }

  async function certificatesOf(editionId: string) {
    return expectOk(
      await app().get<Certificate[]>(`/editions/${editionId}/certificates?limit=100`, {
        token: getTeam().owner.token,
      }),
      200,
      'events',
    );
  }

  /** Checks `person` in at the edition door (or at `programId`). */
  async function checkIn(editionId: string, person: TestUser, programId?: string) {
    const code = await attendance.badgeUrlOf(editionId, person.id);
    const answer = expectOk(
      await attendance.scan(editionId, {
        code,
        ...(programId === undefined ? {} : { program_id: programId }),
      }),
    );
    assert.equal(answer.result, 'ok');
  }

  /** A signature for the edition: a request by the owner, fulfilled with `imageUrl` (201). */
  /** Signatories so far: their e-mails are numbered (a name in any script need not make one). */
  let signatories = 0;
  async function sign(editionId: string, name: string, title: string, imageUrl: string) {
    signatories += 1;
    const request = expectOk(
      await app().post<{ token: string }>(`/editions/${editionId}/signature-requests`, {
        token: getTeam().owner.token,
        body: {
          signatory_name: name,
          signatory_title: title,
          signatory_email: `signatory-${signatories}@example.com`,
        },
      }),
      201,
    );
    return expectOk(
      await app().post<{ id: string; revoke_token: string }>(
        `/signature-requests/fulfill?token=${request.token}`,
        { body: { image_url: imageUrl } },
      ),
      201,
    );
  }

  /**
   * An edition under way with one attendee (named when `name` is given; else public artefacts
   * fall back to the e-mail) checked in, a certificate-of-attendance template, and their certificate.
   */
  async function certifiedAttendee(name?: string, templateFields: Record<string, unknown> = {}) {
    const base = await attendance.setupAttendance();
    const holder = await attendance.attendee(base.edition.id, base.general.id, name);
    const template = await createTemplate(base.edition.id, 'edition_attendance', templateFields);
    await checkIn(base.edition.id, holder);
    await issueAndWait(base.edition.id);
    const certificate = (await certificatesOf(base.edition.id)).find((item) => item.user_id === holder.id);
    assert.ok(certificate !== undefined, 'the attendee holds a certificate');
    return { ...base, holder, template, certificate };
  }

  return {
    ...attendance,
    createTemplate,
    link,
    issue,
    waitForJob,
    issueAndWait,
    certificatesOf,
    checkIn,
    sign,
    certifiedAttendee,
  };
}
