import { jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../../kernel/db/columns.ts';
import { emails } from '../outbox/outbox.table.ts';

/** An attachment as the development mailbox keeps it: the bytes in base64. */
export interface KeptAttachment {
  filename: string;
  contentType: string;
  cid: string | null;
  base64: string;
}

/**
 * The development mailbox (docs/mail.md): without MAIL_URL outside production, a mail is rendered
 * as for sending and kept here instead, for `/dev/mail` to show.
 */
export const devMailbox = pgTable('dev_mailbox', {
  email_id: uuid('email_id')
    .primaryKey()
    .references(() => emails.id, { onDelete: 'cascade' }),
  sender: text('sender').notNull(),
  subject: text('subject').notNull(),
  html: text('html').notNull(),
  text: text('text').notNull(),
  attachments: jsonb('attachments').$type<KeptAttachment[]>().notNull().default([]),
  kept_at: timestamptz('kept_at').notNull().defaultNow(),
});

export type DevMailboxRow = typeof devMailbox.$inferSelect;
