/**
 * Paid registrations (contract 8), events side. A checkout is made in one request: the provider's
 * checkout first (through the payments port; it writes nothing, so a provider failure leaves
 * nothing behind), then one transaction that inserts the registration `pending_payment`, holds
 * its seat, stores the intent and schedules the hold's end. What happens next comes from the
 * payments module as intent transitions (`checkout.listener.ts`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Config } from '../../../kernel/config.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { findPgError } from '../../../kernel/db/errors.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { AppError, conflict, notFound } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import { scheduleJob } from '../../../kernel/jobs/jobs.repository.ts';
import {
  type CheckoutRequest,
  NO_PROVIDER_PAYMENT,
  type PaymentsPort,
} from '../../../kernel/payments-port.ts';
import { requireRegistrationAccess } from '../access.ts';
import { hasParticipantCheckIn } from '../check-ins/check-ins.repository.ts';
import type { EditionRow } from '../editions/editions.table.ts';
import * as tickets from '../tickets/tickets.repository.ts';
import type { RegistrationRow, TicketTypeRow } from '../tickets/tickets.table.ts';
import { claimCheckout, releaseCheckoutClaim, renewCheckoutClaim } from './checkout-claims.repository.ts';
import { findPaymentLink } from './payment-links.repository.ts';

export const EXPIRE_HOLD_JOB = 'events.expire_hold';
/** The reason of a refund a cancellation asks for (a paid seat cancelled, or cancelled while paying). */
export const REGISTRATION_CANCELLED = 'registration_cancelled';

export interface CheckoutDeps {
  db: Database;
  config: Config;
  payments: PaymentsPort;
}

/**
 * How a checkout claim is held and waited for (`withCheckoutClaim`). A claim holds `seconds` unless
 * renewed; its holder renews it every `renewMs` while it works, so a claim outlives its request by
 * at most `seconds`: the same person's next request (a retry after the process was killed) waits no
 * longer than that. A request waiting for another's claim tries again after `firstRetryMs`, the
 * pause doubling up to `maxRetryMs`, and gives up after `waitMs`.
 */
export interface ClaimTiming {
  seconds: number;
  renewMs: number;
  waitMs: number;
  firstRetryMs: number;
  maxRetryMs: number;
}

/**
 * `waitMs`: a holder's work is one preference request to the provider, whose deadline is 10 s
 * (with a token refresh, rarely, another); twice that covers a slow provider, and past it the
 * holder is about to answer 502 itself, so the waiting request is better told to retry than held.
 */
const CLAIM_TIMING: ClaimTiming = {
  seconds: 5,
  renewMs: 1000,
  waitMs: 20_000,
  firstRetryMs: 25,
  maxRetryMs: 500,
};

/**
 * Runs `run` (the look for the person's registration, the provider's preference, the commit) while
 * no other request of the same person in the same edition does: ten concurrent first paid
 * registrations make one preference, the other nine then find its registration and answer it, as
 * a second registration while pending is answered. Waiting is polling a claim row, not holding a
 * transaction or lock across the provider call, which would hold a connection per waiting request
 * (and, embedded, the one database connection) for as long as the provider takes. A request that
 * waited `timing.waitMs` in vain gets a 409 (`checkout_in_progress`). Should a holder stall past its
 * claim (an event loop blocked for seconds), the next request goes ahead and the unique index of
 * active registrations still makes one registration (`startCheckout`). The service cannot see a
 * client that went away, so a waiting request still waits for its claim or its deadline.
 */
export async function withCheckoutClaim<T>(
  db: Database,
  editionId: string,
  userId: string,
  run: () => Promise<T>,
  timing: Partial<ClaimTiming> = {},
): Promise<T> {
  const settings = { ...CLAIM_TIMING, ...timing };
  const claimId = uuidv7();
  const deadline = Date.now() + settings.waitMs;
  let pause = settings.firstRetryMs;
  while (!(await claimCheckout(db, editionId, userId, claimId, settings.seconds))) {
    if (Date.now() + pause > deadline) {
      throw conflict('A checkout for this person is in progress; retry in a moment', {
        reason: 'checkout_in_progress',
      });
    }
    await sleep(pause);
    pause = Math.min(pause * 2, settings.maxRetryMs);
  }
  const stopRenewing = renewWhileHeld(
    () => renewCheckoutClaim(db, editionId, userId, claimId, settings.seconds),
    settings.renewMs,
  );
  try {
    return await run();
  } finally {
    // The renewal on its way first: released after it, the claim stays released.
    await stopRenewing();
    await releaseCheckoutClaim(db, editionId, userId, claimId);
  }
}

/**
 * Calls `renew` every `renewMs`, one call at a time, until the function returned is
 * called; that resolves once the call on its way (if any) is done. A failed renewal is not fatal:
 * the claim then lapses and the unique index of active registrations is the last line.
 */
function renewWhileHeld(renew: () => Promise<unknown>, renewMs: number): () => Promise<void> {
  let stopped = false;
  let inFlight: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      inFlight = renew()
        .catch(() => undefined)
        .finally(() => {
          if (!stopped) schedule();
        });
    }, renewMs);
    timer.unref();
  };
  schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await inFlight;
  };
}

