/**
 * Background work of checkouts (kernel/jobs): refunds (asked by the events module, e.g. a payment
 * that arrived after its seat was sold) and reconciliation (an intent still pending after its hold
 * is looked up at the provider, so a lost notification never loses a paid ticket). Both are
 * written to run more than once: each re-reads the intent and does nothing when it has moved.
 */
import type { Config } from '../../../kernel/config.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { AppError, conflict } from '../../../kernel/http/errors.ts';
import type { JobHandler } from '../../../kernel/jobs/runner.ts';
import { findSeller } from '../connections/connections.repository.ts';
import { NoSellerCredentials, withSellerToken } from '../connections/seller-token.ts';
import * as intentsRepo from '../intents/intents.repository.ts';
import type { IntentRow } from '../intents/intents.table.ts';
import { applyIntentStatus } from '../intents/intents.transitions.ts';
import type { PaymentProvider, ProviderPayment } from '../providers/provider.ts';
import type { Outbox } from '../webhooks/delivery/outbox.ts';
import {
  ORPHAN_REFUND_JOB,
  paymentMismatch,
  settleNotification,
} from '../webhooks/inbound/notifications.service.ts';

export { ORPHAN_REFUND_JOB };

export const REFUND_JOB = 'payments.refund';
export const RECONCILE_JOB = 'payments.reconcile';

/** How often a payment still pending at the provider is looked at again. */
const RECHECK_SECONDS = 600;

export interface JobContext {
  db: Database;
  config: Config;
  outbox: Outbox;
  provider: PaymentProvider;
}

const transactionOf = (intent: IntentRow): string | undefined => {
  const id = intent.provider_data.transaction_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
};

/**
 * Refunds `amountCents` of a succeeded intent (what is left when undefined) at the provider with
 * the seller's token, then records it: `refunded_cents` grows, and the intent moves to `refunded`
 * (announced like any transition) once all of it is given back. The provider's idempotency key
 * is the intent, what was refunded before and the amount, so a retry after a crash between the
 * provider's answer and the commit asks for the same refund again, not a second one.
 */
export async function refundIntent(
  ctx: JobContext,
  intentId: string,
  amountCents: number | undefined,
): Promise<IntentRow> {
  const intent = await intentsRepo.findIntent(ctx.db, intentId);
  if (intent === undefined) throw new AppError('NOT_FOUND', 'Intent not found');
  if (intent.status === 'refunded' && amountCents === undefined) return intent;
  if (intent.status !== 'succeeded') {
    throw conflict(`Only a succeeded intent can be refunded; this one is ${intent.status}`, {
      status: intent.status,
    });
  }
  const left = intent.amount_cents - intent.refunded_cents;
  const amount = amountCents ?? left;
  if (amount > left) {
    throw conflict(`At most ${left} can still be refunded`, { refundable_cents: left });
  }
  const paymentId = transactionOf(intent);
  const seller = await findSeller(ctx.db, intent.seller_id);
  if (paymentId === undefined || seller === undefined) {
    throw conflict('This intent has no provider payment to refund (a test-mode intent: use simulate)');
  }
  try {
    await withSellerToken(ctx.db, ctx.config, ctx.provider, seller, (token) =>
      ctx.provider.refundPayment(token, paymentId, {
        amountCents: amount === intent.amount_cents ? undefined : amount,
        currency: intent.currency,
        key: `${intent.id}:${intent.refunded_cents}:${amount}`,
      }),
    );
  } catch (error) {
    if (error instanceof NoSellerCredentials) {
      throw conflict('The seller’s credentials are gone (revoked); refund from the Mercado Pago account');
    }
    throw error;
  }
  const { row, queued } = await ctx.db.transaction(async (tx) => {
    const added = await intentsRepo.addRefund(tx, intent.id, amount);
    if (added === undefined) throw conflict('The intent changed meanwhile; read it again');
    if (added.refunded_cents < added.amount_cents) return { row: added, queued: 0 };
    const moved = await applyIntentStatus(
      tx,
      added,
      { status: 'refunded', status_detail: null },
      'refund',
      ctx.outbox,
    );
    return { row: moved.intent, queued: moved.queued };
  });
  if (queued > 0) ctx.outbox.wake();
  return row;
}

export function refundJob(ctx: JobContext): JobHandler {
  return async (job) => {
    await refundIntent(ctx, job.key, undefined);
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

/** Gives back a payment no intent could take (`isOrphanPayment` in notifications.service.ts), all of it. */
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
