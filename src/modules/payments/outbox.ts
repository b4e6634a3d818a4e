/**
 * The outbox (contract 7.3): the deliveries an event owes are written by the statement after the
 * event's own insert, in the same transaction, so an event is never stored without its
 * deliveries and a delivery is never lost between the write and the first attempt. The statement
 * also wakes the workers (`pg_notify`, delivered at commit, on a server and on the embedded
 * database alike).
 */
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../kernel/db/client.ts';

/** The notification channel every delivery worker listens on. */
export const DELIVERY_CHANNEL = 'convene_webhook_deliveries';

/** What the outbox needs from the configuration: the delay before the first attempt. */
export interface DeliveryPolicy {
  retryScheduleSeconds: number[];
}

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
  policy: DeliveryPolicy,
): Promise<number> {
  const firstDelay = policy.retryScheduleSeconds[0] ?? 0;
  const [row] = await queryRows<{ queued: number }>(
    tx,
    sql`
    with queued as (
      insert into webhook_deliveries (id, event_id, endpoint_id, wallet_id, next_attempt_at)
      select convene_uuidv7(), ${event.id}, e.id, e.wallet_id,
             now() + make_interval(secs => ${firstDelay})
      from webhook_endpoints e
      where e.wallet_id = ${event.wallet_id}
        and e.enabled
        and (e.event_types is null or e.event_types ? ${event.type})
      returning 1
    )
    select count(*)::int as queued, (
      select pg_notify(${DELIVERY_CHANNEL}, '') where exists (select 1 from queued)
    ) as notified
    from queued`,
  );
  return Number(row?.queued ?? 0);
}
