/** SQL of checkout claims (`checkout-claims.table.ts`). */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { checkoutClaims } from './checkout-claims.table.ts';

/**
 * Claims (edition, person) for `claimId` for `seconds`, or renews the claim `claimId` holds: true
 * when it is this request's now, false while another request's claim holds. One statement: of
 * concurrent claims the unique key lets one insert, and the others update only a claim past its
 * expiry (or their own).
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
      expires_at: sql`now() + make_interval(secs => ${seconds})`,
    })
    .onConflictDoUpdate({
      target: [checkoutClaims.edition_id, checkoutClaims.user_id],
      set: { claim_id: sql`excluded.claim_id`, expires_at: sql`excluded.expires_at` },
      setWhere: sql`${checkoutClaims.expires_at} <= now() or ${checkoutClaims.claim_id} = excluded.claim_id`,
    })
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
  await db
    .delete(checkoutClaims)
    .where(
      and(
        eq(checkoutClaims.edition_id, editionId),
        eq(checkoutClaims.user_id, userId),
        eq(checkoutClaims.claim_id, claimId),
      ),
    );
}
