/**
 * The one place a registration's status changes (docs/reference/tickets.md and docs/reference/checkout.md),
 * modelled on the intents' `intents.transitions.ts`. Every transition is declared in
 * `REGISTRATION_TRANSITIONS` with its effects: the seat counter of its ticket type, the participant badge, a
 * refund asked of the payments module, the registration event announced to the wallet's webhook
 * endpoints, and the mail its holder is sent (docs/mail.md). The services, the payment listener and the hold-expiry job name a transition; they never write a
 * status, a seat, a badge or an announcement of a registration themselves
 * (`registrations.transitions.test.ts` checks that nothing else writes the status).
 *
 * Everything runs in the caller's transaction: the status, its seat, its badge, its refund job, its
 * announcement (with its deliveries) and its mail (an outbox row) commit together or not at all.
 */
import { findActorById } from '../../../kernel/auth/actors.repository.ts';
import type { Executor } from '../../../kernel/db/client.ts';
import {
  type PaymentsPort,
  type RegistrationEventType,
  registrationEventData,
} from '../../../kernel/payments-port.ts';
import { queueMail } from '../../mail/index.ts';
import * as seats from '../tickets/index.ts';
import * as repo from './registrations.repository.ts';
import type { RegistrationRow, RegistrationStatus } from './registrations.table.ts';

/** The reason of a refund a cancellation asks for (a paid seat cancelled, or cancelled while paying). */
export const REGISTRATION_CANCELLED = 'registration_cancelled';
/** Why a payment made after its hold ended is given back: the seat went to someone else. */
export const SOLD_OUT_AFTER_EXPIRY = 'sold_out_after_expiry';

/**
 * What a transition does to its ticket type's counters: `take` a confirmed seat (only where one is
 * free, holds counted), `hold` one for a checkout (the same condition), `confirm_hold` (a held seat
 * becomes a confirmed one), `free` a confirmed seat, `free_hold` a held one.
 */
export type SeatEffect = 'take' | 'hold' | 'confirm_hold' | 'free' | 'free_hold';

/** What a transition does to the participant badge: emit (or re-activate) it, or void it with a reason. */
export type BadgeEffect = { emit: true } | { void: 'registration_cancelled' | 'refunded' };

export interface RegistrationTransition {
  /** The status it starts from; null for a registration being created. */
  from: RegistrationStatus | null;
  /** The status it ends in; the same as `from` when only its effects happen (a late payment). */
  to: RegistrationStatus;
  /**
   * The `status_reason` written: a fixed reason, `keep` (the one it had, else `refunded`), or null.
   * A transition that stays in its status writes it only when declared.
   */
  reason: string | 'keep' | null;
  seat: SeatEffect | null;
  badge: BadgeEffect | null;
  /** The reason of the full refund of its intent asked of the payments module, if any. */
  refund: string | null;
  /** The event announced to the wallet's webhook endpoints (paid registrations only). */
  announce: RegistrationEventType | null;
  /** The mail its holder is sent, in the language of the registration's request. */
  mail: 'registration_confirmed' | 'refund_issued' | null;
}

