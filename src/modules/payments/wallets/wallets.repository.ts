/** SQL of wallets, their collector binding and their sellers. */
import { and, type Column, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import { type SellerRow, sellers } from '../connections/connections.table.ts';
import { type CollectorRow, collectors, type WalletRow, wallets } from './wallets.table.ts';

export type NewWallet = typeof wallets.$inferInsert;
export type NewSeller = typeof sellers.$inferInsert;
export type WalletPatch = { sandbox?: boolean; fee_bps?: number; collector_id?: string | null };

export async function insertWallet(db: Executor, values: NewWallet): Promise<WalletRow> {
  const [row] = await db.insert(wallets).values(values).returning();
  return row!;
}

export async function updateWallet(db: Executor, id: string, patch: WalletPatch): Promise<WalletRow> {
  const [row] = await db
    .update(wallets)
    .set({ ...patch, updated_at: sql`now()` })
    .where(eq(wallets.id, id))
    .returning();
  return row!;
}

/** The owner's wallets, newest first (ids are time-ordered, so they break ties). */
export function listWalletsOfOwner(db: Executor, ownerId: string, window: Window) {
  const mine = eq(wallets.owner_id, ownerId);
  return pageOf(
    window,
    db
      .select()
      .from(wallets)
      .where(mine)
      .orderBy(desc(wallets.created_at), desc(wallets.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(wallets).where(mine),
  );
}

export async function findCollector(db: Executor, id: string): Promise<CollectorRow | undefined> {
  const [row] = await db.select().from(collectors).where(eq(collectors.id, id)).limit(1);
  return row;
}

/** Public columns of a seller: credentials never leave the repository. */
const sellerColumns = {
  id: sellers.id,
  wallet_id: sellers.wallet_id,
  provider: sellers.provider,
  provider_user_id: sellers.provider_user_id,
  created_at: sellers.created_at,
  revoked_at: sellers.revoked_at,
};
export type PublicSeller = Pick<
  SellerRow,
  'id' | 'wallet_id' | 'provider' | 'provider_user_id' | 'created_at' | 'revoked_at'
>;

export function listSellersOfWallet(db: Executor, walletId: string, window: Window) {
  const ofWallet = eq(sellers.wallet_id, walletId);
  return pageOf<PublicSeller>(
    window,
    db
      .select(sellerColumns)
      .from(sellers)
      .where(ofWallet)
      .orderBy(desc(sellers.created_at), desc(sellers.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(sellers).where(ofWallet),
  );
}

export async function insertSeller(db: Executor, values: NewSeller): Promise<PublicSeller> {
  const [row] = await db.insert(sellers).values(values).returning(sellerColumns);
  return row!;
}

/** A seller of this wallet (undefined when unknown or of another wallet). */
export async function findSellerOfWallet(
  db: Executor,
  walletId: string,
  sellerId: string,
): Promise<SellerRow | undefined> {
  const [row] = await db
    .select()
    .from(sellers)
    .where(and(eq(sellers.id, sellerId), eq(sellers.wallet_id, walletId)))
    .limit(1);
  return row;
}

/**
 * A condition for the repositories of what a wallet owns: the row's wallet (`walletId`, its
 * `wallet_id` column) belongs to `ownerId`. A finder that adds it answers nothing for someone
 * else's row, so the service throws the one 404 it throws for an unknown id.
 */
export function isOwnedBy(walletId: Column, ownerId: string): SQL {
  return sql`exists (select 1 from ${wallets}
    where ${wallets.id} = ${walletId} and ${wallets.owner_id} = ${ownerId})`;
}

/** The wallet if it is `ownerId`'s; someone else's is undefined, as an unknown id (docs/reference/auth.md). */
export async function findOwnedWallet(
  db: Executor,
  walletId: string,
  ownerId: string,
): Promise<WalletRow | undefined> {
  const [wallet] = await db
    .select()
    .from(wallets)
    .where(and(eq(wallets.id, walletId), eq(wallets.owner_id, ownerId)))
    .limit(1);
  return wallet;
}

export async function findWallet(db: Executor, walletId: string): Promise<WalletRow | undefined> {
  const [wallet] = await db.select().from(wallets).where(eq(wallets.id, walletId)).limit(1);
  return wallet;
}
