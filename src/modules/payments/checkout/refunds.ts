/**
 * Refunds of succeeded intents at the provider, serialised per intent (docs/decisions.md, "Refunds"): the
 * refund routes, the events module's refunds through the payments port and the refund job all
 * come through `refundIntent`. Steps:
 * 1. reserve: one transaction locks the intent, checks what is left and writes a `pending` refund
 *    (at most one per intent: a refund asked meanwhile is a 409, and the provider never hears of
 *    it), held by the request's attempt, with a resume job due once the request would long have
 *    finished;
 * 2. ask the provider, with the reservation's idempotency key, each request recorded first;
 * 3. conclude, by what the provider answered:
 *    - it made the refund: one transaction adds what it says it gave back to `refunded_cents`,
 *      moves the intent to `refunded` once all of it is back (announced like any transition) and
 *      marks the refund settled;
 *    - it surely made none (it refused with a 4xx, or was never asked): the reservation is
 *      released (deleted), a 502 (a 409 without seller credentials), and nothing else changed;
 *    - no answer (a timeout, a dropped connection, a 5xx): it may have made the refund, so the
 *      reservation stays pending, the caller gets a 502 saying the outcome is being confirmed, and
 *      the resume job asks again with the same key until the provider answers either way.
 * Attempts are fenced (refunds.table.ts): one attempt holds the reservation at a time, the resume
 * job takes over only once the holder's time is out or it let go, whoever learns of the refund
 * first settles it, and a reservation is released only by its holder and only when no request
 * whose outcome is unknown was ever sent for it. So a refund is never released while it may have
 * been made, `refunded_cents` is always what the provider gave back, and a second real refund
 * cannot come from a retry with another amount.
 */
import type { Logger } from 'pino';
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Config } from '../../../kernel/config.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { AppError, conflict } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import { scheduleJob } from '../../../kernel/jobs/jobs.repository.ts';
import type { JobHandler } from '../../../kernel/jobs/runner.ts';
import { NO_PROVIDER_PAYMENT } from '../../../kernel/payments-port.ts';
import { findSeller, NoSellerTokens, withSellerToken } from '../connections/index.ts';
import type { Outbox } from '../deps.ts';
import {
  addRefund,
  applyIntentStatus,
  findIntent,
  findPendingRefund,
  findRefund,
  type IntentRefundRow,
  type IntentRow,
  insertPendingRefund,
  letGoOfRefund,
  lockIntent,
  lockPendingRefund,
  markRefundSettled,
  recordRefundSend,
  releaseRefund,
  requireIntentOwner,
  takeOverRefund,
} from '../intents/index.ts';
import { type PaymentProvider, ProviderRefused, ProviderTokenRejected } from '../providers/index.ts';

/** What a refund needs, and every payments job with it. */
export interface RefundContext {
  db: Database;
  config: Config;
  outbox: Outbox;
  provider: PaymentProvider;
  /** Where a provider's answer that is not what was asked is reported. */
  log: Pick<Logger, 'warn'>;
}

export interface RefundRequest {
  /** Default: all that is left. */
  amountCents?: number | undefined;
  /** Why the events module asks it; its listener hears it with the move to `refunded`. */
  reason?: string | null | undefined;
}

export const RESUME_REFUND_JOB = 'payments.refund_resume';

const transactionOf = (intent: IntentRow): string | undefined => {
  const id = intent.provider_data.transaction_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
};

/**
 * Refunds `request.amountCents` of a succeeded intent (all that is left by default) and answers
 * the intent as recorded. 409 for another status, more than is left, no provider payment, or
 * another refund of the intent in flight (or still being confirmed); 502 when the provider refuses
 * (nothing changed) or fails without saying whether it made the refund (then the reservation stays
 * and the resume job confirms it: `error.reason` `refund_unconfirmed`).
 */
