/**
 * The in-process interface between the events and payments modules (docs/reference/checkout.md).
 * The events module sells tickets through it and hears of intent transitions from it; the payments
 * module implements it. Neither module imports the other or touches the other's tables: both
 * import only this file, and `app.ts` hands the implementation to the events module. Every call
 * that takes an `Executor` runs inside the caller's transaction, so what the two modules write
 * about one payment commits together or not at all.
 */
import { type Static, Type } from 'typebox';
import type { Database, Executor } from './db/client.ts';
import type { ErrorReason } from './http/reasons.ts';
import { Uuid } from './http/schemas.ts';

/** `error.reason` of `refundNow`'s 409 for an intent with no provider payment to refund. */
export const NO_PROVIDER_PAYMENT = 'no_provider_payment' satisfies ErrorReason;

/** What a paid registration asks the provider for (the intent id is also the external reference). */
export interface CheckoutRequest {
  walletId: string;
  sellerId: string;
  intentId: string;
  amountCents: number;
  currency: string;
  /** The item's title on the provider's page (the ticket type's name). */
  title: string;
  payerEmail: string;
  /** When the seat hold ends: the preference expires then. */
  expiresAt: Date;
  /** Stored on the intent (`registration_id`, `edition_id`, …). */
  metadata: Record<string, unknown>;
}

export interface PreparedCheckout {
  checkoutUrl: string;
  preferenceId: string;
  sandbox: boolean;
  /** The wallet's marketplace fee the preference was created with (basis points), kept on the intent. */
  feeBps: number;
}

/** A ticket checkout's money as the organisers' sales table shows it (`PaymentsPort.paymentsOf`). */
export interface CheckoutPayment {
  intentId: string;
  status: IntentStatusName;
  amountCents: number;
  refundedCents: number;
  currency: string;
}

/**
 * The money of an edition's paid checkouts (intents `succeeded` or `refunded`), for one ticket
 * type in one currency (`PaymentsPort.salesOfEdition`, docs/reference/tickets.md, "Sales").
 */
export interface CheckoutSales {
  ticketTypeId: string;
  currency: string;
  /** Payments taken. */
  payments: number;
  /** What they took, in minor units. */
  revenueCents: number;
  /** What was given back of it. */
  refundedCents: number;
  /** The platform's marketplace fee on what was kept, at the fee each checkout was made with. */
  feeCents: number;
}

export type IntentStatusName =
  | 'pending'
  | 'processing'
  | 'succeeded'
  | 'rejected'
  | 'cancelled'
  | 'failed'
  | 'refunded';

/** An intent transition as the payments module announces it, inside the transaction that made it. */
export interface IntentTransition {
  intentId: string;
  walletId: string;
  from: IntentStatusName;
  to: IntentStatusName;
  amountCents: number;
  currency: string;
  metadata: Record<string, unknown>;
  /**
   * For a move to `refunded` that completes a refund asked through this port: the reason given
   * (`registration_cancelled`, …), whichever of the refund's answer and the provider's
   * notification of it arrives first; null otherwise.
   */
  refundReason: string | null;
}

export type IntentListener = (tx: Executor, transition: IntentTransition) => Promise<void>;

/**
 * Who hears intent transitions, given when the payments core is made (`src/flows/`): a required
 * argument, so a payments core without its listeners does not compile. Each is made from the port
 * it may call back inside the transition's transaction (announce, refund).
 */
export interface IntentListeners {
  /** The events module: confirms, expires and refunds paid registrations. */
  registrations: (port: PaymentsPort) => IntentListener;
}

/** The events a registration announces to the wallet's webhook endpoints (docs/reference/checkout.md). */
export type RegistrationEventType =
  | 'registration.confirmed'
  | 'registration.expired'
  | 'registration.refunded';

/**
 * The `data` of every `registration.*` event, declared once: the events module builds it
 * (`registrationEventData`), the payments module stores it, the delivery worker sends these fields
 * in this order (`REGISTRATION_DATA_FIELDS`), and the OpenAPI document's `webhooks` section
 * describes it (`webhook-payloads.ts`).
 */
export const RegistrationEventData = Type.Object(
  {
    registration_id: Uuid(),
    edition_id: Uuid(),
    event_id: Uuid({ description: 'the event (of the events module) the edition belongs to' }),
    ticket_type_id: Uuid(),
    user_id: Type.String({ description: 'the buyer (the token’s subject)' }),
    intent_id: Uuid({ description: 'the checkout intent that paid for it' }),
  },
  { additionalProperties: false },
);
export type RegistrationEventData = Static<typeof RegistrationEventData>;

