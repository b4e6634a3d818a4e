/**
 * What intent transitions do to paid registrations (docs/reference/checkout.md), inside the transaction of
 * the transition itself (`src/flows/` wires `onIntentTransition` to the payments core), and the job that ends
 * unpaid holds. Every step is conditional on the registration's status as locked here, so a transition heard
 * twice, or racing the hold's end, changes a registration at most once. Which registration transition each
 * case is, and its effects, is declared in `registrations.transitions.ts`.
 *
 * - `succeeded`: a pending registration is confirmed (held seat → confirmed seat, participant badge,
 *   `registration.confirmed`). One whose hold already ended is confirmed if a seat is free, else a
 *   refund is asked (`status_reason` `sold_out_after_expiry`); one cancelled meanwhile is refunded.
 * - `refunded`: a confirmed registration becomes `refunded` (seat freed, badge revoked with
 *   `refunded`), or `cancelled` when the refund was its cancellation's (`registration_cancelled`,
 *   badge revoked with that reason); either way `registration.refunded` is announced, the money
 *   having gone back. An expired one waiting for its refund becomes `refunded` too; one cancelled
 *   while paying stays `cancelled` (its holder is mailed the refund).
 * - `rejected`, `cancelled`, `failed`: nothing; the payer may pay again until the hold ends.
 */
import type { Executor } from '../../../kernel/db/client.ts';
import type { JobHandler } from '../../../kernel/jobs/runner.ts';
import type { IntentTransition, PaymentsPort } from '../../../kernel/payments-port.ts';
import type { EventsDeps } from '../deps.ts';
import { EXPIRE_HOLD_JOB } from './checkout.service.ts';
import * as repo from './registrations.repository.ts';
import type { RegistrationRow } from './registrations.table.ts';
import {
  moveRegistration,
  type ParticipantBadges,
  REGISTRATION_CANCELLED,
  type TransitionPorts,
} from './registrations.transitions.ts';

async function onSucceeded(
  tx: Executor,
  ports: TransitionPorts,
  registration: RegistrationRow,
): Promise<void> {
  if (registration.status === 'pending_payment') {
    await moveRegistration(tx, ports, registration, 'pay');
    return;
  }
  if (registration.status === 'expired') {
    // Paid after the hold ended: the seat was given back, so take one again if there is one.
    if ((await moveRegistration(tx, ports, registration, 'payAfterExpiry')) !== undefined) return;
    await moveRegistration(tx, ports, registration, 'payAfterExpirySoldOut');
    return;
  }
  if (registration.status === 'cancelled' && registration.intent_id !== null) {
    // Cancelled while paying: the money goes back.
    await moveRegistration(tx, ports, registration, 'payAfterCancel');
  }
}

async function onRefunded(
  tx: Executor,
  ports: TransitionPorts,
  registration: RegistrationRow,
  refundReason: string | null,
): Promise<void> {
  if (registration.status === 'confirmed') {
    // A cancellation refunds first (`cancelPaidRegistration`) and ends here, in the refund's
    // transaction: the seat is freed only together with the money going back.
    const isCancellation = refundReason === REGISTRATION_CANCELLED;
    if (isCancellation) await moveRegistration(tx, ports, registration, 'refundCancellation');
    // An organiser's refund carries their reason (refunds.service.ts): the registration keeps it,
    // in this transaction, so the holder's refund mail says it.
    else await moveRegistration(tx, ports, registration, 'refund', refundReason ?? undefined);
    return;
  }
  if (registration.status === 'expired') {
    await moveRegistration(tx, ports, registration, 'refundExpired');
    return;
  }
  if (registration.status === 'cancelled') {
    // Paid after it was cancelled while paying: the money went back; its holder is told.
    await moveRegistration(tx, ports, registration, 'refundAfterCancel');
  }
}

export function onIntentTransition(payments: PaymentsPort, participantBadges: ParticipantBadges) {
  const ports: TransitionPorts = { payments, participantBadges };
  return async (tx: Executor, transition: IntentTransition): Promise<void> => {
    if (transition.to !== 'succeeded' && transition.to !== 'refunded') return;
    const registration = await repo.lockRegistrationOfIntent(tx, transition.intentId);
    if (registration === undefined) return;
    if (transition.to === 'succeeded') await onSucceeded(tx, ports, registration);
    else await onRefunded(tx, ports, registration, transition.refundReason);
  };
}

/** What the hold-expiry job runs with: the module's deps and the transitions' badge effect. */
export type CheckoutJobDeps = EventsDeps & { participantBadges: ParticipantBadges };

/**
 * The hold's end: a registration still `pending_payment` becomes `expired`, its seat is released
 * and `registration.expired` announced. Its intent stays pending for reconciliation, which asks
 * the provider 10 minutes later and cancels it if nothing was paid: cancelling it now would leave
 * no way to honour a payment that is still being processed (a payment that succeeds later is then
 * confirmed if a seat is free, else refunded).
 */
export function expireHoldJob(deps: CheckoutJobDeps): JobHandler {
  return async (job) => {
    const expired = await deps.db.transaction(async (tx) => {
      const registration = await repo.lockRegistration(tx, job.key);
      if (registration?.status !== 'pending_payment') return false;
      return (await moveRegistration(tx, deps, registration, 'expire')) !== undefined;
    });
    if (expired) deps.payments.wake();
    return undefined;
  };
}

/**
 * Registers the hold-expiry job. What intent transitions do (`onIntentTransition`) is wired to the
 * payments module in `src/flows/paid-registrations.flow.ts`, not here.
 */
export function registerCheckout(deps: CheckoutJobDeps): void {
  deps.jobs.registerJobKind(EXPIRE_HOLD_JOB, expireHoldJob(deps));
}
