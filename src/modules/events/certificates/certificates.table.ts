import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { actors } from '../../../kernel/auth/actors.table.ts';
import { bytea, createdAt, timestamptz, updatedAt } from '../../../kernel/db/columns.ts';
import { LANGUAGES } from '../../../kernel/pages/language.ts';
import { certificationTemplates } from '../certification-templates/certification-templates.table.ts';
import { editions } from '../editions/editions.table.ts';

export const CERTIFICATE_STATUSES = ['valid', 'revoked'] as const;
export const ISSUANCE_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export const DOCUMENT_VERSIONS = ['issued', 'revoked'] as const;

/**
 * Bitstring status lists (W3C Bitstring Status List v1.0): each certificate owns one bit of one
 * list, allocated when it is issued; revoking sets it. `allocated` counts the bits handed out;
 * the position of a bit is a permutation of that counter (credentials/status-list.ts), so
 * neighbouring certificates do not sit on neighbouring bits. `updated_at` moves on every
 * revocation and names the version of the signed list.
 */
export const credentialStatusLists = pgTable(
  'credential_status_lists',
  {
    id: uuid('id').primaryKey(),
    size: integer('size').notNull(),
    allocated: integer('allocated').notNull().default(0),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (table) => [
    check('credential_status_lists_allocated_check', sql`${table.allocated} between 0 and ${table.size}`),
  ],
);

/**
 * Certificates (docs/reference/attendance.md): one per template and person, issued by an issuance run. The
 * holder's name and e-mail are copied at issuance, as printed. `verification_code` is public by design
 * (printed on the PDF, in the verify URL), so it is stored as is.
 */
export const certificates = pgTable(
  'certificates',
  {
    id: uuid('id').primaryKey(),
    template_id: uuid('template_id')
      .notNull()
      .references(() => certificationTemplates.id),
    edition_id: uuid('edition_id')
      .notNull()
      .references(() => editions.id),
    user_id: uuid('user_id')
      .notNull()
      .references(() => actors.user_id),
    holder_name: text('holder_name').notNull(),
    holder_email: text('holder_email').notNull(),
    issued_at: timestamptz('issued_at').notNull().defaultNow(),
    status: text('status', { enum: CERTIFICATE_STATUSES }).notNull().default('valid'),
    revoked_at: timestamptz('revoked_at'),
    reason: text('reason'),
    revoked_by: uuid('revoked_by'),
    verification_code: text('verification_code').notNull(),
    status_list_id: uuid('status_list_id')
      .notNull()
      .references(() => credentialStatusLists.id),
    status_list_index: integer('status_list_index').notNull(),
    issuance_id: uuid('issuance_id'),
    /**
     * The signatures its PDF shows, in order: those of the edition active when it was issued (the
     * first MAX_SIGNATURES), kept even if revoked later. Null for certificates issued before the
     * set was recorded: their PDF shows the signatures active at `issued_at`.
     */
    signature_ids: uuid('signature_ids').array(),
  },
  (table) => [
    uniqueIndex('certificates_holder_unique').on(table.template_id, table.user_id),
    uniqueIndex('certificates_code_unique').on(table.verification_code),
    uniqueIndex('certificates_status_bit_unique').on(table.status_list_id, table.status_list_index),
    index('certificates_edition_idx').on(table.edition_id, table.issued_at),
    index('certificates_user_idx').on(table.user_id, table.issued_at),
    check('certificates_status_check', sql`${table.status} in ('valid', 'revoked')`),
  ],
);

/**
 * A certificate's PDF, rendered once per version and served from here afterwards (the PDF is a
 * document). `issued` is the certificate as issued; `revoked` carries the revoked mark. Rendered on
 * first request, not at issuance (an issuance run certifies hundreds of people a second; most PDFs
 * are never asked for). The primary key is the rule that makes concurrent first renders, in any
 * process, store one document: the others read it back.
 */
export const certificateDocuments = pgTable(
  'certificate_documents',
  {
    certificate_id: uuid('certificate_id')
      .notNull()
      .references(() => certificates.id, { onDelete: 'cascade' }),
    version: text('version', { enum: DOCUMENT_VERSIONS }).notNull(),
    pdf: bytea('pdf').notNull(),
    /** Strong ETag of `pdf` (SHA-256, base64url, 32 characters, quoted). */
    etag: text('etag').notNull(),
    created_at: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.certificate_id, table.version] }),
    check('certificate_documents_version_check', sql`${table.version} in ('issued', 'revoked')`),
  ],
);

/**
 * Issuance runs (`POST /editions/{edition_id}/certificates/issue`): the progress a person polls at
 * `GET /jobs/{id}`. The work itself is a background job (kernel/jobs) keyed by the run id, which
 * updates these counters in the same transaction as each batch of certificates it issues, so a
 * process killed mid-run leaves counters that match what was issued, and the next claim resumes.
 */
export const certificateIssuances = pgTable(
  'certificate_issuances',
  {
    id: uuid('id').primaryKey(),
    edition_id: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    /** The templates asked for; null = every live template of the edition at the time it runs. */
    template_ids: jsonb('template_ids').$type<string[] | null>(),
    requested_by: uuid('requested_by').notNull(),
    /** The language of the request that started the run: the holders' mails are written in it. */
    language: text('language', { enum: LANGUAGES }).notNull().default('en'),
    status: text('status', { enum: ISSUANCE_STATUSES }).notNull().default('queued'),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    issued: integer('issued').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    errors: integer('errors').notNull().default(0),
    last_error: text('last_error'),
    created_at: createdAt(),
    started_at: timestamptz('started_at'),
    finished_at: timestamptz('finished_at'),
    updated_at: updatedAt(),
  },
  (table) => [
    index('certificate_issuances_edition_idx').on(table.edition_id, table.created_at),
    check(
      'certificate_issuances_status_check',
      sql`${table.status} in ('queued', 'running', 'completed', 'failed')`,
    ),
  ],
);

export type CertificateRow = typeof certificates.$inferSelect;
export type CertificateIssuanceRow = typeof certificateIssuances.$inferSelect;
export type CertificateDocumentRow = typeof certificateDocuments.$inferSelect;
