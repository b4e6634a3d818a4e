/**
 * The provider adapter interface (issue 5): everything the payments module needs from a payment
 * provider, so a second provider is one new folder beside `mercadopago/` plus a line in index.ts.
 * Adapters turn every provider failure (non-2xx, network error, timeout) into a 502 BAD_GATEWAY
 * whose message never carries a token or the provider's response body.
 */
import { AppError } from '../../../kernel/http/errors.ts';
import type { IntentStatus, IntentStatusDetail, Provider } from './vocabulary.ts';

export interface AuthorizeInput {
  state: string;
  codeChallenge: string;
  redirectUri: string;
}

export interface ExchangeInput {
  code: string;
  codeVerifier: string;
  redirectUri: string;
}

/** The result of an OAuth code exchange. */
export interface ProviderTokens {
  providerUserId: string;
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
}

/** A payment as the provider reports it (the raw body is kept for the caller to store). */
export interface ProviderPayment {
  id: string;
  status: string;
  statusDetail: string | null;
  /** What the checkout set: the intent id (docs/reference/checkout.md). */
  externalReference: string | null;
  /** In minor units of `currency`, when the provider reports them. */
  amountCents: number | null;
  currency: string | null;
  /** The provider account that received the payment (the seller's `provider_user_id`). */
  collectorId: string | null;
  raw: Record<string, unknown>;
}

/** A checkout (Mercado Pago: a Checkout Pro preference) to create with the seller's token. */
export interface PreferenceInput {
  /** Also the external reference and the idempotency key. */
  intentId: string;
  title: string;
  amountCents: number;
  currency: string;
  feeCents: number;
  payerEmail: string;
  notificationUrl: string;
  backUrl: string;
  expiresAt: Date;
}

export interface ProviderPreference {
  id: string;
  initPoint: string;
  sandboxInitPoint: string;
}

/** A refund the provider made, as its answer reports it. */
export interface ProviderRefund {
  /** The provider's id of the refund, when it says. */
  id: string | null;
  /** What it gave back, in minor units of the payment's currency; null when the answer does not say. */
  amountCents: number | null;
}

/**
 * The provider answered and refused what was asked (a 4xx other than 401, 408, 409, 425 and 429,
 * which say "not now" rather than "no"): it did not do it, and asking again with the same
 * idempotency key gets the same refusal. A 502 BAD_GATEWAY to callers that look no further; a
 * refund tells it apart from a failure whose outcome is unknown (a timeout, a dropped connection,
 * a 5xx), after which the provider may have done what was asked.
 */
export class ProviderRefused extends AppError {
  constructor(message: string) {
    super('BAD_GATEWAY', message);
  }
}

/** Thrown by calls with a seller's token when the provider refuses the token (401): refresh and retry. */
export class ProviderTokenRejected extends Error {
  constructor(what: string) {
    super(`the provider refused the access token (${what})`);
    this.name = 'ProviderTokenRejected';
  }
}

/** An inbound provider notification as the route received it (docs/reference/webhooks.md). */
export interface InboundNotification {
  headers: Record<string, string | string[] | undefined>;
  /** The parsed query string (`data.id` is one key: the parser does not nest dotted names). */
  query: Record<string, unknown>;
  /** The parsed JSON body, undefined when none was sent. */
  body: unknown;
}

/** What an authenticated notification names. The provider is then asked, never the notification. */
export interface ProviderNotification {
  /** The provider's notification type as sent (`payment`, `merchant_order`, …), `unknown` if none. */
  type: string;
  /** Whether it reports a change of a payment (the only kind the service processes). */
  isPayment: boolean;
  /** The resource it names (the payment id for a payment), as sent. */
  resourceId: string | undefined;
  /** The provider's id of this delivery, kept for tracing. */
  requestId: string | undefined;
  /**
   * The provider account the notification is about (Mercado Pago's `user_id`: the seller who was
   * paid). Not covered by the signature: it only chooses whose token asks the provider, and the
   * payment found must then match its intent's seller.
   */
  accountId: string | undefined;
}

export interface MappedStatus {
  status: IntentStatus;
  statusDetail: IntentStatusDetail | null;
}

export interface PaymentProvider {
  readonly slug: Provider;
  /** Whether the platform's OAuth application (client id and secret) is configured. */
  isConfigured(): boolean;
  /** The consent URL the user is sent to. */
  authorizeUrl(input: AuthorizeInput): string;
  exchangeCode(input: ExchangeInput): Promise<ProviderTokens>;
  /** A new access token for a refresh token (the provider rotates the refresh token too). */
  refreshToken(refreshToken: string): Promise<Omit<ProviderTokens, 'providerUserId'>>;
  createPreference(accessToken: string, input: PreferenceInput): Promise<ProviderPreference>;
  /** The payments made for an external reference, newest first. */
  searchPayments(accessToken: string, externalReference: string): Promise<ProviderPayment[]>;
  /**
   * Refunds `amountCents` of the payment (all of it when undefined); `key` makes it idempotent (the
   * same key answers the refund made before). A refusal is `ProviderRefused`; any other failure
   * leaves the outcome unknown.
   */
  refundPayment(
    accessToken: string,
    paymentId: string,
    input: { amountCents: number | undefined; currency: string; key: string },
  ): Promise<ProviderRefund>;
  /** The payment, or undefined when the provider does not know it (404); any other failure is a 502. */
  fetchPayment(accessToken: string, id: string): Promise<ProviderPayment | undefined>;
  /**
   * Authenticates an inbound notification and reads what it names, without any I/O: 503
   * SERVICE_UNAVAILABLE when the provider's webhook secret is not configured (fail closed), 401
   * UNAUTHORIZED for a missing, malformed, wrong or expired signature.
   */
  verifyNotification(input: InboundNotification, now?: number): ProviderNotification;
  /** The provider's status and detail in the intent vocabulary (docs/reference/payments.md and docs/reference/webhooks.md step 3). */
  mapStatus(status: string, statusDetail: string | null | undefined): MappedStatus;
}