export async function refundIntent(
  ctx: RefundContext,
  intentId: string,
  request: RefundRequest,
): Promise<IntentRow> {
  const attemptId = uuidv7();
  const { intent, refund } = await reserveRefund(ctx.db, intentId, request, {
    attemptId,
    leaseMs: ctx.config.jobsLeaseMs,
  });
  const conclusion = await conclude(
    ctx,
    refund,
    attemptId,
    await askProvider(ctx, intent, refund, attemptId),
  );
  if (conclusion.status === 'settled') return conclusion.intent;
  if (conclusion.status === 'open') throw unconfirmed(refund, conclusion.cause);
  if (conclusion.cause instanceof NoSellerTokens) {
    throw conflict(
      'no_seller_credentials',
      'The seller’s credentials are gone (revoked); refund from the Mercado Pago account',
    );
  }
  throw conclusion.cause;
}

/** The 502 of a refund whose outcome the provider left unknown. */
function unconfirmed(refund: IntentRefundRow, cause: unknown): AppError {
  const detail = cause instanceof Error ? ` (${cause.message})` : '';
  return new AppError(
    'BAD_GATEWAY',
    `Mercado Pago did not confirm the refund${detail}. It may have been made, so it stays reserved ` +
      'and its outcome is being confirmed with Mercado Pago (asked again with the same key, it is ' +
      'never made twice); read the intent again later',
    { reason: 'refund_unconfirmed', meta: { refund_id: refund.id, amount_cents: refund.amount_cents } },
  );
}

/**
 * Step 1: the reservation, held by `attemptId` for `leaseMs`, and its resume job due then. The
 * lease is a job's (JOBS_LEASE_MS): the time a provider call with a token refresh fits in, with
 * room to spare; each request to the provider renews it. An attempt that outlives it is fenced,
 * not trusted to be gone: the resume job may take over and ask too (with the same key), but only
 * the holder releases, and never after another attempt's request.
 */
export async function reserveRefund(
  db: Database,
  intentId: string,
  request: RefundRequest,
  { attemptId, leaseMs }: { attemptId: string; leaseMs: number },
): Promise<{ intent: IntentRow; refund: IntentRefundRow }> {
  return db.transaction(async (tx) => {
    const intent = await lockIntent(tx, intentId);
    if (intent === undefined) throw new AppError('NOT_FOUND', 'Intent not found');
    if (intent.status !== 'succeeded') {
      throw conflict(
        'not_refundable',
        `Only a succeeded intent can be refunded; this one is ${intent.status}`,
        {
          status: intent.status,
        },
      );
    }
    const pending = await findPendingRefund(tx, intent.id);
    if (pending !== undefined) {
      throw conflict(
        'refund_in_progress',
        'Another refund of this intent is in progress, or its outcome is still being confirmed with ' +
          'Mercado Pago; read the intent again once it ends',
        { pending_refund_cents: pending.amount_cents },
      );
    }
    const left = intent.amount_cents - intent.refunded_cents;
    const amount = request.amountCents ?? left;
    if (amount > left) {
      throw conflict('refund_exceeds_amount', `At most ${left} can still be refunded`, {
        refundable_cents: left,
      });
    }
    if (transactionOf(intent) === undefined) {
      throw conflict(
        NO_PROVIDER_PAYMENT,
        'This intent has no provider payment to refund (a test-mode intent: move it with simulate)',
      );
    }
    const refund = await insertPendingRefund(
      tx,
      {
        id: uuidv7(),
        intent_id: intent.id,
        amount_cents: amount,
        // What was refunded before is part of the key: the next refund of the same amount is another.
        provider_key: `${intent.id}:${intent.refunded_cents}:${amount}`,
        reason: request.reason ?? null,
        attempt_id: attemptId,
      },
      leaseMs,
    );
    await scheduleJob(tx, {
      kind: RESUME_REFUND_JOB,
      key: refund.id,
      runAt: new Date(Date.now() + leaseMs),
    });
    return { intent, refund };
  });
}

/** What one attempt learnt from the provider. */
type Outcome =
  /** It made the refund; `amountCents` is what it says it gave back (null: it does not say). */
  | { kind: 'made'; amountCents: number | null }
  /** It refused this refund (a 4xx): it made none, and will not with this key. */
  | { kind: 'refused'; error: unknown }
  /** This attempt got no decision (failed before asking, or its token refused); `sends`: its requests. */
  | { kind: 'undecided'; error: unknown; sends: number }
  /** A request went unanswered (a timeout, a dropped connection, a 5xx): it may have made it. */
  | { kind: 'unknown'; error: unknown }
  /** Another attempt took the reservation over, or concluded it: this one sent nothing more. */
  | { kind: 'superseded' };

