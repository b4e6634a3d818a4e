/** SQL of OAuth states and sellers (collectors: `wallets/`). */
import { and, type Column, desc, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import { ownerOfWallet } from '../wallets/index.ts';
import { oauthStates, type SellerRow, sellers } from './connections.table.ts';

export type NewOAuthState = Omit<typeof oauthStates.$inferInsert, 'expires_at'>;
export type OAuthStateRow = typeof oauthStates.$inferSelect;
export type NewSeller = typeof sellers.$inferInsert;

/** How long a connect link stays usable, on the database's clock (as the claim checks it). */
const STATE_TTL = sql`now() + interval '10 minutes'`;

export async function insertOAuthState(db: Executor, values: NewOAuthState): Promise<void> {
  await db.insert(oauthStates).values({ ...values, expires_at: STATE_TTL });
}

/**
 * Claims a state: marks it used only if it is unused and unexpired, in one statement, so two
 * callbacks racing with the same state cannot both win. Undefined: unknown, used or expired.
 */
export async function claimOAuthState(
  db: Executor,
  provider: string,
  stateHash: string,
): Promise<OAuthStateRow | undefined> {
  const [row] = await db
    .update(oauthStates)
    .set({ used_at: sql`now()` })
    .where(
      and(
        eq(oauthStates.state_hash, stateHash),
        eq(oauthStates.provider, provider as 'mercadopago'),
        isNull(oauthStates.used_at),
        gt(oauthStates.expires_at, sql`now()`),
      ),
    )
    .returning();
  return row;
}

export async function insertSeller(db: Executor, values: typeof sellers.$inferInsert): Promise<SellerRow> {
  const [row] = await db.insert(sellers).values(values).returning();
  return row!;
}

/** A seller with its wallet's owner (who may revoke it). */
export async function findSellerWithWalletOwner(
  db: Executor,
  id: string,
): Promise<{ seller: SellerRow; walletOwnerId: string } | undefined> {
  const [row] = await db
    .select({ seller: sellers, walletOwnerId: ownerOfWallet(sellers.wallet_id) })
    .from(sellers)
    .where(eq(sellers.id, id))
    .limit(1);
  return row;
}

export async function revokeSeller(db: Executor, id: string): Promise<SellerRow | undefined> {
  const [row] = await db
    .update(sellers)
    .set({ revoked_at: sql`now()`, credentials: null, token_expires_at: null, updated_at: sql`now()` })
    .where(and(eq(sellers.id, id), isNull(sellers.revoked_at)))
    .returning();
  return row;
}

/** A seller by id, locked until the end of the caller's transaction (a token refresh). */
export async function lockSeller(db: Executor, id: string): Promise<SellerRow | undefined> {
  const [row] = await db.select().from(sellers).where(eq(sellers.id, id)).for('update').limit(1);
  return row;
}

export async function findSeller(db: Executor, id: string): Promise<SellerRow | undefined> {
  const [row] = await db.select().from(sellers).where(eq(sellers.id, id)).limit(1);
  return row;
}

/** Live sellers of `provider` whose provider account is `providerUserId` (a notification's `user_id`). */
export function findLiveSellersByAccount(
  db: Executor,
  provider: SellerRow['provider'],
  providerUserId: string,
) {
  return db
    .select()
    .from(sellers)
    .where(
      and(
        eq(sellers.provider, provider),
        eq(sellers.provider_user_id, providerUserId),
        isNull(sellers.revoked_at),
      ),
    )
    .orderBy(desc(sellers.created_at))
    .limit(10);
}

/** Stores a live seller's refreshed provider tokens (sealed). */
export async function updateSellerTokens(
  db: Executor,
  id: string,
  sealedTokens: string,
  tokenExpiresAt: Date | null,
): Promise<void> {
  await db
    .update(sellers)
    .set({ credentials: sealedTokens, token_expires_at: tokenExpiresAt, updated_at: sql`now()` })
    .where(and(eq(sellers.id, id), isNull(sellers.revoked_at)));
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

/** A test-mode seller (no OAuth, no credentials), answered by its public columns. */
export async function insertTestSeller(db: Executor, values: NewSeller): Promise<PublicSeller> {
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

/** The seller's sealed provider tokens (null for a test or revoked seller), as a value (an intent's seller). */
export function sealedTokensOfSeller(sellerId: Column): SQL<string | null> {
  return sql<
    string | null
  >`(select ${sellers.credentials} from ${sellers} where ${sellers.id} = ${sellerId})`;
}
