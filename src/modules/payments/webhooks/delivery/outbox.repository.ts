/** SQL of the outbox: the deliveries an event owes, written in the event's own transaction. */
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../../../kernel/db/client.ts';
import { queryRows } from '../../../../kernel/db/raw.ts';
import type { Outbox } from './outbox.ts';

export interface OutboxEvent {
  id: string;
  wallet_id: string;
  type: string;
}

/**
 * One pending delivery per enabled endpoint of the event's wallet that takes its type (no
 * `event_types`: every type), first attempt due after the schedule's first delay. Returns how
 * many were written.
 */
export async function enqueueDeliveries(
  tx: Executor,
  event: OutboxEvent,
  outbox: Pick<Outbox, 'retryScheduleSeconds'>,
): Promise<number> {
  const [row] = await queryRows<{ queued: number }>(
    tx,
    sql`
      with queued as (${insertDeliveries(
        sql`(values (${event.id}::uuid, ${event.wallet_id}::uuid, ${event.type}::text)) as event (id, wallet_id, type)`,
        outbox,
      )})
      select count(*)::int as queued from queued`,
  );
  return Number(row?.queued ?? 0);
}

/**
 * The outbox statement: `insert … returning 1` of the deliveries owed by `events`, a FROM item
 * named `event` with columns `id`, `wallet_id`, `type` (a VALUES list, or a CTE of the statement
 * that inserts the event, so one statement can write both). A delivery to an endpoint its circuit
 * breaker has paused is due when the pause ends (`greatest` ignores a null `paused_until`).
 */
export function insertDeliveries(events: SQL, outbox: Pick<Outbox, 'retryScheduleSeconds'>): SQL {
  const firstDelay = outbox.retryScheduleSeconds[0] ?? 0;
  return sql`
    insert into webhook_deliveries (id, event_id, endpoint_id, wallet_id, next_attempt_at)
    select convene_uuidv7(), event.id, e.id, e.wallet_id,
           greatest(now() + make_interval(secs => ${firstDelay}), e.paused_until)
    from ${events}
    join webhook_endpoints e on e.wallet_id = event.wallet_id and e.enabled
      and (e.event_types is null or e.event_types ? event.type)
    returning 1`;
}