export interface RegistrationOutcome {
  registration: RegistrationRow;
  /** False when an earlier pending registration of the same person is given back. */
  created: boolean;
}

/**
 * Starts the checkout of a paid ticket for `payer`. 409 without a payment link, for a ticket type
 * without a currency, or when no seat is free (holds count); the payments port answers 409 for a
 * seller no longer live and 502 for the provider. Called under the person's checkout claim
 * (`withCheckoutClaim`); should two requests still race (a claim taken over after its expiry), the
 * loser's insert meets the unique index and it answers the winner's registration.
 */
export async function startCheckout(
  deps: CheckoutDeps,
  edition: EditionRow,
  ticketType: TicketTypeRow,
  payer: Identity,
): Promise<RegistrationOutcome> {
  const { db, payments } = deps;
  const link = await findPaymentLink(db, edition.event_id);
  if (link === undefined) throw noLink(edition.event_id);
  if (ticketType.currency === null) {
    throw conflict('This paid ticket type has no currency; create it again with `currency`', {
      ticket_type_id: ticketType.id,
    });
  }
  if (
    ticketType.max_quantity !== null &&
    ticketType.confirmed_count + ticketType.held_count >= ticketType.max_quantity
  ) {
    throw soldOut(ticketType);
  }

  const registrationId = uuidv7();
  const holdExpiresAt = new Date(Date.now() + deps.config.checkout.holdSeconds * 1000);
  const request = checkoutRequest(link, edition.event_id, ticketType, payer, registrationId, holdExpiresAt);
  const prepared = await payments.prepareCheckout(db, request);

  try {
    const registration = await db.transaction(async (tx) => {
      const inserted = await tickets.insertRegistration(tx, {
        id: registrationId,
        edition_id: edition.id,
        ticket_type_id: ticketType.id,
        user_id: payer.userId,
        status: 'pending_payment',
        created_by: payer.userId,
        intent_id: request.intentId,
        hold_expires_at: holdExpiresAt,
        checkout_url: prepared.checkoutUrl,
      });
      await payments.recordCheckout(tx, request, prepared);
      await scheduleJob(tx, { kind: EXPIRE_HOLD_JOB, key: registrationId, runAt: holdExpiresAt });
      // The seat last: its row lock is the one every checkout of this ticket type waits for, so it
      // is held only from here to the commit (bench/README.md: p99 234 ms before this order, 121-137 after).
      if ((await tickets.holdSeat(tx, ticketType.id)) === undefined) throw soldOut(ticketType);
      return inserted;
    });
    payments.wake();
    return { registration, created: true };
  } catch (error) {
    if (findPgError(error)?.constraint !== 'registrations_one_active_unique') throw error;
    const winner = await tickets.findActiveRegistration(db, edition.id, payer.userId);
    if (winner?.status !== 'pending_payment') throw error;
    return { registration: winner, created: false };
  }
}

/** What the payments module is asked for one checkout attempt of a registration. */
function checkoutRequest(
  link: { wallet_id: string; seller_id: string },
  eventId: string,
  ticketType: TicketTypeRow,
  payer: Identity,
  registrationId: string,
  holdExpiresAt: Date,
): CheckoutRequest {
  return {
    walletId: link.wallet_id,
    sellerId: link.seller_id,
    intentId: uuidv7(),
    amountCents: ticketType.price_cents,
    currency: ticketType.currency ?? '',
    title: ticketType.name,
    payerEmail: payer.email,
    expiresAt: holdExpiresAt,
    metadata: {
      registration_id: registrationId,
      edition_id: ticketType.edition_id,
      event_id: eventId,
      ticket_type_id: ticketType.id,
      user_id: payer.userId,
    },
  };
}

/**
 * A pending registration's checkout, for its payer registering again. While its intent can still
 * be paid, the same one. When the last attempt ended the intent (`rejected`, `cancelled`,
 * `failed`: a refused card), a fresh checkout for the same registration and hold: a new intent and
 * preference, which the registration now names (the old intent keeps its status; a payment still
 * made on it is given back). Of two such requests at once, one makes it and both answer it.
 */
export async function resumeCheckout(
  deps: CheckoutDeps,
  registration: RegistrationRow,
  ticketType: TicketTypeRow,
  payer: Identity,
): Promise<RegistrationRow> {
  const { db, payments } = deps;
  const current = registration.intent_id;
  if (current === null || !(await payments.hasEnded(db, current))) return registration;
  const eventId = (await tickets.findEventOfEdition(db, ticketType.edition_id)) ?? '';
  const link = await findPaymentLink(db, eventId);
  if (link === undefined) throw noLink(eventId);
  const holdExpiresAt = registration.hold_expires_at ?? new Date();
  const request = checkoutRequest(link, eventId, ticketType, payer, registration.id, holdExpiresAt);
  const prepared = await payments.prepareCheckout(db, request);
  const moved = await db.transaction(async (tx) => {
    const row = await tickets.replaceCheckout(
      tx,
      registration.id,
      current,
      request.intentId,
      prepared.checkoutUrl,
    );
    if (row !== undefined) await payments.recordCheckout(tx, request, prepared);
    return row;
  });
  if (moved !== undefined) payments.wake();
  return moved ?? (await tickets.findRegistration(db, registration.id)) ?? registration;
}

