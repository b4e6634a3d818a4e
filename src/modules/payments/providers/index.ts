/** The provider registry: a slug of the `/providers/{provider}` and `/webhooks/{provider}` routes to its adapter (any other slug is 404). */
import type { Config } from '../../../kernel/config.ts';
import { notFound } from '../../../kernel/http/errors.ts';
import { createMercadoPagoProvider } from './mercadopago/mercadopago.provider.ts';
import type { PaymentProvider } from './provider.ts';

export type {
  InboundNotification,
  MappedStatus,
  PaymentProvider,
  ProviderNotification,
  ProviderPayment,
  ProviderTokens,
} from './provider.ts';

export function providerFor(slug: string, config: Config): PaymentProvider {
  if (slug === 'mercadopago') return createMercadoPagoProvider(config.mercadopago);
  throw notFound('Provider');
}
