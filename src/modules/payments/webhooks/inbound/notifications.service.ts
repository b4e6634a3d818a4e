/**
 * Inbound provider notifications (docs/reference/webhooks.md, `POST /webhooks/{provider}`). A notification
 * only says "look at payment X": the provider's answer to that lookup is what moves an intent, so a replayed
 * or reordered notification can at worst cause a redundant lookup.
 *
 * Every outcome but a duplicate leaves one `provider_notifications` row, written in the same
 * transaction as the change it caused (an applied notification: intent, event, deliveries and its
 * record commit together). Failures that the provider should retry (502 when it is down, 503 when
 * the service is not configured) leave nothing, so the retry starts from scratch.
 */
import type { Config } from '../../../../kernel/config.ts';
import type { Database } from '../../../../kernel/db/client.ts';
import { uuidv7 } from '../../../../kernel/db/ids.ts';
import { AppError } from '../../../../kernel/http/errors.ts';
import { scheduleJob } from '../../../../kernel/jobs/jobs.repository.ts';
import {
  findLiveSellersByAccount,
  findSeller,
  NoSellerTokens,
  type SellerRow,
  withSellerToken,
} from '../../connections/index.ts';
import type { Outbox } from '../../deps.ts';
import {
  applyIntentStatus,
  canTransition,
  findIntent,
  findIntentByTransaction,
  type IntentRow,
  type StatusChange,
} from '../../intents/index.ts';
import {
  type InboundNotification,
  type PaymentProvider,
  type ProviderNotification,
  type ProviderPayment,
  providerFor,
} from '../../providers/index.ts';
import * as repo from './notifications.repository.ts';
import type { NotificationOutcome } from './notifications.table.ts';

/** `duplicate` is answered but never recorded. */
export type ReceivedOutcome = NotificationOutcome | 'duplicate';

export interface NotificationReceipt {
  received: true;
  outcome: ReceivedOutcome;
  /** The payment event written, for `applied`. */
  event_id?: string;
}

/** The columns every record of one notification shares. */
type NotificationRecord = Pick<
  repo.NewProviderNotification,
  'provider' | 'type' | 'resource_id' | 'request_id' | 'payload'
>;

/**
 * How often a notification decides again after another writer moved its intent first. Each retry
 * follows a real move and statuses only move forward (pending → processing → succeeded →
 * refunded at most), so the bound is not reached in practice; past it the 409 stands and the
 * provider retries later.
 */
const MAX_SETTLE_ATTEMPTS = 4;

const receipt = (outcome: ReceivedOutcome, eventId?: string): NotificationReceipt =>
  eventId === undefined ? { received: true, outcome } : { received: true, outcome, event_id: eventId };

/**
 * Receives one notification. Steps:
 * 1. the provider (404 for an unknown slug) authenticates it: 503 without a webhook secret, 401 for
 *    a bad or expired signature. Nothing before this reads or writes the database;
 * 2. a type other than a payment is recorded `ignored`;
 * 3. the intent is found by the provider's transaction id and the payment fetched with its seller's
 *    token: no intent, no usable credentials or a payment the provider does not know is recorded
 *    `unmatched` (kept for a later replay); a provider failure is a 502 and records nothing;
 * 4. the provider's status, mapped, is settled against the intent (`settleNotification`).
 */
