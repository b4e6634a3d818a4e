/**
 * What intent transitions do to paid registrations (contract 8), inside the transaction of the
 * transition itself (the payments port calls `onIntentTransition` there), and the job that ends
 * unpaid holds. Every step is conditional on the registration's status as locked here, so a
 * transition heard twice, or racing the hold's end, changes a registration at most once.
 *
 * - `succeeded`: a pending registration is confirmed (held seat → confirmed seat, participant badge,
 *   `registration.confirmed`). One whose hold already ended is confirmed if a seat is free, else a
 *   refund is asked (`status_reason` `sold_out_after_expiry`); one cancelled meanwhile is refunded.
 * - `refunded`: a confirmed registration becomes `refunded` (seat freed, badge revoked with
 *   `refunded`), or `cancelled` when the refund was its cancellation's (`registration_cancelled`,
 *   badge revoked with that reason); either way `registration.refunded` is announced, the money
 *   having gone back. An expired one waiting for its refund becomes `refunded` too.
 * - `rejected`, `cancelled`, `failed`: nothing; the payer may pay again until the hold ends.
 */
import type { Executor } from '../../../kernel/db/client.ts';
import type { JobHandler } from '../../../kernel/jobs/runner.ts';
import type { IntentTransition, PaymentsPort, RegistrationEventType } from '../../../kernel/payments-port.ts';
import { emitParticipantBadge, revokeParticipantBadge } from '../badges/badges.emission.ts';
import type { EventsDeps } from '../deps.ts';
import * as tickets from '../tickets/tickets.repository.ts';
import { EXPIRE_HOLD_JOB } from './checkout.service.ts';
import { REGISTRATION_CANCELLED } from './refunds.service.ts';
import * as repo from './registrations.repository.ts';
import type { RegistrationRow } from './registrations.table.ts';

export const SOLD_OUT_AFTER_EXPIRY = 'sold_out_after_expiry';

async function announce(
  tx: Executor,
  payments: PaymentsPort,
  type: RegistrationEventType,
  registration: RegistrationRow,
): Promise<void> {
  if (registration.intent_id === null) return;
  await payments.announce(tx, type, {
    registration_id: registration.id,
    edition_id: registration.edition_id,
    event_id: (await repo.findEventOfEdition(tx, registration.edition_id)) ?? '',
    ticket_type_id: registration.ticket_type_id,
    user_id: registration.user_id,
    intent_id: registration.intent_id,
  });
}

async function onSucceeded(
  tx: Executor,
  payments: PaymentsPort,
  registration: RegistrationRow,
): Promise<void> {
  if (registration.status === 'pending_payment') {
    const confirmed = await repo.moveRegistration(tx, registration.id, 'pending_payment', 'confirmed');
    if (confirmed === undefined) return;
    await tickets.confirmHeldSeat(tx, registration.ticket_type_id);
    await emitParticipantBadge(tx, confirmed);
    await announce(tx, payments, 'registration.confirmed', confirmed);
    return;
  }
  if (registration.status === 'expired') {
    // Paid after the hold ended: the seat was given back, so take one again if there is one.
    if ((await tickets.takeSeat(tx, registration.ticket_type_id)) !== undefined) {
      const confirmed = await repo.moveRegistration(tx, registration.id, 'expired', 'confirmed');
      if (confirmed === undefined) return;
      await emitParticipantBadge(tx, confirmed);
      await announce(tx, payments, 'registration.confirmed', confirmed);
      return;
    }
    await repo.setStatusReason(tx, registration.id, 'expired', SOLD_OUT_AFTER_EXPIRY);
    await payments.requestRefund(tx, registration.intent_id ?? '', SOLD_OUT_AFTER_EXPIRY);
    return;
  }
  if (registration.status === 'cancelled' && registration.intent_id !== null) {
    // Cancelled while paying: the money goes back.
    await payments.requestRefund(tx, registration.intent_id, REGISTRATION_CANCELLED);
  }
}

async function onRefunded(
  tx: Executor,
  payments: PaymentsPort,
  registration: RegistrationRow,
  refundReason: string | null,
): Promise<void> {
  if (registration.status === 'confirmed') {
    // A cancellation refunds first (`cancelPaidRegistration`) and ends here, in the refund's
    // transaction: the seat is freed only together with the money going back.
    const isCancellation = refundReason === REGISTRATION_CANCELLED;
    const to = isCancellation ? 'cancelled' : 'refunded';
    const ended = await repo.moveRegistration(tx, registration.id, 'confirmed', to, 'refunded');
    if (ended === undefined) return;
    await tickets.releaseSeat(tx, registration.ticket_type_id);
    await revokeParticipantBadge(tx, ended, isCancellation ? REGISTRATION_CANCELLED : 'refunded');
    await announce(tx, payments, 'registration.refunded', ended);
    return;
  }
  if (registration.status === 'expired') {
    const refunded = await repo.moveRegistration(
      tx,
      registration.id,
      'expired',
      'refunded',
      registration.status_reason ?? 'refunded',
    );
    if (refunded !== undefined) await announce(tx, payments, 'registration.refunded', refunded);
  }
}

export function onIntentTransition(payments: PaymentsPort) {
  return async (tx: Executor, transition: IntentTransition): Promise<void> => {
    if (transition.to !== 'succeeded' && transition.to !== 'refunded') return;
    const registration = await repo.lockRegistrationOfIntent(tx, transition.intentId);
    if (registration === undefined) return;
    if (transition.to === 'succeeded') await onSucceeded(tx, payments, registration);
    else await onRefunded(tx, payments, registration, transition.refundReason);
  };
}

/**
 * The hold's end: a registration still `pending_payment` becomes `expired`, its seat is released
 * and `registration.expired` announced. Its intent stays pending for reconciliation, which asks
 * the provider 10 minutes later and cancels it if nothing was paid: cancelling it now would leave
 * no way to honour a payment that is still being processed (a payment that succeeds later is then
 * confirmed if a seat is free, else refunded).
 */
export function expireHoldJob(deps: EventsDeps): JobHandler {
  return async (job) => {
    const expired = await deps.db.transaction(async (tx) => {
      const registration = await repo.lockRegistration(tx, job.key);
      if (registration?.status !== 'pending_payment') return false;
      const moved = await repo.moveRegistration(
        tx,
        registration.id,
        'pending_payment',
        'expired',
        'hold_expired',
      );
      if (moved === undefined) return false;
      await tickets.releaseHeldSeat(tx, registration.ticket_type_id);
      await announce(tx, deps.payments, 'registration.expired', moved);
      return true;
    });
    if (expired) deps.payments.wake();
    return undefined;
  };
}

/** Wires the module into the payments port and the job runner. */
export function registerCheckout(deps: EventsDeps): void {
  deps.payments.onTransition(onIntentTransition(deps.payments));
  deps.jobs.registerJobKind(EXPIRE_HOLD_JOB, expireHoldJob(deps));
}
