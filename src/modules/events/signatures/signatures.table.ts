import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from '../../../kernel/db/columns.ts';
import { editions } from '../editions/editions.table.ts';

export const SIGNATURE_REQUEST_STATUSES = ['pending', 'completed', 'denied', 'cancelled', 'expired'] as const;
export const SIGNATURE_STATUSES = ['active', 'revoked'] as const;

/**
 * Signature requests sent to a signatory (docs/reference/signatures.md). The token that opens a request is
 * never stored: only its SHA-256 hash (hex). `expired` is applied lazily, when a request is read after
 * `expires_at`.
 */
export const signatureRequests = pgTable(
  'signature_requests',
  {
    id: uuid('id').primaryKey(),
    edition_id: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    signatory_name: text('signatory_name').notNull(),
    signatory_email: text('signatory_email').notNull(),
    signatory_title: text('signatory_title'),
    status: text('status', { enum: SIGNATURE_REQUEST_STATUSES }).notNull().default('pending'),
    token_hash: text('token_hash').notNull(),
    expires_at: timestamptz('expires_at').notNull(),
    reason: text('reason'),
    created_by: uuid('created_by').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
    decided_at: timestamptz('decided_at'),
  },
  (table) => [
    uniqueIndex('signature_requests_token_unique').on(table.token_hash),
    index('signature_requests_edition_idx').on(table.edition_id, table.created_at),
    check(
      'signature_requests_status_check',
      sql`${table.status} in ('pending', 'completed', 'denied', 'cancelled', 'expired')`,
    ),
  ],
);

/** A fulfilled request's signature. Revoked once with the revoke token (stored hashed). */
export const signatures = pgTable(
  'signatures',
  {
    id: uuid('id').primaryKey(),
    request_id: uuid('request_id')
      .notNull()
      .references(() => signatureRequests.id),
    edition_id: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    signatory_name: text('signatory_name').notNull(),
    signatory_title: text('signatory_title'),
    image_url: text('image_url').notNull(),
    status: text('status', { enum: SIGNATURE_STATUSES }).notNull().default('active'),
    revoke_token_hash: text('revoke_token_hash').notNull(),
    revoke_expires_at: timestamptz('revoke_expires_at').notNull(),
    created_at: createdAt(),
    revoked_at: timestamptz('revoked_at'),
  },
  (table) => [
    uniqueIndex('signatures_request_unique').on(table.request_id),
    uniqueIndex('signatures_revoke_token_unique').on(table.revoke_token_hash),
    index('signatures_edition_idx').on(table.edition_id, table.created_at),
    check('signatures_status_check', sql`${table.status} in ('active', 'revoked')`),
  ],
);

export type SignatureRequestRow = typeof signatureRequests.$inferSelect;
export type SignatureRow = typeof signatures.$inferSelect;
