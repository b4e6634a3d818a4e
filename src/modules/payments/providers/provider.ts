/**
 * The provider adapter interface (issue 5): everything the payments module needs from a payment
 * provider, so a second provider is one new folder beside `mercadopago/` plus a line in index.ts.
 * Adapters turn every provider failure (non-2xx, network error, timeout) into a 502 BAD_GATEWAY
 * whose message never carries a token or the provider's response body.
 */
import type { IntentStatus, IntentStatusDetail, Provider } from '../payments.table.ts';

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
  raw: Record<string, unknown>;
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
  fetchPayment(accessToken: string, id: string): Promise<ProviderPayment>;
  /** The provider's status and detail in the intent vocabulary (contract 7.2, 7.3 step 3). */
  mapStatus(status: string, statusDetail: string | null | undefined): MappedStatus;
}
