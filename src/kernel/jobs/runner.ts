/**
 * The background job runner: modules register a handler per job kind (`registerJobKind`), schedule
 * jobs inside their own transactions (`scheduleJob`), and every service process runs one runner.
 * Jobs are claimed in small batches under a lease long enough for a provider call (10 s deadline)
 * plus a margin, and start as soon as they are claimed; a process that dies mid-job leaves its
 * claim to expire and any process takes the job again, so handlers are written to be run more than
 * once (each re-reads and re-checks state). Up to MAX_IN_FLIGHT jobs run at once in one process: a
 * new batch is claimed as soon as there is room for it, not when the slowest job of the last batch
 * ends (a burst of mail, each job an SMTP exchange, no longer waits on the slowest of ten).
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
const MAX_IN_FLIGHT = 32;
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
  /** Jobs claimed and still running, and whether the last claim left due jobs behind. */
  private readonly inFlight = new Set<Promise<void>>();
  private more = false;
  private readonly wakeListeners: Array<() => void> = [];

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
    this.look();
  }

  /**
   * Also told of every `wake`: a queue of its own whose writers wake the job runner after their
   * commits (the mail sender: mail is declared beside jobs, in the same transactions).
   */
  onWake(listener: () => void): void {
    this.wakeListeners.push(listener);
  }

  /** Looks for due jobs now (after a commit that scheduled one due at once). */
  wake(): void {
    for (const listener of this.wakeListeners) listener();
    this.look();
  }

  private look(): void {
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
        this.look();
      }
    });
  }

  /** Stops claiming and waits for the jobs in hand. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.ticking;
    await Promise.all(this.inFlight);
  }

  private async tick(): Promise<void> {
    let next = this.pollMs;
    try {
      this.more = false;
      while (this.running) {
        const room = Math.min(BATCH, MAX_IN_FLIGHT - this.inFlight.size);
        if (room <= 0) {
          // Full: a job that ends makes room and wakes the runner (track).
          this.more = true;
          break;
        }
        const claimId = uuidv7();
        const claimed = await claimDueJobs(this.db, claimId, room, this.leaseMs);
        for (const job of claimed) this.track(this.run(job, claimId));
        if (claimed.length < room) break;
      }
      const seconds = await secondsToNextJob(this.db);
      if (seconds !== null) next = Math.max(10, Math.min(this.pollMs, seconds * 1000));
    } catch (error) {
      if (this.running) this.log.error({ err: error }, 'job runner: claim failed');
    }
    if (this.running) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.look(), next);
      this.timer.unref();
    }
  }

  /** Follows a running job; once there is room for a batch again, claims more if some were left. */
  private track(running: Promise<void>): void {
    this.inFlight.add(running);
    const done = () => {
      this.inFlight.delete(running);
      if (this.more && this.inFlight.size <= MAX_IN_FLIGHT - BATCH) {
        this.more = false;
        this.look();
      }
    };
    // `run` records its own failures; should it still reject, that is no unhandled rejection.
    running.then(done, done);
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
