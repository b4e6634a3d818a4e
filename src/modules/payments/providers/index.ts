/**
 * The providers feature's public surface, the lowest of the module: the provider registry (a slug
 * of the `/providers/{provider}` and `/webhooks/{provider}` routes to its adapter; any other slug
 * is 404), the adapter interface, money units, and the vocabulary every adapter maps to.
 */
import type { Config } from '../../../kernel/config.ts';
import { notFound } from '../../../kernel/http/errors.ts';
import { createMercadoPagoProvider } from './mercadopago/mercadopago.provider.ts';
import type { PaymentProvider } from './provider.ts';

export { feeMinor, toMajor, toMinor } from './money.ts';
export type {
  InboundNotification,
  MappedStatus,
  PaymentProvider,
  ProviderNotification,
  ProviderPayment,
  ProviderTokens,
} from './provider.ts';
export { ProviderRefused, ProviderTokenRejected } from './provider.ts';
export {
  INTENT_STATUS_DETAILS,
  INTENT_STATUSES,
  type IntentStatus,
  type IntentStatusDetail,
  PROVIDERS,
  type Provider,
} from './vocabulary.ts';

export function providerFor(slug: string, config: Config): PaymentProvider {
  if (slug === 'mercadopago') return createMercadoPagoProvider(config.mercadopago);
  throw notFound('Provider');
}
