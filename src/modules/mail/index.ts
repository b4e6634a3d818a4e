// PLACEHOLDER until the mail branch merges (the interface the events module codes against).
import type { Executor } from '../../kernel/db/client.ts';

export const MAIL_KINDS = [
  'signature_request',
  'registration_confirmed',
  'refund_issued',
  'certificate_issued',
  'event_invitation',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
export type MailLanguage = 'en' | 'pt-BR' | 'es';
export interface NewMail {
  kind: MailKind;
  to: string;
  language: MailLanguage;
  eventId: string | null;
  data: Record<string, unknown>;
}
export function queueMail(_tx: Executor, _mail: NewMail): Promise<{ id: string }> {
  throw new Error('not merged');
}
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  cid?: string;
}
export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  attachments: MailAttachment[];
}
export interface OutboxMail {
  id: string;
  kind: MailKind;
  to: string;
  language: MailLanguage;
  eventId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}
export type MailRenderer = (mail: OutboxMail) => Promise<RenderedMail>;
export interface Mailer {
  registerKind(kind: MailKind, render: MailRenderer): void;
  wake(): void;
}
