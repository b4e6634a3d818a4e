/** SQL of OAuth states, collectors and OAuth sellers. */
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import { type CollectorRow, collectors, wallets } from '../wallets/wallets.table.ts';
import { oauthStates, type SellerRow, sellers } from './connections.table.ts';

export type NewOAuthState = Omit<typeof oauthStates.$inferInsert, 'expires_at'>;
export type OAuthStateRow = typeof oauthStates.$inferSelect;

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

export async function insertCollector(
  db: Executor,
  values: typeof collectors.$inferInsert,
): Promise<CollectorRow> {
  const [row] = await db.insert(collectors).values(values).returning();
  return row!;
}

export async function insertSeller(db: Executor, values: typeof sellers.$inferInsert): Promise<SellerRow> {
  const [row] = await db.insert(sellers).values(values).returning();
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

export async function findCollector(db: Executor, id: string): Promise<CollectorRow | undefined> {
  const [row] = await db.select().from(collectors).where(eq(collectors.id, id)).limit(1);
  return row;
}

/** A seller with its wallet's owner (who may revoke it). */
export async function findSellerWithWalletOwner(
  db: Executor,
  id: string,
): Promise<{ seller: SellerRow; walletOwnerId: string } | undefined> {
  const [row] = await db
    .select({ seller: sellers, walletOwnerId: wallets.owner_id })
    .from(sellers)
    .innerJoin(wallets, eq(wallets.id, sellers.wallet_id))
    .where(eq(sellers.id, id))
    .limit(1);
  return row;
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

/** Stores refreshed credentials (sealed) of a live seller. */
export async function updateSellerCredentials(
  db: Executor,
  id: string,
  credentials: string,
  tokenExpiresAt: Date | null,
): Promise<void> {
  await db
    .update(sellers)
    .set({ credentials, token_expires_at: tokenExpiresAt, updated_at: sql`now()` })
    .where(and(eq(sellers.id, id), isNull(sellers.revoked_at)));
}
