/**
 * SQL of the delivery worker: claim due deliveries under a lease, record attempts, disable an
 * endpoint that answered 410, and queue the owner's health mail in the statements that pause or
 * disable an endpoint. Every write after a claim is fenced by the claim id, so a process whose
 * lease ran out (it was paused or cut off) cannot overwrite what another process recorded.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../../../kernel/db/client.ts';
import { queryRows, queryRowsPrepared } from '../../../../kernel/db/raw.ts';
import { insertMailsFrom } from '../../../mail/index.ts';
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
  /** Set when the endpoint's breaker has opened and not closed since: this attempt is a probe. */
  paused_until: Date | null;
}

/** What a claim must respect of this process's attempts already in flight (issue 17). */
export interface ClaimLimits {
  /** Deliveries to take at most. */
  limit: number;
  /** Attempts in flight to one endpoint at most (WEBHOOK_ENDPOINT_CONCURRENCY). */
  endpointCap: number;
  /** This process's attempts in flight, by endpoint (only endpoints with some). */
  busy: ReadonlyMap<string, number>;
  /** Endpoints to leave out entirely: at their cap here, or known to be paused. */
  held: readonly string[];
}

/**
 * How many due rows a claim looks at: four times what it may take, and never fewer than 128, so
 * that a small claim (a few freed slots) still reaches past endpoints that have no room left.
 */
const candidatesFor = (limit: number) => Math.max(limit, 32) * 4;

/**
 * Up to `limit` due pending deliveries not under a running lease, oldest due first, leased to
 * `claimId` for `leaseMs` (the fencing of kernel/jobs/jobs.repository.ts), with what an attempt needs of the
 * event and the endpoint in the same statement. Fair to endpoints: endpoints in `held` are skipped
 * in the scan, no endpoint gets more than its room (its cap less what is in flight here), an
 * endpoint whose breaker is open (`paused_until` ahead) gets nothing, and one whose pause has
 * passed gets a single probe at a time. So a slow or failing endpoint's backlog, however old, never
 * takes the claims of the others.
 */
export function claimDue(db: Executor, claimId: string, leaseMs: number, limits: ClaimLimits) {
  const busyIds = [...limits.busy.keys()];
  return queryRowsPrepared<ClaimedDelivery>(
    db,
    'claim_due_deliveries',
    sql`
      with candidate as (
        select d.id, d.endpoint_id, d.next_attempt_at from webhook_deliveries d
        where d.status = 'pending' and d.next_attempt_at <= now()
          and (d.leased_until is null or d.leased_until < now())
          and d.endpoint_id <> all(${sql.param(limits.held)}::uuid[])
          -- Paused endpoints, including those this process has not heard of: their rows must not
          -- fill the candidates (a new worker would otherwise find nothing else to claim).
          and not exists (select 1 from webhook_endpoints p
                          where p.id = d.endpoint_id and p.paused_until > now())
        order by d.next_attempt_at
        limit ${candidatesFor(limits.limit)}
        for update of d skip locked
      ),
      placed as (
        select c.id, c.next_attempt_at,
               row_number() over (partition by c.endpoint_id order by c.next_attempt_at) as place,
               (case when ep.paused_until is null then ${limits.endpointCap} else 1 end)
                 - coalesce(busy.n, 0) as room
        from candidate c
        join webhook_endpoints ep on ep.id = c.endpoint_id
        left join unnest(${sql.param(busyIds)}::uuid[], ${sql.param(busyIds.map((id) => limits.busy.get(id)))}::int[])
          as busy (endpoint_id, n) on busy.endpoint_id = c.endpoint_id
      ),
      due as (
        select id from placed where place <= room order by next_attempt_at limit ${limits.limit}
      )
      update webhook_deliveries d
      set leased_until = now() + make_interval(secs => ${leaseMs / 1000}), claim_id = ${claimId},
          updated_at = now()
      from due, payment_events ev, webhook_endpoints ep
      where d.id = due.id and ev.id = d.event_id and ep.id = d.endpoint_id
      returning d.id, d.endpoint_id, d.event_id, d.attempts, ev.type, ev.payload,
                ev.created_at as event_created_at, ep.url, ep.enabled, ep.secret, ep.previous_secret,
                ep.previous_secret_expires_at, ep.paused_until`,
  );
}

