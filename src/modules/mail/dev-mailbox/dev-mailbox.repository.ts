/** SQL of the development mailbox (docs/mail.md): keeping a rendered mail, and reading them back. */
import { desc, eq } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { emails, type MailAttachment } from '../outbox/index.ts';
import { devMailbox } from './dev-mailbox.table.ts';

export interface KeptMessage {
  from: string;
  subject: string;
  html: string;
  text: string;
  attachments: MailAttachment[];
}

/** Keeps a mail's rendering (again, for a mail whose earlier keeping was not recorded as sent). */
export async function keepMessage(db: Executor, emailId: string, message: KeptMessage): Promise<void> {
  const row = {
    email_id: emailId,
    sender: message.from,
    subject: message.subject,
    html: message.html,
    text: message.text,
    attachments: message.attachments.map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.contentType,
      cid: attachment.cid ?? null,
      base64: attachment.content.toString('base64'),
    })),
  };
  await db.insert(devMailbox).values(row).onConflictDoUpdate({ target: devMailbox.email_id, set: row });
}

/** The newest kept mails, with what the outbox says of them. */
export function listKept(db: Executor, limit: number) {
  return db
    .select({
      id: emails.id,
      kind: emails.kind,
      to: emails.recipient,
      subject: devMailbox.subject,
      status: emails.status,
      kept_at: devMailbox.kept_at,
    })
    .from(devMailbox)
    .innerJoin(emails, eq(emails.id, devMailbox.email_id))
    .orderBy(desc(devMailbox.kept_at), desc(devMailbox.email_id))
    .limit(limit);
}

export async function findKept(db: Executor, emailId: string) {
  const [row] = await db
    .select({
      id: emails.id,
      kind: emails.kind,
      to: emails.recipient,
      message_id: emails.message_id,
      sender: devMailbox.sender,
      subject: devMailbox.subject,
      html: devMailbox.html,
      text: devMailbox.text,
      attachments: devMailbox.attachments,
      kept_at: devMailbox.kept_at,
    })
    .from(devMailbox)
    .innerJoin(emails, eq(emails.id, devMailbox.email_id))
    .where(eq(devMailbox.email_id, emailId));
  return row;
}

export type KeptMail = NonNullable<Awaited<ReturnType<typeof findKept>>>;