/** Thrown inside the token call when the attempt may no longer send (`recordRefundSend`). */
class Superseded extends Error {}

/**
 * Step 2: the refund at the provider, with the seller's token and the reservation's key, each
 * request recorded (and fenced) before it is sent.
 */
async function askProvider(
  ctx: RefundContext,
  intent: IntentRow,
  refund: IntentRefundRow,
  attemptId: string,
): Promise<Outcome> {
  const paymentId = transactionOf(intent);
  const seller = await findSeller(ctx.db, intent.seller_id);
  if (paymentId === undefined || seller === undefined) {
    return { kind: 'undecided', error: new NoSellerTokens(), sends: 0 };
  }
  let sends = 0;
  let unanswered = false;
  let refused = false;
  try {
    const made = await withSellerToken(ctx.db, ctx.config, ctx.provider, seller, async (token) => {
      const leaseMs = ctx.config.jobsLeaseMs;
      if (!(await recordRefundSend(ctx.db, refund.id, attemptId, leaseMs))) {
        throw new Superseded();
      }
      sends += 1;
      try {
        return await ctx.provider.refundPayment(token, paymentId, {
          amountCents: refund.amount_cents === intent.amount_cents ? undefined : refund.amount_cents,
          currency: intent.currency,
          key: refund.provider_key,
        });
      } catch (error) {
        // A refused token is tried again after a refresh; it made nothing either way.
        if (error instanceof ProviderRefused) refused = true;
        else if (!(error instanceof ProviderTokenRejected)) unanswered = true;
        throw error;
      }
    });
    return { kind: 'made', amountCents: made.amountCents };
  } catch (error) {
    if (error instanceof Superseded) return { kind: 'superseded' };
    if (refused) return { kind: 'refused', error };
    if (unanswered) return { kind: 'unknown', error };
    return { kind: 'undecided', error, sends };
  }
}

type Conclusion =
  | { status: 'settled'; intent: IntentRow }
  /** Nothing was refunded and the reservation is gone; `cause` is why. */
  | { status: 'released'; cause: unknown }
  /** The outcome is not known yet: the reservation stays, for the resume job (`cause`: why). */
  | { status: 'open'; cause: unknown };

/** Step 3: what an attempt's outcome does to the reservation (see the head of this file). */
async function conclude(
  ctx: RefundContext,
  refund: IntentRefundRow,
  attemptId: string,
  outcome: Outcome,
): Promise<Conclusion> {
  switch (outcome.kind) {
    case 'made':
      return { status: 'settled', intent: await settleRefund(ctx, refund, outcome.amountCents) };
    case 'refused':
      if (await releaseRefund(ctx.db, refund.id, attemptId)) {
        return { status: 'released', cause: outcome.error };
      }
      return { status: 'open', cause: outcome.error };
    case 'undecided':
      if (await releaseRefund(ctx.db, refund.id, attemptId, outcome.sends)) {
        return { status: 'released', cause: outcome.error };
      }
      await letGoOfRefund(ctx.db, refund.id, attemptId);
      return { status: 'open', cause: outcome.error };
    case 'unknown':
      await letGoOfRefund(ctx.db, refund.id, attemptId);
      return { status: 'open', cause: outcome.error };
    case 'superseded':
      return { status: 'open', cause: undefined };
  }
}

/**
 * Settles the refund with what the provider gave back. Of the attempts that may both learn of one
 * refund (the request and the resume job), the first settles it and the other finds it settled.
 */