const noLink = (eventId: string) =>
  conflict(
    'This event does not sell paid tickets yet: its owner links a wallet with PUT /events/{event_id}/payments',
    { event_id: eventId },
  );

const soldOut = (ticketType: TicketTypeRow) =>
  conflict('This ticket type is sold out (seats held by unpaid checkouts count until their hold ends)', {
    max_quantity: ticketType.max_quantity,
  });

/**
 * Refunds a paid, confirmed registration as an owner or admin of its event (404 and 403 as for a
 * cancellation). The payments module refunds at the provider and announces the transition, which
 * moves the registration to `refunded` (`checkout.listener.ts`); `reason`, when given, replaces
 * the default `status_reason`.
 */
export async function refundRegistration(
  db: Database,
  payments: PaymentsPort,
  registrationId: string,
  actor: Identity,
  reason: string | undefined,
) {
  const registration = await requireRegistrationAccess(db, registrationId, actor, 'admin', false);
  if (registration.intent_id === null) throw conflict('This registration was not paid; cancel it instead');
  if (registration.status !== 'confirmed') {
    throw conflict(`Only a confirmed registration can be refunded; this one is ${registration.status}`, {
      status: registration.status,
    });
  }
  await refundInFull(db, payments, registration.intent_id, undefined, 'organiser');
  if (reason !== undefined) await tickets.setStatusReason(db, registrationId, 'refunded', reason);
  const now = await tickets.findRegistration(db, registrationId);
  if (now === undefined) throw notFound('Registration');
  return serialize(now);
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
 * and revoking its badge (`checkout.listener.ts`). A confirmed paid seat is thus never released
 * while its money is kept: when the provider fails (502) or another refund of it is in flight
 * (409), the registration stays confirmed with its seat. Its registrant alone may do this only
 * while it is still a ticket for later (`requireSelfCancellable`); an owner or admin at any time.
 */
export async function cancelPaidRegistration(
  db: Database,
  payments: PaymentsPort,
  registration: RegistrationRow & { intent_id: string },
  who: PaidCancellation,
): Promise<RegistrationRow> {
  if (!who.byOrganiser) await requireSelfCancellable(db, registration, who.editionStartsAt);
  await refundInFull(
    db,
    payments,
    registration.intent_id,
    REGISTRATION_CANCELLED,
    who.byOrganiser ? 'organiser' : 'registrant',
  );
  const now = await tickets.findRegistration(db, registration.id);
  if (now === undefined) throw notFound('Registration');
  return now;
}

/**
 * A registrant gets their money back by cancelling only before the edition starts and before they
 * were checked in: after that the ticket has been used (or could have been), and whether to give
 * the money back is the organisers' call (README, "Paid tickets"). 409 with `edition_started` or
 * `checked_in`.
 */
async function requireSelfCancellable(
  db: Database,
  registration: RegistrationRow,
  editionStartsAt: Date,
): Promise<void> {
  const organisers = 'only an owner or admin of the event can cancel it now (with a full refund)';
  if (editionStartsAt.getTime() <= Date.now()) {
    throw conflict(
      `The edition has started, so this paid registration can no longer be cancelled by its registrant: ${organisers}`,
      {
        reason: 'edition_started',
        starts_at: editionStartsAt.toISOString(),
      },
    );
  }
  if (await hasParticipantCheckIn(db, registration.edition_id, registration.user_id)) {
    throw conflict(
      `This registration has been checked in, so it can no longer be cancelled by its registrant: ${organisers}`,
      {
        reason: 'checked_in',
      },
    );
  }
}

/**
 * The payments port's full refund of a registration's intent, its 409 for a test-mode payment told
 * in words for who asked: a registrant has nothing to do with intents or test mode.
 */
async function refundInFull(
  db: Database,
  payments: PaymentsPort,
  intentId: string,
  reason: string | undefined,
  askedBy: 'registrant' | 'organiser',
): Promise<void> {
  try {
    await payments.refundNow(db, intentId, reason);
  } catch (error) {
    if (!(error instanceof AppError) || error.meta?.reason !== NO_PROVIDER_PAYMENT) throw error;
    throw conflict(
      askedBy === 'registrant'
        ? 'This registration was paid in a test of the event’s payments: no money was taken, so there ' +
            'is nothing to give back and it cannot be cancelled here. The event’s organisers can end it.'
        : 'This registration’s payment was simulated in test mode: no money was taken at Mercado Pago, ' +
            'so none can be given back. The wallet’s owner ends it by moving its intent to `refunded` ' +
            '(POST /testmode/intents/{intent_id}/simulate).',
      { reason: 'test_mode_payment', intent_id: intentId },
    );
  }
}