/** Every transition of a registration and its effects. */
export const REGISTRATION_TRANSITIONS = {
  /** A free ticket, or one staff hand out: confirmed at once. */
  register: {
    from: null,
    to: 'confirmed',
    reason: null,
    seat: 'take',
    badge: { emit: true },
    refund: null,
    announce: null,
    mail: 'registration_confirmed',
  },
  /** A paid ticket's checkout: its seat held until it is paid or the hold ends. */
  startCheckout: {
    from: null,
    to: 'pending_payment',
    reason: null,
    seat: 'hold',
    badge: null,
    refund: null,
    announce: null,
    mail: null,
  },
  /** A free (or staff-given) registration cancelled. */
  cancel: {
    from: 'confirmed',
    to: 'cancelled',
    reason: null,
    seat: 'free',
    badge: { void: 'registration_cancelled' },
    refund: null,
    announce: null,
    mail: null,
  },
  /** Cancelled while paying: the held seat comes back (a payment that still succeeds is refunded). */
  cancelPending: {
    from: 'pending_payment',
    to: 'cancelled',
    reason: null,
    seat: 'free_hold',
    badge: null,
    refund: null,
    announce: null,
    mail: null,
  },
  /** The payment succeeded while the seat was held. */
  pay: {
    from: 'pending_payment',
    to: 'confirmed',
    reason: null,
    seat: 'confirm_hold',
    badge: { emit: true },
    refund: null,
    announce: 'registration.confirmed',
    mail: 'registration_confirmed',
  },
  /** The payment succeeded after the hold ended and a seat is free. */
  payAfterExpiry: {
    from: 'expired',
    to: 'confirmed',
    reason: null,
    seat: 'take',
    badge: { emit: true },
    refund: null,
    announce: 'registration.confirmed',
    mail: 'registration_confirmed',
  },
  /** The payment succeeded after the hold ended and no seat is free: the money goes back. */
  payAfterExpirySoldOut: {
    from: 'expired',
    to: 'expired',
    reason: SOLD_OUT_AFTER_EXPIRY,
    seat: null,
    badge: null,
    refund: SOLD_OUT_AFTER_EXPIRY,
    announce: null,
    mail: null,
  },
  /** The payment succeeded after the registration was cancelled while paying: the money goes back. */
  payAfterCancel: {
    from: 'cancelled',
    to: 'cancelled',
    reason: null,
    seat: null,
    badge: null,
    refund: REGISTRATION_CANCELLED,
    announce: null,
    mail: null,
  },
  /** The hold ended unpaid. Its intent stays pending for reconciliation. */
  expire: {
    from: 'pending_payment',
    to: 'expired',
    reason: 'hold_expired',
    seat: 'free_hold',
    badge: null,
    refund: null,
    announce: 'registration.expired',
    mail: null,
  },
  /** A confirmed paid registration's money went back (an organiser's refund, or the provider's). */
  refund: {
    from: 'confirmed',
    to: 'refunded',
    reason: 'refunded',
    seat: 'free',
    badge: { void: 'refunded' },
    refund: null,
    announce: 'registration.refunded',
    mail: 'refund_issued',
  },
  /** A confirmed paid registration's cancellation, whose refund went through first. */
  refundCancellation: {
    from: 'confirmed',
    to: 'cancelled',
    reason: 'refunded',
    seat: 'free',
    badge: { void: 'registration_cancelled' },
    refund: null,
    announce: 'registration.refunded',
    mail: 'refund_issued',
  },
  /** The refund of a payment that came after the hold ended went through. */
  refundExpired: {
    from: 'expired',
    to: 'refunded',
    reason: 'keep',
    seat: null,
    badge: null,
    refund: null,
    announce: 'registration.refunded',
    mail: 'refund_issued',
  },
  /** The refund of a payment that came after the registration was cancelled while paying went through. */
  refundAfterCancel: {
    from: 'cancelled',
    to: 'cancelled',
    reason: null,
    seat: null,
    badge: null,
    refund: null,
    announce: null,
    mail: 'refund_issued',
  },
} as const satisfies Record<string, RegistrationTransition>;

export type TransitionName = keyof typeof REGISTRATION_TRANSITIONS;
type Creation = {
  [K in TransitionName]: (typeof REGISTRATION_TRANSITIONS)[K]['from'] extends null ? K : never;
}[TransitionName];
type Move = Exclude<TransitionName, Creation>;

/**
 * What a transition's badge effect does. Badges sit above registrations (a badge row points at its
 * registration), so the badges feature is given to the transitions as this port, wired in the
 * module's index.ts: a caller without it does not compile.
 */
export interface ParticipantBadges {
  /** The registration was just confirmed: its holder's participant badge, pointing at it. */
  emit(tx: Executor, registration: { id: string; edition_id: string; user_id: string }): Promise<void>;
  /** The registration was just cancelled or refunded: its holder's participant badge is revoked. */
  revoke(
    tx: Executor,
    registration: { edition_id: string; user_id: string },
    reason: 'registration_cancelled' | 'refunded',
  ): Promise<void>;
}

/** What the effects need: the payments module (announcing and refunding) and the participant badges. */
export interface TransitionPorts {
  payments: Pick<PaymentsPort, 'announce' | 'requestRefund'>;
  participantBadges: ParticipantBadges;
}

/** A new registration's columns, but its status (the transition's). */
export type OpenedRegistration = Omit<repo.NewRegistration, 'status' | 'status_reason'>;

/**
 * Creates a registration by `name` in the caller's transaction: the row first (a concurrent
 * registration of the same person then waits on the unique index, and a cancellation of their
 * previous registration, which locks its row before the ticket type, cannot deadlock with it),
 * then `between` (the checkout's intent and hold job), then the badge, the announcement and the
 * mail (the holder's own badge row, and new rows: a concurrent writer of the same badge is a
 * registration or cancellation of the same person, which the registration row has already
 * waited for), and the seat last. Its row lock is the one every registration of the ticket type
 * waits for, held from there to the commit: one statement and the commit. Each round trip after
 * it lengthened every registration's wait for the one before; under a steady load beside mail
 * sending, the wait outgrew the time between two registrations, and seven or more waited on the
 * lock for seconds (docs/mail.md, "Figures"). Undefined when no seat is free: the caller throws
 * its 409, which rolls it all back.
 */
