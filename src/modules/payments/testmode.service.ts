/** Test mode (contract 7.2): sellers without OAuth, intents created or moved without a provider. */
import { randomBytes } from 'node:crypto';
import type { Identity } from '../../kernel/auth/verifier.ts';
import type { Database } from '../../kernel/db/client.ts';
import { uuidv7 } from '../../kernel/db/ids.ts';
import { conflict, forbidden, notFound } from '../../kernel/http/errors.ts';
import { serialize } from '../../kernel/http/respond.ts';
import { requireWalletOwner } from './access.ts';
import type { CreateTestIntentBody, CreateTestSellerBody, SimulateBody } from './intents.schemas.ts';
import { requireIntentOwner } from './intents.service.ts';
import { applyIntentStatus, createIntent } from './intents.transitions.ts';
import type { Outbox } from './outbox.ts';
import * as walletsRepo from './wallets.repository.ts';

export async function createTestSeller(db: Database, actor: Identity, body: CreateTestSellerBody) {
  await requireWalletOwner(db, body.wallet_id, actor);
  const seller = await walletsRepo.insertSeller(db, {
    id: uuidv7(),
    wallet_id: body.wallet_id,
    owner_id: actor.userId,
    provider: body.provider,
    provider_user_id: `test_${randomBytes(8).toString('hex')}`,
    is_test: true,
  });
  return serialize(seller);
}

/**
 * Creates an intent directly in the status sent (interface operation 11):
 * 1. the caller owns the wallet (404/403), before any state is looked at;
 * 2. the seller belongs to that wallet (404) and is not revoked (409);
 * 3. a sandbox wallet takes only sandbox intents (409);
 * 4. the intent (collector: the wallet's, as bound now), its `payment.<status>` event and the
 *    event's deliveries are written by one statement, then the workers are woken.
 * The checks read before the write without a lock: a seller revoked in between still gets this
 * one intent, as if the revocation had come a moment later.
 */
export async function createTestIntent(
  db: Database,
  outbox: Outbox,
  actor: Identity,
  body: CreateTestIntentBody,
) {
  const found = await walletsRepo.findWalletWithSeller(db, body.wallet_id, body.seller_id);
  if (found === undefined) throw notFound('Wallet');
  const { wallet, seller } = found;
  if (wallet.owner_id !== actor.userId) throw forbidden('Only the owner of the wallet may do this');
  if (seller === undefined) throw notFound('Seller');
  if (seller.revoked_at !== null) throw conflict('The seller has been revoked');
  if (wallet.sandbox && !body.sandbox) {
    throw conflict('A sandbox wallet accepts only sandbox intents', { sandbox: true });
  }
  const { intent, queued } = await createIntent(
    db,
    {
      id: uuidv7(),
      wallet_id: wallet.id,
      seller_id: seller.id,
      collector_id: wallet.collector_id,
      amount_cents: body.amount_cents,
      currency: body.currency,
      sandbox: body.sandbox,
      provider: body.provider,
      status: body.status,
      status_detail: body.status_detail ?? null,
      provider_data: (body.provider_data ?? {}) as Record<string, unknown>,
      metadata: (body.metadata ?? {}) as Record<string, unknown>,
    },
    'testmode',
    outbox,
  );
  if (queued > 0) outbox.wake();
  return serialize(intent);
}

/** Moves an intent as a provider notification would (same transition path, source `simulate`). */
export async function simulateIntent(
  db: Database,
  outbox: Outbox,
  intentId: string,
  actor: Identity,
  body: SimulateBody,
) {
  const intent = await requireIntentOwner(db, intentId, actor);
  const moved = await db.transaction((tx) => applyIntentStatus(tx, intent, body, 'simulate', outbox));
  if (moved.queued > 0) outbox.wake();
  return serialize(moved.intent);
}
