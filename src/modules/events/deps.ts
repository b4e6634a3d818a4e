/**
 * What the events module's route plugins receive (built in app.ts). Each feature's routes name what
 * more they need (`BadgesContext`, `RegistrationsContext`, …) and index.ts completes it: this file
 * imports no feature, so every feature may import it.
 */

import type { JobRunner } from '../../kernel/jobs/runner.ts';
import type { ModuleDeps } from '../../kernel/module.ts';
import type { PaymentsPort } from '../../kernel/payments-port.ts';
import type { Mailer } from '../mail/index.ts';

export interface EventsDeps extends ModuleDeps {
  /** Checkout, refunds and registration webhooks, through the payments module (docs/reference/checkout.md). */
  payments: PaymentsPort;
  /** Where the module's background jobs (hold expiry, certificate issuance) are registered. */
  jobs: JobRunner;
  /** The app's mail service: renderers of the event kinds are registered on it (docs/mail.md). */
  mail: Mailer;
}
