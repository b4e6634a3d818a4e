/**
 * SQL of background jobs: schedule (idempotent by kind and key), claim under a lease, and record
 * the outcome fenced by the claim id. A claim takes due rows not under a running lease, locked with
 * `FOR UPDATE SKIP LOCKED` so that concurrent claimers (threads of one process, or processes sharing
 * the database) take disjoint rows, and leases them to one claim id. A claimer that never reports
 * back loses its rows when the lease ends, to any process; writes after a claim are fenced by the
 * claim id (`where claim_id = …`), so a claimer whose lease ran out cannot overwrite what the next
 * one recorded. Webhook deliveries lease and fence the same way with a claim of their own that is
 * fair to endpoints (`claimDue` in delivery-queue.repository.ts).
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { uuidv7 } from '../db/ids.ts';
import { queryRows } from '../db/raw.ts';
import { type JobRow, jobs } from './jobs.table.ts';

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

/**
 * Up to `limit` due pending jobs not under a running lease, leased to `claimId` for `leaseMs`, fair
 * to kinds: each kind's due jobs are taken oldest first, and the kinds take turns (the first of
 * each kind, then the second of each, …). Oldest first across kinds would make a hold's expiry or a
 * certificate run's next slice wait behind thousands of mails a run just declared.
 */
export function claimDueJobs(db: Executor, claimId: string, limit: number, leaseMs: number) {
  const due = sql`status = 'pending' and run_at <= now() and (leased_until is null or leased_until < now())`;
  return queryRows<ClaimedJob>(
    db,
    sql`
      with kinds as (
        select distinct kind from jobs where ${due}
      ),
      picked as (
        select p.id, p.run_at, row_number() over (partition by p.kind order by p.run_at) as place
        from kinds cross join lateral (
          select id, kind, run_at from jobs
          where kind = kinds.kind and ${due}
          order by run_at
          limit ${limit}
          for update skip locked
        ) p
      ),
      chosen as (
        select id from picked order by place, run_at limit ${limit}
      )
      update jobs j
      set leased_until = now() + make_interval(secs => ${leaseMs / 1000}),
          claim_id = ${claimId},
          updated_at = now(),
          attempts = j.attempts + 1
      from chosen
      where j.id = chosen.id
      returning j.id, j.kind, j.key, j.payload, j.attempts`,
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
