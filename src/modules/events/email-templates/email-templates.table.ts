import { sql } from 'drizzle-orm';
import { check, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../../kernel/db/columns.ts';
import { EVENT_MAIL_KINDS, type EventMailKind } from '../../mail/index.ts';
import { events } from '../events/events.table.ts';

/**
 * An event's override of one kind of mail it sends to people. No row: the built-in default applies,
 * in the recipient's language (event-mails.defaults.ts). An override serves every language.
 */
export const eventEmailTemplates = pgTable(
  'event_email_templates',
  {
    event_id: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: EVENT_MAIL_KINDS }).notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    updated_by: uuid('updated_by').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (table) => [
    primaryKey({ name: 'event_email_templates_pk', columns: [table.event_id, table.kind] }),
    check(
      'event_email_templates_kind_check',
      sql`${table.kind} in ('signature_request', 'registration_confirmed', 'refund_issued', 'certificate_issued', 'event_invitation')`,
    ),
  ],
);

export type { EventMailKind };
