/**
 * Paid registrations (docs/reference/checkout.md), events side. A checkout is made in one request: the
 * provider's checkout first (through the payments port; it writes nothing, so a provider failure leaves
 * nothing behind), then one transaction that inserts the registration `pending_payment`, holds its seat,
 * stores the intent and schedules the hold's end. What happens next comes from the payments module as intent
 * transitions (`registrations.listener.ts`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Config } from '../../../kernel/config.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { findPgError } from '../../../kernel/db/errors.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { conflict } from '../../../kernel/http/errors.ts';
import { scheduleJob } from '../../../kernel/jobs/jobs.repository.ts';
import type { CheckoutRequest, PaymentsPort } from '../../../kernel/payments-port.ts';
import type { Mailer } from '../../mail/index.ts';
import type { EditionRow } from '../editions/index.ts';
import { findPaymentLink } from '../payment-links/index.ts';
import type { TicketTypeRow } from '../tickets/index.ts';
import { claimCheckout, releaseCheckoutClaim, renewCheckoutClaim } from './checkout-claims.repository.ts';
import * as repo from './registrations.repository.ts';
import type { RegistrationRow } from './registrations.table.ts';
import { openRegistration, type ParticipantBadges } from './registrations.transitions.ts';

export const EXPIRE_HOLD_JOB = 'events.expire_hold';

export interface CheckoutDeps {
  db: Database;
  config: Config;
  payments: PaymentsPort;
  /** The transitions' badge effect (badges/, wired in the module's index.ts). */
  participantBadges: ParticipantBadges;
  /** Woken after a commit that queued a registration's mail (docs/mail.md, "Sending and retries"). */
  mail: Pick<Mailer, 'wake'>;
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
      throw conflict('checkout_in_progress', 'A checkout for this person is in progress; retry in a moment');
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
    throw conflict('no_currency', 'This paid ticket type has no currency; create it again with `currency`', {
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
      const values = {
        id: registrationId,
        edition_id: edition.id,
        ticket_type_id: ticketType.id,
        user_id: payer.userId,
        created_by: payer.userId,
        language: payer.language ?? 'en',
        intent_id: request.intentId,
        hold_expires_at: holdExpiresAt,
        checkout_url: prepared.checkoutUrl,
      };
      // The seat last (`openRegistration`): its row lock is the one every checkout of this ticket
      // type waits for, so it is held only from there to the commit (bench/README.md: p99 234 ms
      // before this order, 121-137 after).
      const inserted = await openRegistration(tx, deps, 'startCheckout', values, async () => {
        await payments.recordCheckout(tx, request, prepared);
        await scheduleJob(tx, { kind: EXPIRE_HOLD_JOB, key: registrationId, runAt: holdExpiresAt });
      });
      if (inserted === undefined) throw soldOut(ticketType);
      return inserted;
    });
    payments.wake();
    return { registration, created: true };
  } catch (error) {
    if (findPgError(error)?.constraint !== 'registrations_one_active_unique') throw error;
    const winner = await repo.findActiveRegistration(db, edition.id, payer.userId);
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
  const eventId = (await repo.findEventOfEdition(db, ticketType.edition_id)) ?? '';
  const link = await findPaymentLink(db, eventId);
  if (link === undefined) throw noLink(eventId);
  const holdExpiresAt = registration.hold_expires_at ?? new Date();
  const request = checkoutRequest(link, eventId, ticketType, payer, registration.id, holdExpiresAt);
  const prepared = await payments.prepareCheckout(db, request);
  const moved = await db.transaction(async (tx) => {
    const row = await repo.replaceCheckout(
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
  return moved ?? (await repo.findRegistration(db, registration.id)) ?? registration;
}

const noLink = (eventId: string) =>
  conflict(
    'payments_not_linked',
    'This event does not sell paid tickets yet: its owner links a wallet with PUT /events/{event_id}/payments',
    { event_id: eventId },
  );

const soldOut = (ticketType: TicketTypeRow) =>
  conflict(
    'sold_out',
    'This ticket type is sold out (seats held by unpaid checkouts count until their hold ends)',
    { max_quantity: ticketType.max_quantity },
  );
