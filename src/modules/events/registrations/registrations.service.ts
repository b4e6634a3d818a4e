/**
 * Registrations (docs/reference/tickets.md): register, read, list, cancel. A registration takes a seat, is
 * inserted and emits the participant badge in one transaction; a cancellation frees the seat and
 * revokes the badge in one transaction (a paid one's, the transaction that records its refund).
 */
import { findActorByEmail, findActorById } from '../../../kernel/auth/actors.repository.ts';
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { describeConstraint } from '../../../kernel/db/errors.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { AppError, conflict, notFound } from '../../../kernel/http/errors.ts';
import { type Serialized, serialize } from '../../../kernel/http/respond.ts';
import type { EditionRow } from '../editions/index.ts';
import { requireEditionRole, requireReadableEdition } from '../editions/index.ts';
import { isEventRole } from '../events/index.ts';
import type { TicketTypeRow } from '../tickets/index.ts';
import * as tickets from '../tickets/index.ts';
import { type CheckoutDeps, resumeCheckout, startCheckout, withCheckoutClaim } from './checkout.service.ts';
import { cancelPaidRegistration, type RegistrantCheckIns } from './refunds.service.ts';
import { requireRegistrationAccess, requireRegistrationAccessWithRole } from './registrations.access.ts';
import * as repo from './registrations.repository.ts';
import type { CreateRegistrationBody } from './registrations.schemas.ts';
import type { RegistrationRow } from './registrations.table.ts';
import { moveRegistration, openRegistration } from './registrations.transitions.ts';

// The last line of defence against a concurrent registration of the same person (409).
describeConstraint('registrations_one_active_unique', {
  reason: 'already_registered',
  message: 'This person already holds an active registration for this edition',
});

/**
 * Who may register whom. Without `email`, the caller registers themselves: the edition must be
 * public to them (404 otherwise). With `email`, the caller must be staff or above (403; 404 when
 * the edition is hidden from them) and the e-mail must name an existing actor (404).
 */
async function resolveRegistrant(
  db: Database,
  editionId: string,
  actor: Identity,
  email: string | undefined,
): Promise<{ edition: EditionRow; userId: string; isStaffRegistration: boolean }> {
  if (email === undefined) {
    const { edition } = await requireReadableEdition(db, editionId, actor);
    return { edition, userId: actor.userId, isStaffRegistration: false };
  }
  const { edition } = await requireEditionRole(db, editionId, actor, 'staff');
  const person = await findActorByEmail(db, email);
  if (person === undefined) {
    throw new AppError('NOT_FOUND', 'No actor has that e-mail; they must call the API once first');
  }
  return { edition, userId: person.user_id, isStaffRegistration: true };
}

/**
 * The state rules. Self-registration: a published edition (members see drafts, but cannot register
 * themselves to one), the registration window open; a paid ticket then goes through checkout.
 * Staff registering someone else may hand out any ticket type, free of charge, at any time before
 * the edition ends (comp tickets, speakers).
 */
function checkRegistrationState(edition: EditionRow, isStaffRegistration: boolean, now: Date): void {
  if (edition.ends_at.getTime() <= now.getTime()) {
    throw conflict('edition_ended', 'The edition has ended; registration is closed', {
      ends_at: edition.ends_at.toISOString(),
    });
  }
  if (isStaffRegistration) return;
  if (edition.is_draft)
    throw conflict('edition_not_published', 'The edition is not published; registration is not open yet');
  if (edition.registration_opens_at !== null && edition.registration_opens_at.getTime() > now.getTime()) {
    throw conflict('registration_not_open', 'Registration has not opened yet', {
      registration_opens_at: edition.registration_opens_at.toISOString(),
    });
  }
}