async function settleRefund(
  ctx: RefundContext,
  refund: IntentRefundRow,
  givenBack: number | null,
): Promise<IntentRow> {
  const amount = givenBackOf(ctx, refund, givenBack);
  const { row, queued, transitioned } = await ctx.db.transaction(async (tx) => {
    const pending = await lockPendingRefund(tx, refund.id);
    if (pending === undefined) {
      const now = await findIntent(tx, refund.intent_id);
      if (now === undefined) throw new AppError('NOT_FOUND', 'Intent not found');
      return { row: now, queued: 0, transitioned: false };
    }
    const added = await addRefund(tx, refund.intent_id, amount);
    let moved = { intent: added, queued: 0 };
    const refundsAll = added.status === 'succeeded' && added.refunded_cents >= added.amount_cents;
    if (refundsAll) {
      // Before the refund is marked settled: the transition's listeners read its reason.
      moved = await applyIntentStatus(
        tx,
        added,
        { status: 'refunded', status_detail: null },
        'refund',
        ctx.outbox,
      );
    }
    await markRefundSettled(tx, refund.id, amount);
    return { row: moved.intent, queued: moved.queued, transitioned: refundsAll };
  });
  if (queued > 0) ctx.outbox.wake();
  if (transitioned) ctx.outbox.transitioned();
  return row;
}

/**
 * What the provider gave back, as the books record it: its answer's amount, which is what was
 * asked unless the provider decided otherwise (reported, since someone should look at why). An
 * answer that does not say (or says nothing sensible) counts as what was asked.
 */
function givenBackOf(ctx: RefundContext, refund: IntentRefundRow, givenBack: number | null): number {
  const context = { refund_id: refund.id, intent_id: refund.intent_id, asked_cents: refund.amount_cents };
  if (givenBack === null || givenBack <= 0) {
    ctx.log.warn(
      { ...context, answered_cents: givenBack },
      'refund: the provider’s answer gives no amount; recording the amount asked',
    );
    return refund.amount_cents;
  }
  if (givenBack !== refund.amount_cents) {
    ctx.log.warn(
      { ...context, answered_cents: givenBack },
      'refund: the provider gave back another amount than asked; recording what it gave back',
    );
  }
  return givenBack;
}

/**
 * The resume job of a reservation (`key`: the refund id): nothing to do once it is settled or
 * released. While another attempt holds it (the request, still waiting for the provider), it looks
 * again when that hold ends. Otherwise it takes the reservation over and asks the provider with
 * the same key, which answers the refund it made before, or makes it now, or refuses it; then it
 * concludes as the request does. When the outcome stays unknown (or the seller's credentials are
 * gone after a request whose outcome is unknown) it throws, and the job runner tries again with
 * its backoff. A job that fails for good leaves the reservation pending: the intent then takes no
 * further refund (409) rather than risk refunding twice, and the runner logs the failure as an
 * error for a person to settle with the provider (docs/decisions.md, "Refunds").
 */
export function resumeRefundJob(ctx: RefundContext): JobHandler {
  return async (job) => {
    const refund = await findRefund(ctx.db, job.key);
    if (refund?.status !== 'pending') return undefined;
    const intent = await findIntent(ctx.db, refund.intent_id);
    if (intent === undefined) return undefined;
    const attemptId = uuidv7();
    if (!(await takeOverRefund(ctx.db, refund.id, attemptId, ctx.config.jobsLeaseMs))) {
      return { retryInSeconds: secondsUntil(refund.attempt_until) };
    }
    const conclusion = await conclude(
      ctx,
      refund,
      attemptId,
      await askProvider(ctx, intent, refund, attemptId),
    );
    if (conclusion.status !== 'open') return undefined;
    if (conclusion.cause === undefined) return { retryInSeconds: ctx.config.jobsLeaseMs / 1000 };
    throw conclusion.cause;
  };
}

/** Whole seconds from now to `at` (at least 1): when another attempt's hold ends. */
const secondsUntil = (at: Date | null) => Math.max(1, Math.ceil(((at?.getTime() ?? 0) - Date.now()) / 1000));

/**
 * Refunds a succeeded intent at the provider, all that is left or `amountCents` (docs/reference/checkout.md):
 * the owner of its wallet only. A partial refund keeps `succeeded` with `refunded_cents`; the last one moves
 * it to `refunded`. Serialised per intent (above): 409 while another is in flight.
 */
export async function refundAsOwner(
  context: RefundContext,
  intentId: string,
  actor: Identity,
  amountCents: number | undefined,
) {
  const intent = await requireIntentOwner(context.db, intentId, actor);
  return serialize(await refundIntent(context, intent.id, { amountCents }));
}
