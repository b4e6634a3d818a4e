/**
 * Background work of checkouts (kernel/jobs): refunds (asked by the events module, e.g. a payment
 * that arrived after its seat was sold; made through `refunds.ts`), and the kind of the
 * reconciliation a checkout schedules (an intent still pending after its hold is looked up at the
 * provider, so a lost notification never loses a paid ticket). Reconciliation settles the intent
 * as its notification would, so its handler lives with the inbound notifications
 * (`webhooks/inbound/notifications.jobs.ts`). Both are written to run more than once: each
 * re-reads the intent and does nothing when it has moved.
 */
import type { JobHandler } from '../../../kernel/jobs/runner.ts';
import { findIntent } from '../intents/index.ts';
import { type RefundContext, refundIntent } from './refunds.ts';

export const REFUND_JOB = 'payments.refund';
export const RECONCILE_JOB = 'payments.reconcile';

/** What every payments job is given: what a refund needs (`refunds.ts`). */
export type JobContext = RefundContext;

/**
 * A full refund the events module asked for (`PaymentsPort.requestRefund`), through the serialised
 * refund path. Done once the intent is refunded; another refund of it in flight (a 409) is waited
 * for by trying again later.
 */
export function refundJob(ctx: JobContext): JobHandler {
  return async (job) => {
    const intent = await findIntent(ctx.db, job.key);
    if (intent === undefined || intent.status === 'refunded') return undefined;
    const reason = typeof job.payload.reason === 'string' ? job.payload.reason : null;
    await refundIntent(ctx, job.key, { reason });
    return undefined;
  };
}
