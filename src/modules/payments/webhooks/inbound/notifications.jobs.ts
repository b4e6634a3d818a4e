/**
 * Background work of inbound payments (kernel/jobs): reconciliation, the job a checkout schedules
 * (`RECONCILE_JOB`, `checkout/checkout.jobs.ts`) for an intent still pending after its hold,
 * settled as its notification would have been; and the refund of a payment no intent could take.
 * Both are written to run more than once: each re-reads the intent and does nothing when it has
 * moved.
 */
import type { JobHandler } from '../../../../kernel/jobs/runner.ts';
import type { JobContext } from '../../checkout/index.ts';
import { findSeller, NoSellerTokens, withSellerToken } from '../../connections/index.ts';
import { applyIntentStatus, findIntent } from '../../intents/index.ts';
import type { ProviderPayment } from '../../providers/index.ts';
import { ORPHAN_REFUND_JOB, paymentMismatch, settleNotification } from './notifications.service.ts';

export { ORPHAN_REFUND_JOB };

/** How often a payment still pending at the provider is looked at again. */
const RECHECK_SECONDS = 600;

/** The payment that decides an intent: an approved one if any, else the newest. */
function decisive(payments: ProviderPayment[]): ProviderPayment | undefined {
  return payments.find((payment) => payment.status === 'approved') ?? payments[0];
}

/**
 * Reconciliation: the intent still pending after its hold is looked up by external reference.
 * A payment found settles it as its notification would have (recorded with type
 * `reconciliation`); one still pending at the provider is looked at again later; none at all
 * means the payer never paid, and the intent is cancelled (`status_detail` `expired`).
 */
export function reconcileJob(ctx: JobContext): JobHandler {
  return async (job) => {
    const intent = await findIntent(ctx.db, job.key);
    if (intent === undefined || (intent.status !== 'pending' && intent.status !== 'processing'))
      return undefined;
    const seller = await findSeller(ctx.db, intent.seller_id);
    let payments: ProviderPayment[] = [];
    if (seller !== undefined) {
      try {
        payments = await withSellerToken(ctx.db, ctx.config, ctx.provider, seller, (token) =>
          ctx.provider.searchPayments(token, intent.id),
        );
      } catch (error) {
        if (!(error instanceof NoSellerTokens)) throw error;
      }
    }
    const payment = decisive(payments.filter((found) => found.externalReference === intent.id));
    if (payment === undefined) {
      const queued = await ctx.db.transaction(async (tx) => {
        const moved = await applyIntentStatus(
          tx,
          intent,
          { status: 'cancelled', status_detail: 'expired' },
          'reconciliation',
          ctx.outbox,
        );
        return moved.queued;
      });
      if (queued > 0) ctx.outbox.wake();
      ctx.outbox.transitioned();
      return undefined;
    }
    if (seller === undefined || paymentMismatch(intent, seller, payment) !== undefined) return undefined;
    const mapped = ctx.provider.mapStatus(payment.status, payment.statusDetail);
    await settleNotification(
      ctx.db,
      ctx.outbox,
      intent,
      { status: mapped.status, status_detail: mapped.statusDetail, transaction_id: payment.id },
      {
        provider: ctx.provider.slug,
        type: 'reconciliation',
        resource_id: payment.id,
        request_id: null,
        payload: { external_reference: intent.id },
      },
    );
    return mapped.status === 'pending' || mapped.status === 'processing'
      ? { retryInSeconds: RECHECK_SECONDS }
      : undefined;
  };
}

/**
 * Gives back a payment no intent could take (`isOrphanPayment` in notifications.service.ts), all of
 * it. Not through `refunds.ts`: the money is no part of its intent's amount, so no `refunded_cents`
 * to keep; one job per payment (its kind and key) under a lease, and the payment as the provider's
 * idempotency key, keep it to one refund.
 */
export function refundOrphanJob(ctx: JobContext): JobHandler {
  return async (job) => {
    const intentId = String(job.payload.intent_id);
    const paymentId = String(job.payload.payment_id);
    const intent = await findIntent(ctx.db, intentId);
    const seller = intent === undefined ? undefined : await findSeller(ctx.db, intent.seller_id);
    if (intent === undefined || seller === undefined) return undefined;
    await withSellerToken(ctx.db, ctx.config, ctx.provider, seller, (token) =>
      ctx.provider.refundPayment(token, paymentId, {
        amountCents: undefined,
        currency: intent.currency,
        key: `orphan:${paymentId}`,
      }),
    );
    return undefined;
  };
}
