/** The SQL of sign-ins under way (sign-in.table.ts). */
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { identitySignIns } from './sign-in.table.ts';

/** How long the provider's answer may take to come back. */
const SIGN_IN_TTL_SECONDS = 10 * 60;

export async function insertSignIn(
  db: Executor,
  row: { stateHash: Buffer; nonce: string; codeVerifier: string; returnTo: string },
): Promise<void> {
  // Sign-ins abandoned at the provider are forgotten as new ones start.
  await db.delete(identitySignIns).where(lt(identitySignIns.expires_at, sql`now()`));
  await db.insert(identitySignIns).values({
    state_hash: row.stateHash,
    nonce: row.nonce,
    code_verifier: row.codeVerifier,
    return_to: row.returnTo,
    expires_at: sql`now() + ${SIGN_IN_TTL_SECONDS}::integer * interval '1 second'`,
  });
}

/**
 * Takes the sign-in of a `state` (DELETE … RETURNING): of two callbacks with one state, one gets it
 * and the other nothing, so a replayed answer of the provider signs no one in.
 */
export async function takeSignIn(db: Executor, stateHash: Buffer) {
  const rows = await db
    .delete(identitySignIns)
    .where(and(eq(identitySignIns.state_hash, stateHash), gt(identitySignIns.expires_at, sql`now()`)))
    .returning();
  return rows[0];
}
