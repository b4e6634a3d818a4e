/**
 * Replaying an endpoint's deliveries (docs/reference/webhooks.md, "Replaying deliveries"):
 * `POST /webhooks/endpoints/{endpoint_id}/replay` records a replay and schedules a background job
 * (kernel/jobs) keyed by its id; `GET /jobs/{job_id}` shows its progress.
 *
 * The job works in batches, each one transaction under the replay's row lock: the next matching
 * deliveries after the cursor are made due now (the manual retry's rules: never one an attempt
 * holds) and the cursor moves past them. So a process killed mid-replay loses at most the batch in
 * hand, uncommitted; the job's lease runs out, any process claims it again and carries on after the
 * last committed batch. Each delivery is queued at most once per replay. One claim works for at most
 * SLICE_MS (and a quarter of the lease), then hands the job back to be claimed again at once.
 */
import type { Identity } from '../../../../kernel/auth/identity.ts';
import type { Database } from '../../../../kernel/db/client.ts';
import { uuidv7 } from '../../../../kernel/db/ids.ts';
import { conflict, validationError } from '../../../../kernel/http/errors.ts';
import type { ClaimedJob } from '../../../../kernel/jobs/jobs.repository.ts';
import { scheduleJob } from '../../../../kernel/jobs/jobs.repository.ts';
import type { JobProgress } from '../../../../kernel/jobs/progress.ts';
import type { JobHandler, JobResult } from '../../../../kernel/jobs/runner.ts';
import { requireEndpoint } from '../endpoints/endpoints.service.ts';
import { isEndpointEnabledNow } from '../endpoints/index.ts';
import * as repo from './replays.repository.ts';
import { REPLAY_EXAMPLE, REPLAY_JOB, type ReplayBody, ReplayJob } from './replays.schemas.ts';
import type { WebhookReplayRow } from './replays.table.ts';

/** Deliveries queued per transaction. */
export const REPLAY_BATCH = 200;
/** At most this long per claim, and at most a quarter of the lease (JOBS_LEASE_MS). */
const SLICE_MS = 10_000;

export interface ReplayDeps {
  db: Database;
  /** Wakes this process's job runner once a replay is scheduled. */
  wakeJobs(): void;
}

export function replayView(replay: WebhookReplayRow): ReplayJob {
  return {
    id: replay.id,
    kind: REPLAY_JOB,
    endpoint_id: replay.endpoint_id,
    since: replay.since.toISOString(),
    until: replay.until.toISOString(),
    delivery_status: replay.selection,
    status: replay.status,
    total: replay.total,
    done: replay.done,
    queued: replay.queued,
    skipped: replay.skipped,
    last_error: replay.last_error,
    created_at: replay.created_at.toISOString(),
    started_at: replay.started_at?.toISOString() ?? null,
    finished_at: replay.finished_at?.toISOString() ?? null,
  };
}

/**
 * Records the replay and schedules its job, in one transaction. The owner's endpoint only (anyone
 * else's is the 404 of an unknown id, before any state is looked at); `until` before `since` is a
 * 400 naming `until`; a disabled endpoint is a 409 (`endpoint_disabled`), as for a retry: the worker
 * would fail every replayed delivery without an attempt.
 */
export async function startReplay(deps: ReplayDeps, endpointId: string, actor: Identity, body: ReplayBody) {
  const endpoint = await requireEndpoint(deps.db, endpointId, actor);
  const since = new Date(body.since);
  const until = body.until === undefined ? new Date() : new Date(body.until);
  if (since.getTime() > until.getTime()) {
    throw validationError(
      [
        {
          field: body.until === undefined ? 'since' : 'until',
          message:
            body.until === undefined
              ? 'must not be in the future (until defaults to now)'
              : 'must not be earlier than since',
        },
      ],
      'The replay’s window ends before it starts',
    );
  }
  if (!endpoint.enabled) {
    throw conflict(
      'endpoint_disabled',
      'The endpoint is disabled, so replayed deliveries would be refused: enable it first ' +
        `(PATCH /webhooks/endpoints/${endpoint.id} with enabled: true), then replay`,
      { endpoint_id: endpoint.id },
    );
  }
  const replay = await deps.db.transaction(async (tx) => {
    const inserted = await repo.insertReplay(tx, {
      id: uuidv7(),
      endpoint_id: endpoint.id,
      wallet_id: endpoint.wallet_id,
      requested_by: actor.userId,
      since,
      until,
      selection: body.status ?? 'failed',
    });
    await scheduleJob(tx, { kind: REPLAY_JOB, key: inserted.id, runAt: new Date() });
    return inserted;
  });
  deps.wakeJobs();
  return { job_id: replay.id, job: replayView(replay) };
}

