/** Test mode (docs/reference/payments.md): sellers without OAuth, intents created or moved without a provider. */
import { randomBytes } from 'node:crypto';
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { conflict, notFound } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import { insertTestSeller } from '../connections/index.ts';
import type { Outbox } from '../deps.ts';
import { requireWalletOwner } from '../wallets/index.ts';
import type { CreateTestIntentBody, CreateTestSellerBody, SimulateBody } from './intents.schemas.ts';
import { requireIntentOwner } from './intents.service.ts';
import type { IntentRefusal } from './intents.table.ts';
import { applyIntentStatus, createIntent } from './intents.transitions.ts';

export async function createTestSeller(db: Database, actor: Identity, body: CreateTestSellerBody) {
  await requireWalletOwner(db, body.wallet_id, actor);
  const seller = await insertTestSeller(db, {
    id: uuidv7(),
    wallet_id: body.wallet_id,
    owner_id: actor.userId,
    provider: body.provider,
    provider_user_id: `test_${randomBytes(8).toString('hex')}`,
    is_test: true,
  });
  return serialize(seller);
}

/** The answer to each reason `createIntent` refuses (see `IntentRefusal` for the order). */
const REFUSALS: Record<IntentRefusal, () => Error> = {
  no_wallet: () => notFound('Wallet'),
  no_seller: () => notFound('Seller'),
  seller_revoked: () => conflict('seller_revoked', 'The seller has been revoked'),
  sandbox_only: () =>
    conflict('sandbox_only', 'A sandbox wallet accepts only sandbox intents', { sandbox: true }),
};

/**
 * Creates an intent directly in the status sent (docs/reference/payments.md). One statement checks
 * that the caller owns the wallet (someone else's is the 404 of an unknown one, decided before any
 * other state is looked at), that the seller belongs to it (404) and is not revoked (409), and
 * that a sandbox wallet gets a sandbox intent (409), then writes the intent (collector: the
 * wallet's, as bound now), its `payment.<status>` event and the event's deliveries; the workers
 * are woken after it commits.
 */
export async function createTestIntent(
  db: Database,
  outbox: Outbox,
  actor: Identity,
  body: CreateTestIntentBody,
) {
  const created = await createIntent(
    db,
    actor.userId,
    {
      id: uuidv7(),
      wallet_id: body.wallet_id,
      seller_id: body.seller_id,
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
  if (created.refusal !== undefined) throw REFUSALS[created.refusal]();
  if (created.queued > 0) outbox.wake();
  return serialize(created.intent);
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
  outbox.transitioned();
  return serialize(moved.intent);
}
