/**
 * Cross-module orchestration, in one visible place: the modules never import each other, and
 * `app.ts` builds them through here. Paid registrations run payments → events → payments inside one
 * transaction: an intent transition (payments) confirms, expires or refunds a registration (events),
 * which announces a registration event or asks a refund through the payments port (payments).
 *
 * The events module's listener is given to `createPaymentsCore` as a required argument
 * (`IntentListeners`), so a payments core built without it does not compile: nothing can
 * silently skip confirming a paid registration.
 */
import type { Logger } from 'pino';
import type { Config } from '../kernel/config.ts';
import type { DatabaseHandle } from '../kernel/db/client.ts';
import type { JobRunner } from '../kernel/jobs/runner.ts';
import type { IntentListeners } from '../kernel/payments-port.ts';
import { onIntentTransition } from '../modules/events/index.ts';
import { createPaymentsCore, type PaymentsCore } from '../modules/payments/index.ts';

/** Who hears intent transitions, each made from the payments port it calls back. */
export const INTENT_LISTENERS: IntentListeners = {
  registrations: (port) => onIntentTransition(port),
};

/** The payments core (outbox, port, refunds, job kinds) with the listeners of its intent transitions. */
export function createPaymentsWithFlows(
  database: DatabaseHandle,
  config: Config,
  jobs: JobRunner,
  logger: Logger,
): PaymentsCore {
  return createPaymentsCore(database, config, jobs, logger, INTENT_LISTENERS);
}