/**
 * How `GET /jobs/{job_id}` shows a replay (kernel/jobs/jobs.routes.ts): to the owner of the
 * endpoint's wallet; to anyone else it does not exist (404), like the endpoint itself.
 */
export function replayProgress(db: Database): JobProgress<typeof ReplayJob> {
  return {
    module: 'payments',
    schema: ReplayJob,
    example: REPLAY_EXAMPLE,
    async read(jobId, actor) {
      const replay = await repo.findReplayOfOwner(db, jobId, actor.userId);
      return replay === undefined ? undefined : replayView(replay);
    },
  };
}

/**
 * The replay job. `wakeWorkers` (the outbox's wake-up: this process's worker directly, the others
 * by a paced NOTIFY) is called after each batch that queued deliveries has committed, so a woken
 * worker sees them; a lost wake-up is covered by the workers' poll.
 */
export function replayJob(db: Database, leaseMs: number, wakeWorkers: () => void): JobHandler {
  const sliceMs = Math.min(SLICE_MS, leaseMs / 4);
  return async (job: ClaimedJob) => {
    const replay = await repo.findReplay(db, job.key);
    if (replay === undefined || replay.status === 'completed' || replay.status === 'failed') return undefined;
    try {
      return await replaySlice(db, replay, sliceMs, wakeWorkers);
    } catch (error) {
      // Shown at GET /jobs/{job_id} while the runner retries the job (it resumes at the cursor).
      await repo
        .updateReplay(db, replay.id, {
          last_error: (error instanceof Error ? error.message : String(error)).slice(0, 1000),
        })
        .catch(() => {});
      throw error;
    }
  };
}

async function replaySlice(
  db: Database,
  replay: WebhookReplayRow,
  sliceMs: number,
  wakeWorkers: () => void,
): Promise<JobResult> {
  if (replay.status === 'queued') {
    // What matches is counted once, when the replay starts; a claim after a crash finds it running.
    await repo.updateReplay(db, replay.id, {
      status: 'running',
      started_at: new Date(),
      total: await repo.countMatching(db, replay),
    });
  }
  const deadline = Date.now() + sliceMs;
  while (Date.now() < deadline) {
    const batch = await db.transaction(async (tx) => {
      // Under the replay's row lock: should a slice outlive its lease and the job be claimed
      // again meanwhile, the two take turns, and the second starts after the first's cursor.
      const current = await repo.lockReplay(tx, replay.id);
      if (current === undefined || current.status !== 'running') return { queued: 0, finished: true };
      if (!(await isEndpointEnabledNow(tx, current.endpoint_id))) {
        await repo.updateReplay(tx, current.id, {
          status: 'failed',
          finished_at: new Date(),
          last_error: 'endpoint_disabled: the endpoint was disabled during the replay',
        });
        return { queued: 0, finished: true };
      }
      const { examined, queued } = await repo.queueBatch(tx, current, REPLAY_BATCH);
      const finished = examined < REPLAY_BATCH;
      if (finished)
        await repo.updateReplay(tx, current.id, {
          status: 'completed',
          finished_at: new Date(),
          last_error: null,
        });
      return { queued, finished };
    });
    if (batch.queued > 0) wakeWorkers();
    if (batch.finished) return undefined;
  }
  return { retryInSeconds: 0 };
}
