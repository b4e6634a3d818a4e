/**
 * What every provider adapter speaks in: the provider slugs, and the normalized payment status
 * (an intent's `status` and `status_detail`) each adapter maps its own statuses to. It sits here,
 * below wallets and intents, because the adapters are the lowest feature of the module: the
 * tables and schemas that store or describe these values import them from `providers/index.ts`.
 */

export const PROVIDERS = ['mercadopago'] as const;

export type Provider = (typeof PROVIDERS)[number];

export const INTENT_STATUSES = [
  'pending',
  'processing',
  'succeeded',
  'rejected',
  'cancelled',
  'failed',
  'refunded',
] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];
export const INTENT_STATUS_DETAILS = [
  'insufficient_funds',
  'high_risk',
  'invalid_card',
  'card_disabled',
  'expired_card',
  'invalid_security_code',
  'pending_review',
  'expired',
  'other',
] as const;
export type IntentStatusDetail = (typeof INTENT_STATUS_DETAILS)[number];