export interface AttemptOutcome {
  deliveryId: string;
  endpointId: string;
  claimId: string;
  /** The subscriber answered 2xx (what the endpoint's health and breaker count). */
  succeeded: boolean;
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  /** `pending` with `retryInSeconds` for another attempt, else final. */
  status: DeliveryStatus;
  retryInSeconds: number | null;
}

/** The circuit breaker's settings (config.webhooks.breaker*). */
export interface BreakerSettings {
  /** Failed attempts in a row that trip it. */
  failures: number;
  /** The first pause; each trip in a row doubles it, up to 64 times. */
  pauseMs: number;
}

/** What recording a batch did: the deliveries recorded, and their endpoints' breakers after it. */
export interface Recorded {
  deliveryIds: string[];
  endpoints: Array<{ id: string; paused_until: Date | null }>;
  /** Endpoints whose health mail was due but whose owner has no known e-mail (none was queued). */
  unmailed: string[];
}

/** One endpoint's attempts of a batch, in the order they finished. */
interface EndpointTally {
  attempts: number;
  successes: number;
  /** Failures after the batch's last success (all of them when none succeeded). */
  trailingFailures: number;
  /** Deliveries that ended `failed` with the schedule used up (not by a 410). */
  exhausted: number;
}

function tallyByEndpoint(outcomes: AttemptOutcome[]): Map<string, EndpointTally> {
  const tallies = new Map<string, EndpointTally>();
  for (const outcome of outcomes) {
    const tally = tallies.get(outcome.endpointId) ?? {
      attempts: 0,
      successes: 0,
      trailingFailures: 0,
      exhausted: 0,
    };
    tally.attempts++;
    if (outcome.status === 'failed' && outcome.responseStatus !== 410) tally.exhausted++;
    if (outcome.succeeded) {
      tally.successes++;
      tally.trailingFailures = 0;
    } else tally.trailingFailures++;
    tallies.set(outcome.endpointId, tally);
  }
  return tallies;
}

/**
 * The health mail's reason when the statement updating `ep` is the one that set `health_mailed_at`,
 * else null: the column changed from `before`, its value when the row was locked. Comparing it with
 * `now()` instead said yes to the other statement's mail too whenever the two ran within the same
 * millisecond (the column keeps milliseconds), and a 410 then got a second mail.
 */
const mailedNow = (ep: SQL, before: SQL) =>
  sql`case when ${ep}.health_mailed_at is distinct from ${before} then ${ep}.health_mail_reason end`;

/**
 * Records finished attempts in one statement: each delivery still held by its claim gets its
 * counters and next state, and an attempt row numbered after its new `attempts`. A delivery whose
 * lease was lost is left alone (its late attempt is not recorded), but its attempt still counts in
 * its endpoint's health: the subscriber was called. The endpoints' health and breakers are updated
 * in the same statement, from the row as it is when locked (two processes recording for one
 * endpoint add up; neither overwrites the other).
 * The batch travels as one array per column, so the text never changes with the batch size and
 * the statement is prepared once per connection.
 */
