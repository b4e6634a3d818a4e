import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { bytea, createdAt, timestamptz } from '../../../kernel/db/columns.ts';

/**
 * Sign-ins under way (docs/reference/sign-in.md): what `GET /auth/sign-in` sent to the provider and
 * the callback must check, keyed by the SHA-256 of the `state`. Deleted as the callback reads it, so
 * a `state` works once; a row left by a sign-in never finished ends at `expires_at` (10 minutes).
 */
export const identitySignIns = pgTable(
  'identity_sign_ins',
  {
    state_hash: bytea('state_hash').primaryKey(),
    nonce: text('nonce').notNull(),
    /** The PKCE verifier, sealed with SECRETS_KEY (kernel/secret-box.ts) like every stored secret. */
    code_verifier: text('code_verifier').notNull(),
    return_to: text('return_to').notNull(),
    created_at: createdAt(),
    expires_at: timestamptz('expires_at').notNull(),
  },
  (table) => [index('identity_sign_ins_expires_idx').on(table.expires_at)],
);