export async function openRegistration(
  tx: Executor,
  ports: TransitionPorts,
  name: Creation,
  values: OpenedRegistration,
  between?: () => Promise<void>,
): Promise<RegistrationRow | undefined> {
  const transition: RegistrationTransition = REGISTRATION_TRANSITIONS[name];
  const row = await repo.insertRegistration(tx, {
    ...values,
    status: transition.to,
    status_reason:
      typeof transition.reason === 'string' && transition.reason !== 'keep' ? transition.reason : null,
  });
  await between?.();
  await applyRest(tx, ports, transition, row);
  if (!(await applySeat(tx, transition.seat, row.ticket_type_id))) return undefined;
  return row;
}

/**
 * Applies `name` to `registration` (as read, or locked, by the caller) in the caller's
 * transaction. The status update is conditional on `from`: of two writers exactly one moves it, and
 * the other gets undefined (and no effect). A seat taken for an existing registration (a late
 * payment) is taken before the move, so that undefined (no free seat) leaves it as it was; every
 * other effect follows the move. A transition that stays in its status only writes its reason (if
 * it declares one) and has its effects.
 */
export async function moveRegistration(
  tx: Executor,
  ports: TransitionPorts,
  registration: RegistrationRow,
  name: Move,
  /** The reason written instead of the transition's own (an organiser's reason for their refund). */
  givenReason?: string,
): Promise<RegistrationRow | undefined> {
  const transition: RegistrationTransition = REGISTRATION_TRANSITIONS[name];
  const from = transition.from ?? registration.status;
  if (registration.status !== from) return undefined;
  let row: RegistrationRow | undefined = registration;
  if (transition.to === from) {
    if (typeof transition.reason === 'string' && transition.reason !== 'keep') {
      await repo.setStatusReason(tx, registration.id, from, transition.reason);
    }
  } else {
    if (transition.seat === 'take' && !(await applySeat(tx, 'take', registration.ticket_type_id))) {
      return undefined;
    }
    const reason =
      givenReason ??
      (transition.reason === 'keep' ? (registration.status_reason ?? 'refunded') : transition.reason);
    row = await repo.updateStatus(tx, registration.id, from, transition.to, reason);
    if (row === undefined) return undefined;
    if (transition.seat !== 'take') await applySeat(tx, transition.seat, row.ticket_type_id);
  }
  await applyRest(tx, ports, transition, row);
  return row;
}

/** The seat effect; false when `take` or `hold` found no free seat. */
async function applySeat(tx: Executor, seat: SeatEffect | null, ticketTypeId: string): Promise<boolean> {
  switch (seat) {
    case 'take':
      return (await seats.takeSeat(tx, ticketTypeId)) !== undefined;
    case 'hold':
      return (await seats.holdSeat(tx, ticketTypeId)) !== undefined;
    case 'confirm_hold':
      await seats.confirmHeldSeat(tx, ticketTypeId);
      return true;
    case 'free':
      await seats.releaseSeat(tx, ticketTypeId);
      return true;
    case 'free_hold':
      await seats.releaseHeldSeat(tx, ticketTypeId);
      return true;
    case null:
      return true;
  }
}

/** The badge, the refund, the announcement and the mail, in that order. */
async function applyRest(
  tx: Executor,
  ports: TransitionPorts,
  transition: RegistrationTransition,
  row: RegistrationRow,
): Promise<void> {
  if (transition.badge !== null) {
    if ('emit' in transition.badge) await ports.participantBadges.emit(tx, row);
    else await ports.participantBadges.revoke(tx, row, transition.badge.void);
  }
  if (transition.refund !== null && row.intent_id !== null) {
    await ports.payments.requestRefund(tx, row.intent_id, transition.refund);
  }
  const announce = transition.announce !== null && row.intent_id !== null;
  if (!announce && transition.mail === null) return;
  const eventId = (await repo.findEventOfEdition(tx, row.edition_id)) ?? '';
  if (transition.announce !== null && row.intent_id !== null) {
    await ports.payments.announce(
      tx,
      transition.announce,
      registrationEventData({ ...row, intent_id: row.intent_id }, eventId),
    );
  }
  if (transition.mail !== null) {
    // The holder's address as the actor directory has it now (their last token's e-mail).
    const holder = await findActorById(tx, row.user_id);
    if (holder === undefined) return;
    await queueMail(tx, {
      kind: transition.mail,
      to: holder.email,
      language: row.language,
      eventId,
      data: { registration_id: row.id },
    });
  }
}
