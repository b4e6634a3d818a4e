/** SQL of checkout claims (`checkout-claims.table.ts`). */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { checkoutClaims } from './checkout-claims.table.ts';

/** The claim of (edition, person), if `claimId` holds it. */
const heldBy = (editionId: string, userId: string, claimId: string) =>
  and(
    eq(checkoutClaims.edition_id, editionId),
    eq(checkoutClaims.user_id, userId),
    eq(checkoutClaims.claim_id, claimId),
  );

const expiresIn = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`;

/**
 * Claims (edition, person) for `claimId` for `seconds`: true when it is this request's now, false
 * while another request's claim holds. One statement: of concurrent claims the unique key lets one
 * insert, and the others take over only a claim past its expiry.
 */
export async function claimCheckout(
  db: Executor,
  editionId: string,
  userId: string,
  claimId: string,
  seconds: number,
): Promise<boolean> {
  const rows = await db
    .insert(checkoutClaims)
    .values({
      edition_id: editionId,
      user_id: userId,
      claim_id: claimId,
      expires_at: expiresIn(seconds),
    })
    .onConflictDoUpdate({
      target: [checkoutClaims.edition_id, checkoutClaims.user_id],
      set: { claim_id: sql`excluded.claim_id`, expires_at: sql`excluded.expires_at` },
      setWhere: sql`${checkoutClaims.expires_at} <= now()`,
    })
    .returning({ claimId: checkoutClaims.claim_id });
  return rows.length > 0;
}

/**
 * Extends the claim `claimId` holds by `seconds` from now: false when it holds none (released, or
 * taken over after expiry). An update, never an insert, so a renewal that reaches the database
 * after the release cannot bring the claim back.
 */
export async function renewCheckoutClaim(
  db: Executor,
  editionId: string,
  userId: string,
  claimId: string,
  seconds: number,
): Promise<boolean> {
  const rows = await db
    .update(checkoutClaims)
    .set({ expires_at: expiresIn(seconds) })
    .where(heldBy(editionId, userId, claimId))
    .returning({ claimId: checkoutClaims.claim_id });
  return rows.length > 0;
}

/** Releases the claim if `claimId` still holds it (one taken over after expiry is not touched). */
export async function releaseCheckoutClaim(
  db: Executor,
  editionId: string,
  userId: string,
  claimId: string,
): Promise<void> {
  await db.delete(checkoutClaims).where(heldBy(editionId, userId, claimId));
}
