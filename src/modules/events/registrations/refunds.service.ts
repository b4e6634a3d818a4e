/**
 * Refunds of paid registrations (docs/reference/checkout.md): an organiser's refund, and the cancellation of
 * a paid seat, which refunds first. The payments port refunds at the provider; the refund's intent transition
 * then ends the registration (`registrations.listener.ts`).
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database, Executor } from '../../../kernel/db/client.ts';
import { AppError, conflict, notFound } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import { NO_PROVIDER_PAYMENT, type PaymentsPort } from '../../../kernel/payments-port.ts';
import { requireRegistrationAccess } from './registrations.access.ts';
import * as repo from './registrations.repository.ts';
import type { RegistrationRow } from './registrations.table.ts';
import { REGISTRATION_CANCELLED } from './registrations.transitions.ts';

/**
 * Refunds a paid, confirmed registration as an owner or admin of its event (404 and 403 as for a
 * cancellation). The payments module refunds at the provider and announces the transition, which
 * moves the registration to `refunded` (`registrations.listener.ts`); `reason`, when given, is the
 * refund's reason, which that transition writes as `status_reason` instead of `refunded`. With
 * `amountCents` less than what is left, a partial refund: the intent stays `succeeded` with its
 * `refunded_cents` raised, no transition is announced, and the registration stays confirmed with
 * its seat and badge (a goodwill refund, a discount after the fact); the refund that gives back the
 * rest ends it `refunded` as a full one does.
 */
export async function refundRegistration(
  db: Database,
  payments: PaymentsPort,
  registrationId: string,
  actor: Identity,
  { reason, amountCents }: { reason?: string | undefined; amountCents?: number | undefined },
) {
  const registration = await requireRegistrationAccess(db, registrationId, actor, 'admin', false);
  if (registration.intent_id === null)
    throw conflict('not_paid', 'This registration was not paid; cancel it instead');
  if (registration.status !== 'confirmed') {
    throw conflict(
      'not_confirmed',
      `Only a confirmed registration can be refunded; this one is ${registration.status}`,
      { status: registration.status },
    );
  }
  // The reason goes with the refund: the refund's transition writes it on the registration.
  await refundAtProvider(db, payments, registration.intent_id, reason, 'organiser', amountCents);
  const now = await repo.findRegistration(db, registrationId);
  if (now === undefined) throw notFound('Registration');
  return serialize(now);
}

/**
 * Whether a registrant was checked in, which ends their right to cancel. Check-ins sit above
 * registrations (a check-in points at a badge), so the check-ins feature is given here as a port,
 * wired in the module's index.ts (`RegistrationsContext`): routes built without it do not compile.
 */
export interface RegistrantCheckIns {
  hasParticipantCheckIn(db: Executor, editionId: string, userId: string): Promise<boolean>;
}

/** Who cancels a paid registration: an owner or admin of its event, or its registrant alone. */
export interface PaidCancellation {
  byOrganiser: boolean;
  editionStartsAt: Date;
}

/**
 * Cancels a confirmed, paid registration (its registrant, or an owner or admin: the caller checked
 * that): all its money goes back first, through the payments port's serialised refund, and the
 * refund's transition ends the registration `cancelled` in the same transaction, freeing its seat
 * and revoking its badge (`registrations.listener.ts`). A confirmed paid seat is thus never released
 * while its money is kept: when the provider fails (502) or another refund of it is in flight
 * (409), the registration stays confirmed with its seat. Its registrant alone may do this only
 * while it is still a ticket for later (`requireSelfCancellable`); an owner or admin at any time.
 */
export async function cancelPaidRegistration(
  db: Database,
  payments: PaymentsPort,
  checkIns: RegistrantCheckIns,
  registration: RegistrationRow & { intent_id: string },
  who: PaidCancellation,
): Promise<RegistrationRow> {
  if (!who.byOrganiser) await requireSelfCancellable(db, checkIns, registration, who.editionStartsAt);
  await refundAtProvider(
    db,
    payments,
    registration.intent_id,
    REGISTRATION_CANCELLED,
    who.byOrganiser ? 'organiser' : 'registrant',
  );
  const now = await repo.findRegistration(db, registration.id);
  if (now === undefined) throw notFound('Registration');
  return now;
}

/**
 * A registrant gets their money back by cancelling only before the edition starts and before they
 * were checked in: after that the ticket has been used (or could have been), and whether to give
 * the money back is the organisers' call (docs/reference/checkout.md). 409 with `edition_started` or
 * `checked_in`.
 */
async function requireSelfCancellable(
  db: Database,
  checkIns: RegistrantCheckIns,
  registration: RegistrationRow,
  editionStartsAt: Date,
): Promise<void> {
  const organisers = 'only an owner or admin of the event can cancel it now (with a full refund)';
  if (editionStartsAt.getTime() <= Date.now()) {
    throw conflict(
      'edition_started',
      `The edition has started, so this paid registration can no longer be cancelled by its registrant: ${organisers}`,
      { starts_at: editionStartsAt.toISOString() },
    );
  }
  if (await checkIns.hasParticipantCheckIn(db, registration.edition_id, registration.user_id)) {
    throw conflict(
      'checked_in',
      `This registration has been checked in, so it can no longer be cancelled by its registrant: ${organisers}`,
    );
  }
}

/**
 * The payments port's refund of a registration's intent (all that is left unless `amountCents`),
 * its 409 for a test-mode payment told in words for who asked: a registrant has nothing to do with
 * intents or test mode.
 */
async function refundAtProvider(
  db: Database,
  payments: PaymentsPort,
  intentId: string,
  reason: string | undefined,
  askedBy: 'registrant' | 'organiser',
  amountCents?: number,
): Promise<void> {
  try {
    await payments.refundNow(db, intentId, reason, amountCents);
  } catch (error) {
    if (!(error instanceof AppError) || error.reason !== NO_PROVIDER_PAYMENT) throw error;
    throw conflict(
      'test_mode_payment',
      askedBy === 'registrant'
        ? 'This registration was paid in a test of the event’s payments: no money was taken, so there ' +
            'is nothing to give back and it cannot be cancelled here. The event’s organisers can end it.'
        : 'This registration’s payment was simulated in test mode: no money was taken at Mercado Pago, ' +
            'so none can be given back. The wallet’s owner ends it by moving its intent to `refunded` ' +
            '(POST /testmode/intents/{intent_id}/simulate).',
      { intent_id: intentId },
    );
  }
}
