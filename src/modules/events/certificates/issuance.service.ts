/**
 * Certificate issuance (docs/reference/attendance.md): `POST /editions/{edition_id}/certificates/issue`
 * records a run and schedules a background job (kernel/jobs) keyed by the run's id; `GET /jobs/{job_id}`
 * shows its progress.
 *
 * The job issues in batches: each batch picks the next qualifying (template, person) pairs that
 * hold no certificate, allocates their status-list bits, inserts them and moves the run's counters,
 * all in one transaction. So a process killed mid-run leaves whole batches behind; the job's lease
 * runs out, any process claims it again, and it carries on from what is certified. The unique
 * (template, person) index makes a certificate impossible to issue twice, even by two runs at
 * once: a pair another run certified first counts as `skipped`. Each certificate records the
 * signatures active when its batch commits (its PDF shows them). One claim works for at most
 * SLICE_MS (and a quarter of the lease), then hands the job back to be claimed again at once.
 */
import { randomBytes } from 'node:crypto';
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { asNotFound } from '../../../kernel/http/as-not-found.ts';
import { conflict, validationError } from '../../../kernel/http/errors.ts';
import type { ClaimedJob } from '../../../kernel/jobs/jobs.repository.ts';
import { scheduleJob } from '../../../kernel/jobs/jobs.repository.ts';
import type { JobProgress } from '../../../kernel/jobs/progress.ts';
import type { JobHandler, JobRunner } from '../../../kernel/jobs/runner.ts';
import { queueMails } from '../../mail/index.ts';
import { listLiveTemplateIds } from '../certification-templates/index.ts';
import { requireEditionRole } from '../editions/index.ts';
import { activeSignatureIds } from '../signatures/index.ts';
import { MAX_SIGNATURES } from './certificate.signatures.ts';
import * as repo from './certificates.repository.ts';
import { ISSUANCE_EXAMPLE, IssuanceJob } from './certificates.schemas.ts';
import type { CertificateIssuanceRow } from './certificates.table.ts';
import { STATUS_LIST_SIZE, statusListIndex } from './verifiable-credentials/status-list.ts';

export const ISSUE_JOB = 'certificates.issue' as const;
const BATCH = 500;
/** At most this long per claim, and at most a quarter of the lease (JOBS_LEASE_MS). */
const SLICE_MS = 10_000;

/** A verification code: 128 random bits, base64url (22 characters). */
export const newVerificationCode = () => randomBytes(16).toString('base64url');

export function issuanceView(run: CertificateIssuanceRow) {
  return {
    id: run.id,
    kind: ISSUE_JOB,
    edition_id: run.edition_id,
    template_ids: run.template_ids,
    status: run.status,
    total: run.total,
    done: run.done,
    issued: run.issued,
    skipped: run.skipped,
    errors: run.errors,
    last_error: run.last_error,
    created_at: run.created_at.toISOString(),
    started_at: run.started_at?.toISOString() ?? null,
    finished_at: run.finished_at?.toISOString() ?? null,
  };
}

export async function startIssuance(
  db: Database,
  jobs: JobRunner,
  editionId: string,
  actor: Identity,
  body: { template_ids?: string[] | undefined },
) {
  const { edition } = await requireEditionRole(db, editionId, actor, 'admin');
  let templateIds: string[] | null = null;
  if (body.template_ids !== undefined) {
    templateIds = [...new Set(body.template_ids.map((id) => id.toLowerCase()))];
    const live = new Set(await listLiveTemplateIds(db, editionId));
    const unknown = templateIds.filter((id) => !live.has(id));
    if (unknown.length > 0) {
      throw validationError(
        [
          {
            field: 'template_ids',
            message: `not certification templates of this edition: ${unknown.join(', ')}`,
          },
        ],
        'Some templates are not templates of this edition',
      );
    }
  }
  // A certificate attests attendance: none before the edition has begun (docs/features.md, "Attendance and
  // certificates").
  if (edition.starts_at.getTime() > Date.now()) {
    throw conflict('edition_not_started', 'Certificates are issued once the edition has started', {
      starts_at: edition.starts_at.toISOString(),
    });
  }
  const run = await db.transaction(async (tx) => {
    const inserted = await repo.insertIssuance(tx, {
      id: uuidv7(),
      edition_id: editionId,
      template_ids: templateIds,
      requested_by: actor.userId,
      language: actor.language ?? 'en',
    });
    await scheduleJob(tx, { kind: ISSUE_JOB, key: inserted.id, runAt: new Date() });
    return inserted;
  });
  jobs.wake();
  return { job_id: run.id, job: issuanceView(run) };
}

