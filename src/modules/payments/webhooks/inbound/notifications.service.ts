/**
 * Inbound provider notifications (contract 7.3, `POST /webhooks/{provider}`). A notification only
 * says "look at payment X": the provider's answer to that lookup is what moves an intent, so a
 * replayed or reordered notification can at worst cause a redundant lookup.
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
import { openCredentials } from '../../connections/credentials.ts';
import * as intentsRepo from '../../intents/intents.repository.ts';
import type { IntentRow } from '../../intents/intents.table.ts';
import { applyIntentStatus, canTransition, type StatusChange } from '../../intents/intents.transitions.ts';
import { providerFor } from '../../providers/index.ts';
import type { InboundNotification, ProviderNotification } from '../../providers/provider.ts';
import type { Outbox } from '../delivery/outbox.ts';
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
  const keep = async (outcome: 'ignored' | 'unmatched', reason: string, intentId: string | null = null) => {
    await repo.insertNotification(db, { ...record, id: uuidv7(), outcome, reason, intent_id: intentId });
    return receipt(outcome);
  };

  // 2. Only payments are processed.
  if (!notification.isPayment) {
    return keep('ignored', `notifications of type ${notification.type} are not processed`);
  }
  const paymentId = notification.resourceId;
  if (paymentId === undefined) return keep('ignored', 'the notification names no payment');

  // 3. The intent, its seller's token, the payment as the provider reports it now.
  const found = await repo.findIntentByTransaction(db, provider.slug, paymentId);
  if (found === undefined) return keep('unmatched', 'no intent has this transaction id');
  const { intent } = found;
  if (config.secretsKey === undefined) {
    // Not a property of this notification: a server without SECRETS_KEY can read no credentials.
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'SECRETS_KEY is not configured: provider credentials cannot be read',
    );
  }
  const credentials = openCredentials(config.secretsKey, found.credentials);
  if (credentials === undefined) {
    return keep('unmatched', 'the intent’s seller has no usable credentials', intent.id);
  }
  const payment = await provider.fetchPayment(credentials.accessToken, paymentId);
  if (payment === undefined) return keep('unmatched', 'the provider does not know this payment', intent.id);

  // 4. Settle.
  const mapped = provider.mapStatus(payment.status, payment.statusDetail);
  return settleNotification(
    db,
    outbox,
    intent,
    { status: mapped.status, status_detail: mapped.statusDetail },
    record,
  );
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
      await repo.insertNotification(db, {
        ...record,
        id: uuidv7(),
        outcome: 'stale',
        reason: `the intent cannot move from ${current.status} to ${change.status}`,
        intent_id: current.id,
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
      return receipt('applied', eventId);
    } catch (error) {
      const isLostRace = error instanceof AppError && error.code === 'CONFLICT';
      if (!isLostRace || attempt >= MAX_SETTLE_ATTEMPTS) throw error;
      const now = await intentsRepo.findIntent(db, current.id);
      if (now === undefined) throw error;
      current = now;
    }
  }
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
