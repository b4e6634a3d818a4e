import { pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../../kernel/db/columns.ts';
import { editions } from '../editions/editions.table.ts';

/**
 * Paid registrations being made right now: one row per (edition, person) while a request looks
 * for the person's registration, asks the provider for a preference and commits (docs/reference/checkout.md,
 * "Paid tickets"). Claimed before the provider is asked, renewed while held and deleted after, so a person's
 * checkouts in an edition run one at a time; a row past `expires_at` was left by a request that died and is
 * taken over by the next. No row lives longer than one request.
 */
export const checkoutClaims = pgTable(
  'checkout_claims',
  {
    edition_id: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id').notNull(),
    /** The request holding it: only that one releases it. */
    claim_id: uuid('claim_id').notNull(),
    expires_at: timestamptz('expires_at').notNull(),
  },
  (table) => [primaryKey({ name: 'checkout_claims_pk', columns: [table.edition_id, table.user_id] })],
);