export async function receiveNotification(
  db: Database,
  config: Config,
  outbox: Outbox,
  slug: string,
  input: InboundNotification,
): Promise<NotificationReceipt> {
  // 1. Authenticate.
  const provider = providerFor(slug, config);
  const notification = provider.verifyNotification(input);
  const record = recordOf(provider.slug, notification, input.body);
  const keep = async (
    outcome: 'ignored' | 'unmatched' | 'mismatch',
    reason: string,
    intentId: string | null = null,
  ) => {
    await repo.insertNotification(db, { ...record, id: uuidv7(), outcome, reason, intent_id: intentId });
    return receipt(outcome);
  };

  // 2. Only payments are processed.
  if (!notification.isPayment) {
    return keep('ignored', `notifications of type ${notification.type} are not processed`);
  }
  const paymentId = notification.resourceId;
  if (paymentId === undefined) return keep('ignored', 'the notification names no payment');

  // 3. The intent and the payment as the provider reports it now; they must agree.
  const located = await locatePayment(db, config, provider, paymentId, notification.accountId);
  if ('unmatched' in located) return keep('unmatched', located.unmatched, located.intentId);
  const { intent, seller, payment } = located;
  const mismatch = paymentMismatch(intent, seller, payment);
  if (mismatch !== undefined) return keep('mismatch', mismatch, intent.id);

  // 4. Settle.
  const mapped = provider.mapStatus(payment.status, payment.statusDetail);
  return settleNotification(
    db,
    outbox,
    intent,
    { status: mapped.status, status_detail: mapped.statusDetail, transaction_id: payment.id },
    record,
  );
}

