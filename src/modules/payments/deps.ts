/** What the payments module's route plugins receive (built by `paymentsModule` in index.ts). */
import type { ModuleDeps } from '../../kernel/module.ts';
import type { PaymentsPort } from '../../kernel/payments-port.ts';
import type { RefundContext } from './checkout/refunds.ts';
import type { Outbox } from './webhooks/delivery/outbox.ts';

export interface PaymentsDeps extends ModuleDeps {
  /** Where writers of payment events wake the delivery workers. */
  outbox: Outbox;
  /** The checkout operations (refunds) the module's own routes share with the events module. */
  port: PaymentsPort;
  /** What refunds need (`checkout/refunds.ts`), shared with the jobs and the port. */
  refunds: RefundContext;
}
