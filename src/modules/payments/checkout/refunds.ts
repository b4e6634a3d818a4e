/**
 * Refunds of succeeded intents at the provider, serialised per intent (README, "Refunds"): the
 * refund routes, the events module's refunds through the payments port and the refund job all
 * come through `refundIntent`. Steps:
 * 1. reserve: one transaction locks the intent, checks what is left and writes a `pending` refund
 *    (at most one per intent: a refund asked meanwhile is a 409, and the provider never hears of
 *    it), with a resume job due once the request holding it would long have finished;
 * 2. ask the provider, with the reservation's idempotency key;
 * 3. settle: one transaction adds what the provider gave back to `refunded_cents`, moves the intent
 *    to `refunded` once all of it is back (announced like any transition) and marks the refund
 *    settled. When the provider fails, the reservation is released instead (deleted): a 502, and
 *    nothing else changed.
 * A process that stops between 1 and 3 leaves its reservation; the resume job asks the provider
 * again with the same key (which answers the refund it already made, or makes it now) and
 * settles. So `refunded_cents` is always what the provider gave back.
 */
import type { Config } from '../../../kernel/config.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { AppError, conflict } from '../../../kernel/http/errors.ts';
import { scheduleJob } from '../../../kernel/jobs/jobs.repository.ts';
import type { JobHandler } from '../../../kernel/jobs/runner.ts';
import { findSeller } from '../connections/connections.repository.ts';
import { NoSellerCredentials, withSellerToken } from '../connections/seller-token.ts';
import * as intentsRepo from '../intents/intents.repository.ts';
import type { IntentRow } from '../intents/intents.table.ts';
import { applyIntentStatus } from '../intents/intents.transitions.ts';
import * as refundsRepo from '../intents/refunds.repository.ts';
import type { IntentRefundRow } from '../intents/refunds.table.ts';
import type { PaymentProvider } from '../providers/provider.ts';
import type { Outbox } from '../webhooks/delivery/outbox.ts';

/** What a refund needs, and every payments job with it. */
export interface RefundContext {
  db: Database;
  config: Config;
  outbox: Outbox;
  provider: PaymentProvider;
}

export interface RefundRequest {
  /** Default: all that is left. */
  amountCents?: number | undefined;
  /** Why the events module asks it; its listener hears it with the move to `refunded`. */
  reason?: string | null | undefined;
}

export const RESUME_REFUND_JOB = 'payments.refund_resume';

/** How often the resume job asks a failing provider before it releases the reservation. */
const RESUME_ATTEMPTS = 3;

const transactionOf = (intent: IntentRow): string | undefined => {
  const id = intent.provider_data.transaction_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
};

/**
 * Refunds `request.amountCents` of a succeeded intent (all that is left by default) and answers
 * the intent as recorded. 409 for another status, more than is left, no provider payment, or
 * another refund of the intent in flight; 502 when the provider fails (nothing changed).
 */
export async function refundIntent(
  ctx: RefundContext,
  intentId: string,
  request: RefundRequest,
): Promise<IntentRow> {
  const { intent, refund } = await reserveRefund(ctx.db, intentId, request, ctx.config.jobsLeaseMs);
  try {
    await askProvider(ctx, intent, refund);
  } catch (error) {
    await refundsRepo.releaseRefund(ctx.db, refund.id);
    if (error instanceof NoSellerCredentials) {
      throw conflict('The seller’s credentials are gone (revoked); refund from the Mercado Pago account');
    }
    throw error;
  }
  return settleRefund(ctx, refund);
}

/**
 * Step 1: the reservation, and its resume job due in `resumeAfterMs` (a job's lease: the time a
 * provider call with a token refresh fits in, with room to spare).
 */
