/**
 * SQL of the outbox: the deliveries an event owes, written in the event's own transaction. The
 * writers of events (intents) get this statement through `Outbox.deliveriesOf` (deps.ts).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Outbox } from '../../deps.ts';

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