type Located =
  | { intent: IntentRow; seller: SellerRow; payment: ProviderPayment }
  | { unmatched: string; intentId: string | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The intent a notification is about, and its payment fetched with the seller's token. An intent
 * that already carries the payment as its transaction id is found by it (test-mode intents, and a
 * checkout's later notifications). A checkout's first notification is not: the account it names
 * (`user_id`) chooses a live seller, whose token fetches the payment, whose external reference
 * is the intent id (docs/reference/checkout.md).
 */
async function locatePayment(
  db: Database,
  config: Config,
  provider: PaymentProvider,
  paymentId: string,
  accountId: string | undefined,
): Promise<Located> {
  const fetchWith = async (seller: SellerRow) => {
    try {
      return await withSellerToken(db, config, provider, seller, (token) =>
        provider.fetchPayment(token, paymentId),
      );
    } catch (error) {
      if (error instanceof NoSellerTokens) return null;
      throw error;
    }
  };
  const known = await findIntentByTransaction(db, provider.slug, paymentId);
  if (known !== undefined) {
    const seller = await findSeller(db, known.intent.seller_id);
    const payment = seller === undefined ? null : await fetchWith(seller);
    if (seller === undefined || payment === null) {
      return { unmatched: 'the intent’s seller has no usable credentials', intentId: known.intent.id };
    }
    if (payment === undefined) {
      return { unmatched: 'the provider does not know this payment', intentId: known.intent.id };
    }
    return { intent: known.intent, seller, payment };
  }
  if (accountId === undefined) return { unmatched: 'no intent has this transaction id', intentId: null };
  const [first] = (await findLiveSellersByAccount(db, provider.slug, accountId)).filter(
    (seller) => seller.credentials !== null,
  );
  if (first === undefined) {
    return {
      unmatched: 'no intent has this transaction id and no live seller has the account it names',
      intentId: null,
    };
  }
  const payment = await fetchWith(first);
  if (payment === null)
    return { unmatched: 'the account’s seller has no usable credentials', intentId: null };
  if (payment === undefined) return { unmatched: 'the provider does not know this payment', intentId: null };
  const reference = payment.externalReference;
  const intent = reference !== null && UUID.test(reference) ? await findIntent(db, reference) : undefined;
  if (intent === undefined) {
    return { unmatched: 'the payment’s external reference names no intent', intentId: null };
  }
  const seller = await findSeller(db, intent.seller_id);
  if (seller === undefined) return { unmatched: 'the intent’s seller is gone', intentId: intent.id };
  return { intent, seller, payment };
}

/**
 * Why a payment cannot settle its intent, or undefined when it can: it names another intent, was
 * paid to another account than the intent's seller (another wallet's) or names no account at all
 * (Mercado Pago always reports the collector, so a payment without one proves nothing about who
 * was paid), or its amount or currency differs from the intent's. A checkout's payment must
 * report its amount; a test-mode intent's is compared when the provider reports one.
 */
export function paymentMismatch(
  intent: IntentRow,
  seller: SellerRow,
  payment: ProviderPayment,
): string | undefined {
  if (payment.externalReference !== null && payment.externalReference !== intent.id) {
    return 'the payment’s external reference names another intent';
  }
  if (payment.collectorId === null) return 'the payment names no account it was paid to (collector)';
  if (payment.collectorId !== seller.provider_user_id) {
    return 'the payment went to another account than the intent’s seller';
  }
  const isCheckout = typeof intent.provider_data.preference_id === 'string';
  if (payment.amountCents === null && !isCheckout) return undefined;
  if (payment.amountCents !== intent.amount_cents || payment.currency !== intent.currency) {
    return `the payment is ${payment.amountCents ?? '?'} ${payment.currency ?? '?'} and the intent ${intent.amount_cents} ${intent.currency}`;
  }
  return undefined;
}

/**
 * Settles a provider status against the intent as last read:
 * - the intent already has that status: a duplicate, answered and not recorded;
 * - the transition rule refuses the move (a late or backwards notification): recorded `stale`,
 *   the intent unchanged;
 * - otherwise the intent moves (event and deliveries through `applyIntentStatus`) and the record
 *   `applied` is written in the same transaction.
 * `applyIntentStatus` moves the intent only from the status read; when another writer (a
 * concurrent copy of this notification, a cancellation) moved it first it throws 409, the
 * transaction rolls back whole, and the decision is taken again on the intent as it is now: a
 * concurrent duplicate thus ends as a duplicate, having created nothing.
 */
export async function settleNotification(
  db: Database,
  outbox: Outbox,
  intent: IntentRow,
  change: StatusChange,
  record: NotificationRecord,
): Promise<NotificationReceipt> {
  let current = intent;
  for (let attempt = 1; ; attempt++) {
    if (current.status === change.status) return receipt('duplicate');
    if (!canTransition(current.status, change.status)) {
      const isOrphan = isOrphanPayment(current, change);
      await db.transaction(async (tx) => {
        await repo.insertNotification(tx, {
          ...record,
          id: uuidv7(),
          outcome: 'stale',
          reason: `the intent cannot move from ${current.status} to ${change.status}${isOrphan ? '; the payment is refunded' : ''}`,
          intent_id: current.id,
        });
        if (isOrphan) {
          await scheduleJob(tx, {
            kind: ORPHAN_REFUND_JOB,
            key: `${record.provider}:${change.transaction_id}`,
            payload: { intent_id: current.id, payment_id: change.transaction_id },
            runAt: new Date(),
          });
        }
      });
      return receipt('stale');
    }
    try {
      const { eventId, queued } = await db.transaction(async (tx) => {
        const { event, queued } = await applyIntentStatus(tx, current, change, record.provider, outbox);
        await repo.insertNotification(tx, {
          ...record,
          id: uuidv7(),
          outcome: 'applied',
          intent_id: current.id,
          event_id: event.id,
        });
        return { eventId: event.id, queued };
      });
      if (queued > 0) outbox.wake();
      outbox.transitioned();
      return receipt('applied', eventId);
    } catch (error) {
      const isLostRace = error instanceof AppError && error.code === 'CONFLICT';
      if (!isLostRace || attempt >= MAX_SETTLE_ATTEMPTS) throw error;
      const now = await findIntent(db, current.id);
      if (now === undefined) throw error;
      current = now;
    }
  }
}

/** The job that gives back a payment no intent can take (`isOrphanPayment`). */
export const ORPHAN_REFUND_JOB = 'payments.refund_orphan';

/**
 * An approved payment for an intent that already ended another way (rejected, cancelled, failed):
 * the payer paid again on the same checkout after a refusal, or after the intent was cancelled.
 * The transition rule keeps the intent as it is, so the money is given back rather than kept
 * without anything for it.
 */
function isOrphanPayment(intent: IntentRow, change: StatusChange): boolean {
  return (
    change.status === 'succeeded' &&
    change.transaction_id !== undefined &&
    ['rejected', 'cancelled', 'failed'].includes(intent.status)
  );
}

function recordOf(provider: string, notification: ProviderNotification, body: unknown): NotificationRecord {
  return {
    provider,
    type: notification.type,
    resource_id: notification.resourceId ?? null,
    request_id: notification.requestId ?? null,
    payload:
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>)
        : {},
  };
}
