/** Intents: the wallet's intents, one intent, and cancellation by the wallet owner. */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database, Executor } from '../../../kernel/db/client.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { notFound } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import { requireWalletOwner } from '../access.ts';
import { type RefundContext, refundIntent } from '../checkout/refunds.ts';
import type { Outbox } from '../webhooks/delivery/outbox.ts';
import * as repo from './intents.repository.ts';
import type { IntentRow, IntentStatus } from './intents.table.ts';
import { applyIntentStatus } from './intents.transitions.ts';

/** The intent, if the caller owns its wallet; anyone else's is the 404 of an unknown id. */
export async function requireIntentOwner(
  db: Executor,
  intentId: string,
  actor: Identity,
): Promise<IntentRow> {
  const intent = await repo.findIntentOfOwner(db, intentId, actor.userId);
  if (intent === undefined) throw notFound('Intent');
  return intent;
}

export async function listIntents(
  db: Database,
  walletId: string,
  actor: Identity,
  status: IntentStatus | undefined,
  window: Window,
) {
  await requireWalletOwner(db, walletId, actor);
  const page = await repo.listIntentsOfWallet(db, walletId, status, window);
  return { ...page, items: page.items.map(serialize) };
}

export async function getIntent(db: Database, intentId: string, actor: Identity) {
  return serialize(await requireIntentOwner(db, intentId, actor));
}

/** Cancels a `pending` or `processing` intent; any other status is a 409 (the transition rule). */
export async function cancelIntent(db: Database, outbox: Outbox, intentId: string, actor: Identity) {
  const intent = await requireIntentOwner(db, intentId, actor);
  const moved = await db.transaction((tx) =>
    applyIntentStatus(tx, intent, { status: 'cancelled', status_detail: null }, 'cancel', outbox),
  );
  if (moved.queued > 0) outbox.wake();
  return serialize(moved.intent);
}

/**
 * Refunds a succeeded intent at the provider, all that is left or `amountCents` (docs/reference/checkout.md): the
 * owner of its wallet only. A partial refund keeps `succeeded` with `refunded_cents`; the last one
 * moves it to `refunded`. Serialised per intent (`refunds.ts`): 409 while another is in flight.
 */
export async function refund(
  context: RefundContext,
  intentId: string,
  actor: Identity,
  amountCents: number | undefined,
) {
  const intent = await requireIntentOwner(context.db, intentId, actor);
  return serialize(await refundIntent(context, intent.id, { amountCents }));
}
