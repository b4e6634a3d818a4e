/**
 * A lease claim of a queue table (the mail outbox's): the due rows not under a running lease, in
 * the order given, locked with `FOR UPDATE SKIP LOCKED` so that concurrent claimers (threads of one
 * process, or processes sharing the database) take disjoint rows, then leased to one claim id. The
 * kernel's job queue claims the same way with kinds taking turns (`claimDueJobs`). A claimer that
 * never reports back loses its rows when the lease ends, to any process; writes after a claim are
 * fenced by the claim id (`where claim_id = …`), so a claimer whose lease ran out cannot overwrite
 * what the next one recorded.
 *
 * The queue table needs `id`, `leased_until` and `claim_id` columns (and `updated_at`).
 */
import { type SQL, sql } from 'drizzle-orm';

export interface LeaseClaim {
  /** The queue table, as raw SQL (`webhook_deliveries`), and the alias the rest uses (`d`). */
  table: SQL;
  alias: SQL;
  /** What makes a row due, besides not being leased (`status = 'pending' and run_at <= now()`). */
  due: SQL;
  /** The order in which due rows are taken (`run_at`). */
  orderBy: SQL;
  limit: number;
  leaseMs: number;
  claimId: string;
  /** More assignments of the update (`attempts = j.attempts + 1`), with a leading comma. */
  alsoSet?: SQL;
  /** More FROM items and their join conditions (`, payment_events ev` and `and ev.id = d.event_id`). */
  join?: { from: SQL; on: SQL };
  returning: SQL;
}

/** The `with due as (…) update … returning …` statement of a claim. */
export function leaseDue(claim: LeaseClaim): SQL {
  return sql`
      with due as (
        select id from ${claim.table}
        where ${claim.due}
          and (leased_until is null or leased_until < now())
        order by ${claim.orderBy}
        limit ${claim.limit}
        for update skip locked
      )
      update ${claim.table} ${claim.alias}
      set leased_until = now() + make_interval(secs => ${claim.leaseMs / 1000}),
          claim_id = ${claim.claimId},
          updated_at = now()${claim.alsoSet ?? sql``}
      from due${claim.join?.from ?? sql``}
      where ${claim.alias}.id = due.id${claim.join?.on ?? sql``}
      returning ${claim.returning}`;
}