export async function register(
  deps: CheckoutDeps,
  editionId: string,
  actor: Identity,
  body: CreateRegistrationBody,
): Promise<{ registration: Serialized<RegistrationRow>; created: boolean }> {
  const { db } = deps;
  // 1. Authorization (404, then 403), then the person and the ticket type (404).
  const { edition, userId, isStaffRegistration } = await resolveRegistrant(db, editionId, actor, body.email);
  const ticketType = await tickets.findTicketType(db, body.ticket_type_id);
  if (ticketType === undefined || ticketType.edition_id !== editionId) throw notFound('Ticket type');

  // 2. State (409): the edition's dates and publication, then (3) the registration.
  checkRegistrationState(edition, isStaffRegistration, new Date());
  const registrant: Registrant = { edition, ticketType, userId, isStaffRegistration };
  if (ticketType.price_cents === 0 || isStaffRegistration) return registerChecked(deps, registrant, actor);
  // A person's paid registrations in an edition run one at a time, from the look for an existing
  // registration to the commit: of concurrent first registrations one makes the checkout (and
  // asks the provider once), the others then find its registration.
  return withCheckoutClaim(db, editionId, userId, () => registerChecked(deps, registrant, actor));
}

/** Who registers for what, once authorized and found (`register`, step 1). */
interface Registrant {
  edition: EditionRow;
  ticketType: TicketTypeRow;
  userId: string;
  isStaffRegistration: boolean;
}

/**
 * Registration once the caller and the state are checked: an existing registration (a pending
 * one's checkout back, else 409), a checkout for a paid self-registration, else a free seat.
 */
async function registerChecked(
  deps: CheckoutDeps,
  registrant: Registrant,
  actor: Identity,
): Promise<{ registration: Serialized<RegistrationRow>; created: boolean }> {
  const { db } = deps;
  const { edition, ticketType, userId, isStaffRegistration } = registrant;
  const editionId = edition.id;
  const existing = await repo.findActiveRegistration(db, editionId, userId);
  if (existing?.status === 'pending_payment' && !isStaffRegistration) {
    // Registering again while paying gives the checkout back (no second hold): the same one, or a
    // fresh one when the last payment attempt ended it (a refused card). The checkout is for the
    // seat held, so priced as its ticket type, whichever type this request names.
    const held =
      existing.ticket_type_id === ticketType.id
        ? ticketType
        : await tickets.findTicketType(db, existing.ticket_type_id);
    if (held === undefined) throw notFound('Ticket type');
    return {
      registration: serialize(await resumeCheckout(deps, existing, held, actor)),
      created: false,
    };
  }
  if (existing !== undefined) {
    throw conflict(
      'already_registered',
      'This person already holds an active registration for this edition',
      {
        registration_id: existing.id,
        status: existing.status,
      },
    );
  }
  if (ticketType.price_cents > 0 && !isStaffRegistration) {
    const outcome = await startCheckout(deps, edition, ticketType, actor);
    return { registration: serialize(outcome.registration), created: outcome.created };
  }

  // One transaction: the registration row, then the seat, then the participant badge (the order
  //    and why: `openRegistration`). No free seat rolls the registration back too.
  const registration = await db.transaction(async (tx) => {
    const inserted = await openRegistration(tx, deps, 'register', {
      id: uuidv7(),
      edition_id: editionId,
      ticket_type_id: ticketType.id,
      user_id: userId,
      created_by: actor.userId,
      language: actor.language ?? 'en',
    });
    if (inserted === undefined) {
      throw conflict('sold_out', 'This ticket type is sold out', { max_quantity: ticketType.max_quantity });
    }
    return inserted;
  });
  // Its confirmation is sent now, not at the sender's next poll: a second later, and with every
  // other confirmation of that second in one burst that holds up the requests meanwhile.
  deps.mail.wake();
  return { registration: serialize(registration), created: true };
}

