/**
 * The wallet guard: a wallet has one owner (its creator). An unknown wallet is 404; anyone else's
 * wallet is 403 (contract 7.1), decided before any state is looked at.
 */
import { eq } from 'drizzle-orm';
import type { Identity } from '../../kernel/auth/verifier.ts';
import type { Executor } from '../../kernel/db/client.ts';
import { forbidden, notFound } from '../../kernel/http/errors.ts';
import { type WalletRow, wallets } from './payments.table.ts';

export async function requireWalletOwner(
  db: Executor,
  walletId: string,
  actor: Identity,
): Promise<WalletRow> {
  const [wallet] = await db.select().from(wallets).where(eq(wallets.id, walletId)).limit(1);
  if (wallet === undefined) throw notFound('Wallet');
  if (wallet.owner_id !== actor.userId) throw forbidden('Only the owner of the wallet may do this');
  return wallet;
}
