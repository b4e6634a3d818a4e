/**
 * The outbox (docs/reference/webhooks.md): the deliveries an event owes are written by the statement after
 * the event's own insert, in the same transaction (`outbox.repository.ts`), so an event is never stored
 * without its deliveries and a delivery is never lost between the write and the first attempt.
 *
 * Waking the workers is the writer's job once its transaction has committed (`Outbox.wake`): the
 * worker of this process is called directly, and workers of other processes get a `pg_notify`:
 * at once when none was sent in the last NOTIFY_INTERVAL_MS, otherwise one at the end of that
 * interval for every wake-up during it. Notifying inside each transaction instead
 * would make every commit queue on PostgreSQL's notification lock (the benchmark showed commits
 * waiting on it); a wake-up that is lost anyway (a crash right after commit) is covered by the
 * workers' poll.
 */

import { pacedNotifier } from '../../../../kernel/pacer.ts';
import type { IntentListener } from '../../../../kernel/payments-port.ts';
import type { Outbox } from '../../deps.ts';
import { DEFAULT_CLAIM_INTERVAL_MS } from './delivery.pacing.ts';
import { insertDeliveries } from './outbox.repository.ts';

export type { Outbox };

/** The notification channel every delivery worker listens on. */
export const DELIVERY_CHANNEL = 'convene_webhook_deliveries';

/** The shortest time between two notifications to other processes: the workers' claim interval. */
const NOTIFY_INTERVAL_MS = DEFAULT_CLAIM_INTERVAL_MS;

export interface LocalOutbox extends Outbox {
  /** Subscribes a worker of this process to wake-ups; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/**
 * @param notifyOthers sends the cross-process notification (a server: `pg_notify`); undefined
 *   when no other process can share the database (the embedded database).
 * @param listeners who hears intent transitions (none for an outbox that only delivers).
 * @param afterTransition wakes what the listeners may have queued work for (the app's job runner,
 *   and through it the mail sender), after a transition's commit.
 */
export function createOutbox(
  retryScheduleSeconds: readonly number[],
  notifyOthers: (() => Promise<void>) | undefined,
  listeners: readonly IntentListener[] = [],
  afterTransition: () => void = () => {},
): LocalOutbox {
  const wakeListeners = new Set<() => void>();
  const others = notifyOthers === undefined ? undefined : pacedNotifier(notifyOthers, NOTIFY_INTERVAL_MS);
  return {
    retryScheduleSeconds,
    listeners,
    deliveriesOf: (events) => insertDeliveries(events, { retryScheduleSeconds }),
    wake() {
      for (const listener of wakeListeners) listener();
      others?.notify();
    },
    transitioned: afterTransition,
    subscribe(listener) {
      wakeListeners.add(listener);
      return () => wakeListeners.delete(listener);
    },
  };
}