/**
 * How `GET /jobs/{job_id}` shows a run (kernel/jobs/jobs.routes.ts): to owners and admins of its
 * edition's event; a run of an edition the caller cannot see does not exist for them (404).
 */
export function issuanceProgress(db: Database): JobProgress<typeof IssuanceJob> {
  return {
    module: 'events',
    schema: IssuanceJob,
    example: ISSUANCE_EXAMPLE,
    async read(jobId, actor) {
      const run = await repo.findIssuance(db, jobId);
      if (run === undefined) return undefined;
      await requireEditionRole(db, run.edition_id, actor, 'admin').catch(asNotFound('Job'));
      return issuanceView(run);
    },
  };
}

export function issueCertificatesJob(db: Database, leaseMs: number): JobHandler {
  const sliceMs = Math.min(SLICE_MS, leaseMs / 4);
  return async (job: ClaimedJob) => {
    const run = await repo.findIssuance(db, job.key);
    if (run === undefined || run.status === 'completed' || run.status === 'failed') return undefined;
    try {
      return await issueSlice(db, run, sliceMs);
    } catch (error) {
      await repo.recordIssuanceError(
        db,
        run.id,
        (error instanceof Error ? error.message : String(error)).slice(0, 1000),
      );
      throw error;
    }
  };
}

async function issueSlice(db: Database, run: CertificateIssuanceRow, sliceMs: number) {
  // Checked when the run was asked for, and again here: the edition's dates may have moved since
  // (a run queued, then the start moved later). Nothing is issued before the start.
  const edition = await repo.findRunEdition(db, run.edition_id);
  const startsAt = edition?.starts_at;
  if (edition === undefined || startsAt === undefined || startsAt.getTime() > Date.now()) {
    await repo.failIssuance(
      db,
      run.id,
      `edition_not_started: the edition starts at ${startsAt?.toISOString() ?? 'no date'}; certificates are issued once it has started`,
    );
    return undefined;
  }
  if (run.status === 'queued') {
    // What is already certified is counted as skipped once, when the run starts.
    const { total, certified } = await repo.countQualified(db, run.edition_id, run.template_ids);
    await repo.updateIssuance(db, run.id, {
      status: 'running',
      started_at: new Date(),
      total,
      done: certified,
      skipped: certified,
    });
  }
  const deadline = Date.now() + sliceMs;
  while (Date.now() < deadline) {
    // Each batch under the run's row lock, read and written in one transaction: should a slice
    // outlive its lease (a busy process) and the run be claimed again meanwhile, the two take
    // turns and the second finds the first's certificates, rather than counting a batch twice.
    const finished = await db.transaction(async (tx) => {
      await repo.lockIssuance(tx, run.id);
      const batch = await repo.nextUncertified(tx, run.edition_id, run.template_ids, BATCH);
      if (batch.length === 0) {
        await repo.completeIssuance(tx, run.id);
        return true;
      }
      const bits = await repo.allocateStatusBits(tx, batch.length, STATUS_LIST_SIZE);
      // The PDF shows the signatures active now, whatever happens to them later.
      const signatureIds = await activeSignatureIds(tx, run.edition_id, MAX_SIGNATURES);
      const inserted = await repo.insertCertificates(
        tx,
        batch.map((pending, index) => ({
          id: uuidv7(),
          template_id: pending.template_id,
          edition_id: run.edition_id,
          user_id: pending.user_id,
          holder_name: pending.holder_name,
          holder_email: pending.holder_email,
          verification_code: newVerificationCode(),
          status_list_id: bits[index]!.listId,
          status_list_index: statusListIndex(bits[index]!.serial),
          issuance_id: run.id,
          signature_ids: signatureIds,
        })),
      );
      await repo.countIssuedBatch(tx, run.id, batch.length, inserted.length);
      // Each holder is told, in the language of the request that started the run (docs/mail.md).
      await queueMails(
        tx,
        inserted.map((certificate) => ({
          kind: 'certificate_issued' as const,
          to: certificate.holder_email,
          language: run.language,
          eventId: edition.event_id,
          data: { certificate_id: certificate.id },
        })),
      );
      return false;
    });
    if (finished) return undefined;
  }
  return { retryInSeconds: 0 };
}
