/**
 * Background work of checkouts (kernel/jobs): refunds (asked by the events module, e.g. a payment
 * that arrived after its seat was sold; made through `refunds.ts`) and reconciliation (an intent
 * still pending after its hold is looked up at the provider, so a lost notification never loses a
 * paid ticket). Both are written to run more than once: each re-reads the intent and does nothing
 * when it has moved.
 */
import type { JobHandler } from '../../../kernel/jobs/runner.ts';
import { findSeller } from '../connections/connections.repository.ts';
import { NoSellerCredentials, withSellerToken } from '../connections/seller-token.ts';
import * as intentsRepo from '../intents/intents.repository.ts';
import { applyIntentStatus } from '../intents/intents.transitions.ts';
import type { ProviderPayment } from '../providers/provider.ts';
import {
  ORPHAN_REFUND_JOB,
  paymentMismatch,
  settleNotification,
} from '../webhooks/inbound/notifications.service.ts';
import { type RefundContext, refundIntent } from './refunds.ts';

export { ORPHAN_REFUND_JOB };

export const REFUND_JOB = 'payments.refund';
export const RECONCILE_JOB = 'payments.reconcile';

/** How often a payment still pending at the provider is looked at again. */
const RECHECK_SECONDS = 600;

/** What every payments job is given: what a refund needs (`refunds.ts`). */
export type JobContext = RefundContext;

/**
 * A full refund the events module asked for (`PaymentsPort.requestRefund`), through the serialised
 * refund path. Done once the intent is refunded; another refund of it in flight (a 409) is waited
 * for by trying again later.
 */
export function refundJob(ctx: JobContext): JobHandler {
  return async (job) => {
    const intent = await intentsRepo.findIntent(ctx.db, job.key);
    if (intent === undefined || intent.status === 'refunded') return undefined;
    const reason = typeof job.payload.reason === 'string' ? job.payload.reason : null;
    await refundIntent(ctx, job.key, { reason });
    return undefined;
  };
}

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
    const intent = await intentsRepo.findIntent(ctx.db, job.key);
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
        if (!(error instanceof NoSellerCredentials)) throw error;
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
    const intent = await intentsRepo.findIntent(ctx.db, intentId);
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
