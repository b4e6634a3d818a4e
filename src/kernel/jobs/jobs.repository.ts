/**
 * SQL of background jobs: schedule (idempotent by kind and key), claim under a lease (`leaseDue`,
 * the claim the webhook deliveries use too), and record the outcome fenced by the claim id: a
 * process whose lease ran out cannot overwrite what another process recorded.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { uuidv7 } from '../db/ids.ts';
import { queryRows } from '../db/raw.ts';
import { type JobRow, jobs } from './jobs.table.ts';
import { leaseDue } from './lease.ts';

export interface NewJob {
  kind: string;
  /** With `kind`, what makes the job unique: scheduling it again is a no-op. */
  key: string;
  payload?: Record<string, unknown>;
  runAt: Date;
}

/** Schedules a job inside the caller's transaction; an existing job of the same kind and key stays. */
export async function scheduleJob(db: Executor, job: NewJob): Promise<void> {
  await db
    .insert(jobs)
    .values({ id: uuidv7(), kind: job.kind, key: job.key, payload: job.payload ?? {}, run_at: job.runAt })
    .onConflictDoNothing({ target: [jobs.kind, jobs.key] });
}

export type ClaimedJob = Pick<JobRow, 'id' | 'kind' | 'key' | 'payload' | 'attempts'>;

/** Up to `limit` due pending jobs not under a running lease, leased to `claimId` for `leaseMs`. */
export function claimDueJobs(db: Executor, claimId: string, limit: number, leaseMs: number) {
  return queryRows<ClaimedJob>(
    db,
    leaseDue({
      table: sql`jobs`,
      alias: sql`j`,
      due: sql`status = 'pending' and run_at <= now()`,
      orderBy: sql`run_at`,
      limit,
      leaseMs,
      claimId,
      alsoSet: sql`, attempts = j.attempts + 1`,
      returning: sql`j.id, j.kind, j.key, j.payload, j.attempts`,
    }),
  );
}

/**
 * Records a claimed job's outcome, if the claim still holds it: `done`, `failed` (given up), or
 * `pending` again in `retryInSeconds`. The last error stays once the job succeeds, as its history.
 */
export async function finishJob(
  db: Executor,
  id: string,
  claimId: string,
  outcome: { status: 'done' | 'failed' | 'pending'; retryInSeconds?: number; error?: string | null },
): Promise<void> {
  await db.execute(sql`
    update jobs
    set status = ${outcome.status},
        run_at = case when ${outcome.status} = 'pending'
                      then now() + make_interval(secs => ${outcome.retryInSeconds ?? 0}) else run_at end,
        last_error = coalesce(${outcome.error ?? null}, last_error),
        claim_id = null, leased_until = null, updated_at = now()
    where id = ${id} and claim_id = ${claimId}`);
}

/**
 * Seconds until the next pending job may be claimed (null when none), for the runner's timer: when
 * it is due, or when its lease ends if one holds it. A job running under a lease (in this process
 * or another) is not due again until its lease ends, so it does not make the runner poll at once.
 */
export async function secondsToNextJob(db: Executor): Promise<number | null> {
  const [row] = await queryRows<{ seconds: number | null }>(
    db,
    sql`select extract(epoch from (min(greatest(run_at, coalesce(leased_until, run_at))) - now()))::float8
          as seconds
        from jobs where status = 'pending'`,
  );
  return row?.seconds ?? null;
}