/** The fields of `RegistrationEventData`, in the order they are sent. */
export const REGISTRATION_DATA_FIELDS = Object.keys(
  RegistrationEventData.properties,
) as readonly (keyof RegistrationEventData)[];

/** The `data` of a paid registration's event: its ids and its edition's event. */
export function registrationEventData(
  registration: {
    id: string;
    edition_id: string;
    ticket_type_id: string;
    user_id: string;
    intent_id: string;
  },
  eventId: string,
): RegistrationEventData {
  return {
    registration_id: registration.id,
    edition_id: registration.edition_id,
    event_id: eventId,
    ticket_type_id: registration.ticket_type_id,
    user_id: registration.user_id,
    intent_id: registration.intent_id,
  };
}

/** What the payer's return page (`/checkout/{intent_id}`, docs/reference/pages.md) shows of a checkout's intent. */
export interface CheckoutIntent {
  status: IntentStatusName;
  amountCents: number;
  currency: string;
  /** The registration the checkout is for (`metadata.registration_id`). */
  registrationId: string;
}

export interface PaymentsPort {
  /**
   * That `ownerId` owns the wallet (404 `Wallet not found` otherwise, as everywhere) and that the
   * seller is a live one of it (404 unknown, 409 revoked). Answers the wallet's sandbox flag.
   */
  checkSeller(
    db: Executor,
    ownerId: string,
    walletId: string,
    sellerId: string,
  ): Promise<{ sandbox: boolean }>;
  /** The wallet's sandbox flag (false for a wallet that no longer exists). */
  sandboxOf(db: Executor, walletId: string): Promise<boolean>;
  /**
   * Creates the provider's checkout (a Mercado Pago preference) for an intent not yet stored: no
   * database write, so a failure (409 for a seller no longer live, 502 for the provider) leaves
   * nothing behind.
   */
  prepareCheckout(db: Executor, request: CheckoutRequest): Promise<PreparedCheckout>;
  /** The intent of a checkout, or undefined for an unknown id or an intent no checkout made. */
  checkoutIntent(db: Executor, intentId: string): Promise<CheckoutIntent | undefined>;
  /** The money of these checkouts' intents (those no checkout made are left out). */
  paymentsOf(db: Executor, intentIds: readonly string[]): Promise<CheckoutPayment[]>;
  /** The money of the edition's paid checkouts, per ticket type and currency. */
  salesOfEdition(db: Executor, editionId: string): Promise<CheckoutSales[]>;
  /** Whether the intent ended without being paid (`rejected`, `cancelled`, `failed`): its checkout is dead. */
  hasEnded(db: Executor, intentId: string): Promise<boolean>;
  /** Stores the checkout's intent (`pending`) and its `payment.pending` event, in the caller's transaction. */
  recordCheckout(tx: Executor, request: CheckoutRequest, prepared: PreparedCheckout): Promise<void>;
  /** Schedules a full refund of the intent (a job: the provider is called after commit). */
  requestRefund(tx: Executor, intentId: string, reason: string): Promise<void>;
  /**
   * Refunds the intent now at the provider (`amountCents`, or all that is left), as its wallet's owner or on behalf
   * of the event's staff. Serialised per intent: while another refund of it is in flight (or its
   * outcome is being confirmed) this is a 409 and the provider is not asked. A provider refusal is
   * a 502 that changes nothing; a provider failure that leaves the outcome unknown is a 502 after
   * which the refund stays reserved and is completed (or released) by a job. An intent without a
   * provider payment (a test-mode one) is a 409 with `error.reason` NO_PROVIDER_PAYMENT. The
   * transition to `refunded` is announced like any other, carrying `reason` (`refundReason`).
   */
  refundNow(db: Database, intentId: string, reason?: string, amountCents?: number): Promise<void>;
  /**
   * Writes a registration event, with its deliveries, for the webhook endpoints of the wallet of
   * `data.intent_id`, in the caller's transaction.
   */
  announce(tx: Executor, type: RegistrationEventType, data: RegistrationEventData): Promise<void>;
  /** Wakes the webhook delivery and job workers after a commit that queued work for them. */
  wake(): void;
}
