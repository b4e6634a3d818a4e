/** SQL of wallets, their collectors and the collector binding (sellers: `connections/`). */
import { and, type Column, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import { type CollectorRow, collectors, type WalletRow, wallets } from './wallets.table.ts';

export type NewWallet = typeof wallets.$inferInsert;
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

export async function insertCollector(
  db: Executor,
  values: typeof collectors.$inferInsert,
): Promise<CollectorRow> {
  const [row] = await db.insert(collectors).values(values).returning();
  return row!;
}

/** The owner's collectors, newest first. */
export function listCollectorsOfOwner(db: Executor, ownerId: string, window: Window) {
  const mine = eq(collectors.owner_id, ownerId);
  return pageOf(
    window,
    db
      .select()
      .from(collectors)
      .where(mine)
      .orderBy(desc(collectors.created_at), desc(collectors.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(collectors).where(mine),
  );
}

/** Revokes and erases credentials; undefined when it was already revoked (lost a race). */
export async function revokeCollector(db: Executor, id: string): Promise<CollectorRow | undefined> {
  const [row] = await db
    .update(collectors)
    .set({ revoked_at: sql`now()`, credentials: null, token_expires_at: null, updated_at: sql`now()` })
    .where(and(eq(collectors.id, id), isNull(collectors.revoked_at)))
    .returning();
  return row;
}

/** The collector bound to the wallet when the statement runs, as a value (an intent's `collector_id`). */
export function collectorOfWallet(walletId: string): SQL {
  return sql`(select ${wallets.collector_id} from ${wallets} where ${wallets.id} = ${walletId})`;
}

/** The owner of the row's wallet (`walletId`, its `wallet_id` column), as a value. */
export function ownerOfWallet(walletId: Column): SQL<string> {
  return sql<string>`(select ${wallets.owner_id} from ${wallets} where ${wallets.id} = ${walletId})`;
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
