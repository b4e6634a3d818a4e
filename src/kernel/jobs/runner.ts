/**
 * The background job runner: modules register a handler per job kind (`registerJobKind`), schedule
 * jobs inside their own transactions (`scheduleJob`), and every service process runs one runner.
 * Jobs are claimed in small batches under a lease long enough for a provider call (10 s deadline)
 * plus a margin; a process that dies mid-job leaves its claim to expire and any process takes the
 * job again, so handlers are written to be run more than once (each re-reads and re-checks state).
 *
 * A handler answers nothing (done), or `{ retryInSeconds }` to look again later (a payment still
 * pending at the provider). A thrown error retries with exponential backoff (5 s doubling, at most
 * an hour); after MAX_ATTEMPTS the job is `failed` and logged as an error for a person to look at.
 */
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { uuidv7 } from '../db/ids.ts';
import { type ClaimedJob, claimDueJobs, finishJob, secondsToNextJob } from './jobs.repository.ts';
import type { JobProgress } from './progress.ts';

export type JobResult = undefined | { retryInSeconds: number };
export type JobHandler = (job: ClaimedJob) => Promise<JobResult>;

const BATCH = 10;
const MAX_ATTEMPTS = 12;
const MAX_BACKOFF_SECONDS = 3600;

export function backoffSeconds(attempts: number): number {
  return Math.min(MAX_BACKOFF_SECONDS, 5 * 2 ** Math.max(0, attempts - 1));
}

export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly progress = new Map<string, JobProgress>();
  private running = false;
  private ticking: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
    private readonly pollMs: number,
    /** How long a claim holds a job (JOBS_LEASE_MS): a handler's work per claim must fit well inside. */
    readonly leaseMs = 60_000,
  ) {}

  /**
   * `progress`, for a kind people follow: how `GET /jobs/{job_id}` reads one job of the kind
   * (kernel/jobs/jobs.routes.ts). Kinds are registered before the app is ready, so the route's
   * document lists every kind's view.
   */
  registerJobKind(kind: string, handler: JobHandler, progress?: JobProgress): void {
    if (this.handlers.has(kind)) throw new Error(`job kind ${kind} is registered twice`);
    this.handlers.set(kind, handler);
    if (progress !== undefined) this.progress.set(kind, progress);
  }

  /** The kinds that show their progress, in the order they were registered. */
  progressKinds(): JobProgress[] {
    return [...this.progress.values()];
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.wake();
  }

  /** Looks for due jobs now (after a commit that scheduled one due at once). */
  wake(): void {
    if (!this.running) return;
    if (this.ticking !== undefined) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.ticking = this.tick().finally(() => {
      this.ticking = undefined;
      if (!this.running) return;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Stops claiming and waits for the jobs in hand. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.ticking;
  }

  private async tick(): Promise<void> {
    let next = this.pollMs;
    try {
      for (;;) {
        const claimId = uuidv7();
        const claimed = await claimDueJobs(this.db, claimId, BATCH, this.leaseMs);
        await Promise.all(claimed.map((job) => this.run(job, claimId)));
        if (claimed.length < BATCH || !this.running) break;
      }
      const seconds = await secondsToNextJob(this.db);
      if (seconds !== null) next = Math.max(10, Math.min(this.pollMs, seconds * 1000));
    } catch (error) {
      if (this.running) this.log.error({ err: error }, 'job runner: claim failed');
    }
    if (this.running) {
      this.timer = setTimeout(() => this.wake(), next);
      this.timer.unref();
    }
  }

  private async run(job: ClaimedJob, claimId: string): Promise<void> {
    const handler = this.handlers.get(job.kind);
    try {
      if (handler === undefined) throw new Error(`no handler for job kind ${job.kind}`);
      const result = await handler(job);
      await finishJob(
        this.db,
        job.id,
        claimId,
        result === undefined
          ? { status: 'done' }
          : { status: 'pending', retryInSeconds: result.retryInSeconds },
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const givingUp = job.attempts >= MAX_ATTEMPTS;
      this.log[givingUp ? 'error' : 'warn'](
        { job: { id: job.id, kind: job.kind, key: job.key, attempts: job.attempts }, err: error },
        givingUp ? 'job failed for good' : 'job failed; retrying',
      );
      await finishJob(this.db, job.id, claimId, {
        status: givingUp ? 'failed' : 'pending',
        retryInSeconds: backoffSeconds(job.attempts),
        error: message.slice(0, 1000),
      }).catch((recordError: unknown) => this.log.error({ err: recordError }, 'job runner: record failed'));
    }
  }
}
