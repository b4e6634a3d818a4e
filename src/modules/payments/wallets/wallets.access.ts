/**
 * The wallet guard. A wallet has one owner (its creator) and no other role. It is not public
 * (docs/reference/auth.md): to anyone else the wallet and everything it owns (intents, sellers, webhook
 * endpoints, events, deliveries) are unknown, the same 404 with the same message as an id that
 * does not exist, never a 403 that would confirm it exists. Ownership is decided in the query that
 * finds the row, before any state is looked at, so both cases take the same single lookup.
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Executor } from '../../../kernel/db/client.ts';
import { notFound } from '../../../kernel/http/errors.ts';
import { findOwnedWallet } from './wallets.repository.ts';
import type { WalletRow } from './wallets.table.ts';

/** The caller's wallet; anyone else's is `Wallet not found`, exactly as an unknown id. */
export async function requireWalletOwner(
  db: Executor,
  walletId: string,
  actor: Identity,
): Promise<WalletRow> {
  const wallet = await findOwnedWallet(db, walletId, actor.userId);
  if (wallet === undefined) throw notFound('Wallet');
  return wallet;
}
