/**
 * The outbox (contract 7.3): the deliveries an event owes are written by the statement after the
 * event's own insert, in the same transaction, so an event is never stored without its
 * deliveries and a delivery is never lost between the write and the first attempt.
 *
 * Waking the workers is the writer's job once its transaction has committed (`Outbox.wake`): the
 * worker of this process is called directly, and workers of other processes get a `pg_notify`,
 * coalesced to at most one every few milliseconds. Notifying inside each transaction instead
 * would make every commit queue on PostgreSQL's notification lock (the benchmark showed commits
 * waiting on it); a wake-up that is lost anyway (a crash right after commit) is covered by the
 * workers' poll.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../../../kernel/db/client.ts';
import { queryRows } from '../../../../kernel/db/raw.ts';

/** The notification channel every delivery worker listens on. */
export const DELIVERY_CHANNEL = 'convene_webhook_deliveries';

/** How long wake-ups for other processes are gathered into one notification. */
const NOTIFY_COALESCE_MS = 5;

/** What writers of events need: the delay before the first attempt, and the wake-up. */
export interface Outbox {
  retryScheduleSeconds: readonly number[];
  /** Call after committing a transaction that queued deliveries. */
  wake(): void;
}

export interface LocalOutbox extends Outbox {
  /** Subscribes a worker of this process to wake-ups; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/**
 * @param notifyOthers sends the cross-process notification (a server: `pg_notify`); undefined
 *   when no other process can share the database (the embedded database).
 */
export function createOutbox(
  retryScheduleSeconds: readonly number[],
  notifyOthers: (() => Promise<void>) | undefined,
): LocalOutbox {
  const listeners = new Set<() => void>();
  let isNotifyScheduled = false;
  return {
    retryScheduleSeconds,
    wake() {
      for (const listener of listeners) listener();
      if (notifyOthers === undefined || isNotifyScheduled) return;
      isNotifyScheduled = true;
      setTimeout(() => {
        isNotifyScheduled = false;
        // Best effort: the other processes' poll covers a notification that cannot be sent.
        notifyOthers().catch(() => {});
      }, NOTIFY_COALESCE_MS).unref();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
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
 * that inserts the event, so one statement can write both).
 */
export function insertDeliveries(events: SQL, outbox: Pick<Outbox, 'retryScheduleSeconds'>): SQL {
  const firstDelay = outbox.retryScheduleSeconds[0] ?? 0;
  return sql`
    insert into webhook_deliveries (id, event_id, endpoint_id, wallet_id, next_attempt_at)
    select convene_uuidv7(), event.id, e.id, e.wallet_id, now() + make_interval(secs => ${firstDelay})
    from ${events}
    join webhook_endpoints e on e.wallet_id = event.wallet_id and e.enabled
      and (e.event_types is null or e.event_types ? event.type)
    returning 1`;
}