export async function reserveRefund(
  db: Database,
  intentId: string,
  request: RefundRequest,
  resumeAfterMs: number,
): Promise<{ intent: IntentRow; refund: IntentRefundRow }> {
  return db.transaction(async (tx) => {
    const intent = await intentsRepo.lockIntent(tx, intentId);
    if (intent === undefined) throw new AppError('NOT_FOUND', 'Intent not found');
    if (intent.status !== 'succeeded') {
      throw conflict(`Only a succeeded intent can be refunded; this one is ${intent.status}`, {
        status: intent.status,
      });
    }
    const pending = await refundsRepo.findPendingRefund(tx, intent.id);
    if (pending !== undefined) {
      throw conflict('Another refund of this intent is in progress; read the intent again once it ends', {
        pending_refund_cents: pending.amount_cents,
      });
    }
    const left = intent.amount_cents - intent.refunded_cents;
    const amount = request.amountCents ?? left;
    if (amount > left) {
      throw conflict(`At most ${left} can still be refunded`, { refundable_cents: left });
    }
    if (transactionOf(intent) === undefined) {
      throw conflict('This intent has no provider payment to refund (a test-mode intent: use simulate)');
    }
    const refund = await refundsRepo.insertPendingRefund(tx, {
      id: uuidv7(),
      intent_id: intent.id,
      amount_cents: amount,
      // What was refunded before is part of the key: the next refund of the same amount is another.
      provider_key: `${intent.id}:${intent.refunded_cents}:${amount}`,
      reason: request.reason ?? null,
    });
    await scheduleJob(tx, {
      kind: RESUME_REFUND_JOB,
      key: refund.id,
      runAt: new Date(Date.now() + resumeAfterMs),
    });
    return { intent, refund };
  });
}

/** Step 2: the refund at the provider, with the seller's token and the reservation's key. */
async function askProvider(ctx: RefundContext, intent: IntentRow, refund: IntentRefundRow): Promise<void> {
  const paymentId = transactionOf(intent);
  const seller = await findSeller(ctx.db, intent.seller_id);
  if (paymentId === undefined || seller === undefined) throw new NoSellerCredentials();
  await withSellerToken(ctx.db, ctx.config, ctx.provider, seller, (token) =>
    ctx.provider.refundPayment(token, paymentId, {
      amountCents: refund.amount_cents === intent.amount_cents ? undefined : refund.amount_cents,
      currency: intent.currency,
      key: refund.provider_key,
    }),
  );
}

/**
 * Step 3, once the provider made the refund. Of the request and the resume job that may both get
 * here for one refund, the first settles it and the other finds it settled.
 */
async function settleRefund(ctx: RefundContext, refund: IntentRefundRow): Promise<IntentRow> {
  const { row, queued } = await ctx.db.transaction(async (tx) => {
    const pending = await refundsRepo.lockPendingRefund(tx, refund.id);
    if (pending === undefined) {
      const now = await intentsRepo.findIntent(tx, refund.intent_id);
      if (now === undefined) throw new AppError('NOT_FOUND', 'Intent not found');
      return { row: now, queued: 0 };
    }
    const added = await intentsRepo.addRefund(tx, refund.intent_id, refund.amount_cents);
    let moved = { intent: added, queued: 0 };
    if (added.status === 'succeeded' && added.refunded_cents >= added.amount_cents) {
      // Before the refund is marked settled: the transition's listeners read its reason.
      moved = await applyIntentStatus(
        tx,
        added,
        { status: 'refunded', status_detail: null },
        'refund',
        ctx.outbox,
      );
    }
    await refundsRepo.markRefundSettled(tx, refund.id);
    return { row: moved.intent, queued: moved.queued };
  });
  if (queued > 0) ctx.outbox.wake();
  return row;
}

/**
 * The resume job of a reservation (`key`: the refund id): nothing to do once it is settled or
 * released; otherwise the process that made it stopped before settling. The provider is asked
 * again with the same key. While it fails the job tries again later (the provider may have made
 * the refund: its answer is what is missing); after RESUME_ATTEMPTS, or without usable seller
 * credentials, the reservation is released, as a request releases it when the provider fails.
 */
export function resumeRefundJob(ctx: RefundContext): JobHandler {
  return async (job) => {
    const refund = await refundsRepo.findRefund(ctx.db, job.key);
    if (refund?.status !== 'pending') return undefined;
    const intent = await intentsRepo.findIntent(ctx.db, refund.intent_id);
    if (intent === undefined) return undefined;
    try {
      await askProvider(ctx, intent, refund);
    } catch (error) {
      if (!(error instanceof NoSellerCredentials) && job.attempts < RESUME_ATTEMPTS) throw error;
      await refundsRepo.releaseRefund(ctx.db, refund.id);
      return undefined;
    }
    await settleRefund(ctx, refund);
    return undefined;
  };
}