/**
 * A fresh checkout for a registration whose last payment failed, asked from its checkout page
 * (`POST /checkout/{intent_id}/retry`, docs/reference/pages.md): what its payer registering again
 * would get (`registerChecked`), without a token. The page's address (the intent id) is what the
 * payer was given, and all this can do is make a new payment link for the same seat, priced as
 * before, with the payer's e-mail as their last token gave it: nothing is charged, no second seat
 * is held. While the registration still holds its seat unpaid: its current checkout when that can
 * still be paid, else a new one (`resumeCheckout`), under the payer's checkout claim like a
 * registration. Undefined when there is nothing to pay any more (paid, expired, cancelled).
 */
export async function retryCheckout(
  deps: CheckoutDeps,
  registrationId: string,
  now = new Date(),
): Promise<RegistrationRow | undefined> {
  const { db } = deps;
  const found = await repo.findRegistration(db, registrationId);
  if (found === undefined) return undefined;
  return withCheckoutClaim(db, found.edition_id, found.user_id, async () => {
    const registration = await repo.findRegistration(db, registrationId);
    const isHeld =
      registration?.status === 'pending_payment' &&
      registration.hold_expires_at !== null &&
      registration.hold_expires_at.getTime() > now.getTime();
    if (registration === undefined || !isHeld) return undefined;
    const [ticketType, payer] = await Promise.all([
      tickets.findTicketType(db, registration.ticket_type_id),
      findActorById(db, registration.user_id),
    ]);
    if (ticketType === undefined || payer === undefined) return undefined;
    const identity: Identity = {
      userId: payer.user_id,
      email: payer.email,
      ...(payer.name === null ? {} : { name: payer.name }),
    };
    return resumeCheckout(deps, registration, ticketType, identity);
  });
}

/**
 * One registration, to its registrant or to staff and above of its event (404 for anyone else when
 * the event is a draft, else 403, as for a cancellation). `checkout_url` is there while pending.
 */
export async function getRegistration(db: Database, registrationId: string, actor: Identity) {
  return serialize(await requireRegistrationAccess(db, registrationId, actor, 'staff', true));
}

/** What a cancellation needs: the transitions' ports and whether a registrant was checked in. */
export type CancellationDeps = Pick<CheckoutDeps, 'db' | 'payments' | 'participantBadges'> & {
  registrantCheckIns: RegistrantCheckIns;
};

/**
 * The registrant, or an owner or admin of the event, cancels. As with the other guards, a
 * registration of a draft event is unknown (404) to anyone who is neither its registrant nor a
 * member; others get 403. A confirmed paid one is refunded in full first (`cancelPaidRegistration`,
 * which lets its registrant alone do so only before the edition starts and any check-in).
 */
export async function cancelRegistration(
  { db, payments, participantBadges, registrantCheckIns }: CancellationDeps,
  registrationId: string,
  actor: Identity,
) {
  const access = await requireRegistrationAccessWithRole(db, registrationId, actor, 'admin', true);
  const { registration } = access;
  const { status, intent_id: intentId } = registration;
  if (status !== 'confirmed' && status !== 'pending_payment') {
    const reason =
      status === 'expired'
        ? 'hold_expired'
        : status === 'refunded'
          ? 'already_refunded'
          : 'already_cancelled';
    throw conflict(reason, `The registration is already ${status}`, { status });
  }
  if (status === 'confirmed' && intentId !== null) {
    const cancelled = await cancelPaidRegistration(
      db,
      payments,
      registrantCheckIns,
      { ...registration, intent_id: intentId },
      { byOrganiser: isEventRole(access.role, 'admin'), editionStartsAt: access.editionStartsAt },
    );
    return serialize(cancelled);
  }

  const cancelled = await db.transaction(async (tx) => {
    // Conditional: of two concurrent cancellations exactly one frees the seat. A pending one gives
    // its held seat back; should its payment still succeed, the payment is refunded.
    const row = await moveRegistration(
      tx,
      { payments, participantBadges },
      registration,
      status === 'pending_payment' ? 'cancelPending' : 'cancel',
    );
    if (row === undefined)
      throw conflict('registration_changed', 'The registration changed meanwhile; read it again');
    return row;
  });
  return serialize(cancelled);
}
