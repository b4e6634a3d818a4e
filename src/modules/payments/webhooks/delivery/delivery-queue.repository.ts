/**
 * SQL of the delivery worker: claim due deliveries under a lease, record attempts, disable an
 * endpoint that answered 410. Every write after a claim is fenced by the claim id, so a process
 * whose lease ran out (it was paused or cut off) cannot overwrite what another process recorded.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../../../kernel/db/client.ts';
import { queryRows, queryRowsPrepared } from '../../../../kernel/db/raw.ts';
import { leaseDue } from '../../../../kernel/jobs/lease.ts';
import type { DeliveryStatus } from './delivery.table.ts';
import { DELIVERY_CHANNEL } from './outbox.ts';

export interface ClaimedDelivery {
  id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  type: string;
  payload: Record<string, unknown>;
  event_created_at: Date;
  url: string;
  enabled: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

/**
 * Up to `limit` due pending deliveries not under a running lease, oldest due first, leased to
 * `claimId` for `leaseMs` (kernel/jobs/lease.ts), with what an attempt needs of the event and the
 * endpoint in the same statement.
 */
export function claimDue(db: Executor, claimId: string, limit: number, leaseMs: number) {
  return queryRowsPrepared<ClaimedDelivery>(
    db,
    'claim_due_deliveries',
    leaseDue({
      table: sql`webhook_deliveries`,
      alias: sql`d`,
      due: sql`status = 'pending' and next_attempt_at <= now()`,
      orderBy: sql`next_attempt_at`,
      limit,
      leaseMs,
      claimId,
      join: {
        from: sql`, payment_events ev, webhook_endpoints ep`,
        on: sql` and ev.id = d.event_id and ep.id = d.endpoint_id`,
      },
      returning: sql`d.id, d.endpoint_id, d.event_id, d.attempts, ev.type, ev.payload,
                ev.created_at as event_created_at, ep.url, ep.enabled, ep.secret, ep.previous_secret,
                ep.previous_secret_expires_at`,
    }),
  );
}

export interface AttemptOutcome {
  deliveryId: string;
  claimId: string;
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  /** `pending` with `retryInSeconds` for another attempt, else final. */
  status: DeliveryStatus;
  retryInSeconds: number | null;
}

/**
 * Records finished attempts in one statement: each delivery still held by its claim gets its
 * counters and next state, and an attempt row numbered after its new `attempts`. A delivery whose
 * lease was lost is left alone (its late attempt is not recorded). Returns the recorded ids.
 * The batch travels as one array per column, so the text never changes with the batch size and
 * the statement is prepared once per connection.
 */
export async function recordAttempts(db: Executor, outcomes: AttemptOutcome[]): Promise<string[]> {
  if (outcomes.length === 0) return [];
  const column = <T>(pick: (o: AttemptOutcome) => T) => sql.param(outcomes.map(pick));
  const rows = await queryRowsPrepared<{ id: string }>(
    db,
    'record_delivery_attempts',
    sql`
      with outcome as (
        select * from unnest(
          ${column((o) => o.deliveryId)}::uuid[], ${column((o) => o.claimId)}::uuid[],
          ${column((o) => o.startedAt.toISOString())}::timestamptz[], ${column((o) => o.durationMs)}::int[],
          ${column((o) => o.responseStatus)}::int[], ${column((o) => o.responseBody)}::text[],
          ${column((o) => o.error)}::text[], ${column((o) => o.status)}::text[],
          ${column((o) => o.retryInSeconds)}::float8[]
        ) as o (id, claim_id, started_at, duration_ms, response_status, response_body, error, status,
                retry_in)
      ),
      recorded as (
        update webhook_deliveries d
        set attempts = d.attempts + 1,
            last_attempted_at = o.started_at,
            response_status = o.response_status,
            response_body = o.response_body,
            last_error = o.error,
            status = o.status,
            next_attempt_at = case when o.status = 'pending'
                                   then now() + make_interval(secs => o.retry_in) end,
            claim_id = null,
            leased_until = null,
            updated_at = now()
        from outcome o
        where d.id = o.id and d.claim_id = o.claim_id
        returning d.id, d.attempts
      ),
      attempts as (
        insert into webhook_attempts (id, delivery_id, attempt, started_at, duration_ms,
                                      response_status, response_body, error)
        select convene_uuidv7(), o.id, r.attempts, o.started_at, o.duration_ms, o.response_status,
               o.response_body, o.error
        from recorded r join outcome o on o.id = r.id
      )
      select id from recorded`,
  );
  return rows.map((row) => row.id);
}

/**
 * Ends deliveries claimed for an endpoint that is disabled: `failed` without an attempt (none was
 * made), with the reason in `last_error`. The owner can retry them once the endpoint is back.
 */
export async function failWithoutAttempt(
  db: Executor,
  deliveries: Array<{ id: string; claimId: string }>,
  reason: string,
): Promise<void> {
  if (deliveries.length === 0) return;
  const values = sql.join(
    deliveries.map((d) => sql`(${d.id}::uuid, ${d.claimId}::uuid)`),
    sql`, `,
  );
  await db.execute(sql`
    update webhook_deliveries d
    set status = 'failed', last_error = ${reason}, next_attempt_at = null, claim_id = null,
        leased_until = null, updated_at = now()
    from (values ${values}) as c (id, claim_id)
    where d.id = c.id and d.claim_id = c.claim_id`);
}

/** A subscriber answered 410 Gone: the endpoint stops receiving until its owner enables it. */
export async function disableGoneEndpoints(db: Executor, endpointIds: string[]): Promise<void> {
  if (endpointIds.length === 0) return;
  await db.execute(sql`
    update webhook_endpoints
    set enabled = false, disabled_reason = 'gone', updated_at = now()
    where id in (${sql.join(
      endpointIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) and enabled`);
}

/** Pending deliveries due now and not leased (the queue depth metric). */
export interface DueQueue {
  /** Pending deliveries due now and not claimed. */
  due: number;
  /** How long the oldest of them has been due, in seconds (0 when none is). */
  oldestAgeSeconds: number;
}

/** The queue as the metrics show it, in one query. */
export async function readDueQueue(db: Executor): Promise<DueQueue> {
  const [row] = await queryRows<{ due: number; oldest_age: number }>(
    db,
    sql`select count(*)::int as due,
          coalesce(extract(epoch from now() - min(next_attempt_at)), 0)::float8 as oldest_age
        from webhook_deliveries
        where status = 'pending' and next_attempt_at <= now()
          and (leased_until is null or leased_until < now())`,
  );
  return { due: Number(row?.due ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.oldest_age ?? 0)) };
}

/** Wakes every worker (any process) to look for due deliveries. */
export async function notifyWorkers(db: Executor): Promise<void> {
  await db.execute(sql`select pg_notify(${DELIVERY_CHANNEL}, '')`);
}
