/** Intents: the wallet's intents, one intent, and cancellation by the wallet owner. */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database, Executor } from '../../../kernel/db/client.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { notFound } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import type { Outbox } from '../deps.ts';
import { requireWalletOwner } from '../wallets/index.ts';
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
  outbox.transitioned();
  return serialize(moved.intent);
}
