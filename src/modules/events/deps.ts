/** What the events module's route plugins receive (built in app.ts). */
import type { JobRunner } from '../../kernel/jobs/runner.ts';
import type { ModuleDeps } from '../../kernel/module.ts';
import type { PaymentsPort } from '../../kernel/payments-port.ts';

export interface EventsDeps extends ModuleDeps {
  /** Checkout, refunds and registration webhooks, through the payments module (contract 8). */
  payments: PaymentsPort;
  /** Where the module's background jobs (hold expiry) are registered. */
  jobs: JobRunner;
}