export async function recordAttempts(
  db: Executor,
  outcomes: AttemptOutcome[],
  breaker: BreakerSettings,
): Promise<Recorded> {
  if (outcomes.length === 0) return { deliveryIds: [], endpoints: [], unmailed: [] };
  const column = <T>(pick: (o: AttemptOutcome) => T) => sql.param(outcomes.map(pick));
  // In id order: the endpoints are locked in that order (below).
  const tallies = [...tallyByEndpoint(outcomes)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const endpointIds = sql.param(tallies.map(([id]) => id));
  const tally = <T>(pick: (t: EndpointTally) => T) => sql.param(tallies.map(([, t]) => pick(t)));
  const hour = sql`date_trunc('hour', now())`;
  const anySuccess = sql`h.successes > 0`;
  const failuresInARow = sql`(case when ${anySuccess} then h.failing
                                   else ep.consecutive_failures + h.failing end)`;
  const tripsBefore = sql`(case when ${anySuccess} then 0 else ep.breaker_trips end)`;
  // Trips when the failures in a row reach the threshold and the breaker is not already open
  // (failures of attempts that were in flight when it opened do not extend the pause).
  const trips = sql`(h.failing > 0 and ${failuresInARow} >= ${breaker.failures}
                     and (ep.paused_until is null or ep.paused_until <= now()))`;
  // Why the owner is to be mailed (docs/reference/webhooks.md, "Health mails"): the breaker opens
  // for the first time since the endpoint last succeeded (its trips go from 0 to 1), or a delivery
  // used up its schedule; the 410 is disableGoneEndpoints'. At most one mail a day: decided on the
  // row as locked, so two processes recording at once cannot both queue one.
  const mailReason = sql`(case when ${trips} and ${tripsBefore} = 0 then 'paused'
                               when h.exhausted > 0 then 'retries_exhausted' end)`;
  const mailDue = sql`(${mailReason} is not null
                       and (ep.health_mailed_at is null or ep.health_mailed_at <= now() - interval '1 day'))`;
  const rows = await queryRowsPrepared<{
    kind: 'delivery' | 'endpoint' | 'unmailed';
    id: string;
    paused_until: Date | null;
  }>(
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
      ),
      -- Two processes recording for the same endpoints would deadlock if each locked them in its
      -- own order; every statement locks them in id order first.
      locked as materialized (
        select id, health_mailed_at as mailed_before from webhook_endpoints
        where id = any(${endpointIds}::uuid[])
        order by id
        for no key update
      ),
      health as (
        update webhook_endpoints ep
        set consecutive_failures = ${failuresInARow},
            breaker_trips = case when ${trips} then ${tripsBefore} + 1 else ${tripsBefore} end,
            paused_until = case
              when ${trips} then now() + make_interval(
                secs => ${breaker.pauseMs / 1000}::float8 * power(2, least(${tripsBefore}, 6)))
              when ${anySuccess} then null
              else ep.paused_until end,
            health_hour = ${hour},
            hour_attempts = case when ep.health_hour = ${hour} then ep.hour_attempts else 0 end + h.attempts,
            hour_successes = case when ep.health_hour = ${hour} then ep.hour_successes else 0 end + h.successes,
            previous_hour_attempts = case when ep.health_hour = ${hour} then ep.previous_hour_attempts
                                          when ep.health_hour = ${hour} - interval '1 hour' then ep.hour_attempts
                                          else 0 end,
            previous_hour_successes = case when ep.health_hour = ${hour} then ep.previous_hour_successes
                                           when ep.health_hour = ${hour} - interval '1 hour' then ep.hour_successes
                                           else 0 end,
            health_mail_reason = case when ${mailDue} then ${mailReason} else ep.health_mail_reason end,
            health_mailed_at = case when ${mailDue} then now() else ep.health_mailed_at end
        from unnest(${endpointIds}::uuid[], ${tally((t) => t.attempts)}::int[],
                    ${tally((t) => t.successes)}::int[], ${tally((t) => t.trailingFailures)}::int[],
                    ${tally((t) => t.exhausted)}::int[])
          as h (endpoint_id, attempts, successes, failing, exhausted)
          join locked on locked.id = h.endpoint_id
        where ep.id = h.endpoint_id
        returning ep.id, ep.paused_until, ep.wallet_id, ep.language,
                  ${mailedNow(sql`ep`, sql`locked.mailed_before`)} as mail_reason
      ),
      -- The owner's mail, queued by this statement: it commits with the state that causes it. Costs
      -- nothing when no endpoint has a reason (nothing to join).
      ${healthMailCtes(sql`health`)}
      select 'delivery' as kind, id, null::timestamptz as paused_until from recorded
      union all
      select 'endpoint', id, paused_until from health
      union all
      select 'unmailed', endpoint_id, null from health_mail where recipient is null`,
  );
  return {
    deliveryIds: rows.filter((row) => row.kind === 'delivery').map((row) => row.id),
    endpoints: rows
      .filter((row) => row.kind === 'endpoint')
      .map((row) => ({
        id: row.id,
        paused_until: row.paused_until === null ? null : new Date(row.paused_until),
      })),
    unmailed: rows.filter((row) => row.kind === 'unmailed').map((row) => row.id),
  };
}

/** The mail kind of an endpoint's health (its renderer: health-mail.ts, beside this file). */
export const HEALTH_MAIL_KIND = 'webhook_endpoint_health';

/**
 * Two CTEs (`health_mail as (…), health_mailed as (…)`, to follow a comma) that queue the
 * health mail of each row of `changed` (a CTE with columns `id`, `wallet_id`, `language`,
 * `paused_until`, `mail_reason`) whose `mail_reason` is set, to its wallet's owner as the actor
 * directory knows them. `health_mail` keeps the rows whose owner has no known e-mail
 * (`recipient` null): no mail is queued for them, and the caller logs it.
 */
function healthMailCtes(changed: SQL): SQL {
  return sql`health_mail as (
        select m.id as endpoint_id, ${HEALTH_MAIL_KIND}::text as kind, a.email as recipient,
               m.language, jsonb_build_object('endpoint_id', m.id, 'reason', m.mail_reason,
                                              'paused_until', m.paused_until) as data
        from ${changed} m
        join wallets w on w.id = m.wallet_id
        left join actors a on a.user_id = w.owner_id and a.email <> ''
        where m.mail_reason is not null
      ),
      health_mailed as (${insertMailsFrom(sql`(select * from health_mail where recipient is not null)`)})`;
}

/**
 * Moves a paused endpoint's waiting deliveries to the end of its pause, so the claim's scan of the
 * queue does not walk over them while it lasts (the claim would skip them anyway). Deliveries
 * under a lease are left to their claim.
 */
export async function deferPaused(db: Executor, endpointId: string, until: Date): Promise<void> {
  await db.execute(sql`
    update webhook_deliveries
    set next_attempt_at = ${until.toISOString()}::timestamptz, updated_at = now()
    where endpoint_id = ${endpointId}::uuid and status = 'pending'
      and next_attempt_at < ${until.toISOString()}::timestamptz
      and (leased_until is null or leased_until < now())`);
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

/**
 * A subscriber answered 410 Gone: the endpoint stops receiving until its owner enables it. The
 * owner's health mail is queued by the same statement (at most one a day per endpoint, decided on
 * the row as locked). Answers the endpoints whose mail was due but whose owner has no known e-mail.
 */
export async function disableGoneEndpoints(db: Executor, endpointIds: string[]): Promise<string[]> {
  if (endpointIds.length === 0) return [];
  const mailDue = sql`(ep.health_mailed_at is null or ep.health_mailed_at <= now() - interval '1 day')`;
  const rows = await queryRows<{ id: string }>(
    db,
    sql`
      with locked as materialized (
        select id, health_mailed_at as mailed_before from webhook_endpoints
        where id = any(${sql.param(endpointIds)}::uuid[]) and enabled
        order by id
        for no key update
      ),
      disabled as (
        update webhook_endpoints ep
        set enabled = false, disabled_reason = 'gone', updated_at = now(),
            health_mail_reason = case when ${mailDue} then 'gone' else ep.health_mail_reason end,
            health_mailed_at = case when ${mailDue} then now() else ep.health_mailed_at end
        from locked
        where ep.id = locked.id and ep.enabled
        returning ep.id, ep.wallet_id, ep.language, ep.paused_until,
                  ${mailedNow(sql`ep`, sql`locked.mailed_before`)} as mail_reason
      ),
      ${healthMailCtes(sql`disabled`)},
      unmailed as (select endpoint_id as id from health_mail where recipient is null)
      select id from unmailed`,
  );
  return rows.map((row) => row.id);
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
