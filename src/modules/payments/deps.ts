/**
 * What the payments features are given (built by `createPaymentsCore` and `paymentsModule` in
 * index.ts). It imports no feature: every feature may import it, so the types here are declared
 * by what a feature needs, and the features that implement them (the outbox: `webhooks/delivery/`)
 * are wired in index.ts, where a missing piece is a compile error.
 */
import type { SQL } from 'drizzle-orm';
import type { JobRunner } from '../../kernel/jobs/runner.ts';
import type { ModuleDeps } from '../../kernel/module.ts';
import type { IntentListener, PaymentsPort } from '../../kernel/payments-port.ts';

/**
 * What writers of events need: the deliveries an event owes (the webhooks' outbox statement), the
 * delay before the first attempt, the wake-up, and who hears an intent's transition inside its
 * transaction (wired once in `src/flows/`, given to `createPaymentsCore`). Made by `createOutbox`
 * (`webhooks/delivery/outbox.ts`).
 */
export interface Outbox {
  retryScheduleSeconds: readonly number[];
  readonly listeners: readonly IntentListener[];
  /**
   * The outbox statement (`webhooks/delivery/outbox.repository.ts`): `insert … returning 1` of the
   * deliveries owed by `events`, a FROM item named `event` with columns `id`, `wallet_id`, `type`.
   * Intents write an event and its deliveries in one transaction (or one statement) through it,
   * without importing the webhooks feature that owns the deliveries.
   */
  deliveriesOf(events: SQL): SQL;
  /** Call after committing a transaction that queued deliveries. */
  wake(): void;
  /**
   * Call after committing a transaction that moved an intent: its listeners may have queued work
   * for the app's job runner and mail sender (a paid registration's confirmation), which this wakes.
   */
  transitioned(): void;
}

export interface PaymentsDeps extends ModuleDeps {
  /** Where writers of payment events write their deliveries and wake the delivery workers. */
  outbox: Outbox;
  /** The app's job runner, woken after a transaction schedules a job (a replay of deliveries). */
  jobs: Pick<JobRunner, 'wake'>;
  /** The checkout operations (refunds) the module's own routes share with the events module. */
  port: PaymentsPort;
}
