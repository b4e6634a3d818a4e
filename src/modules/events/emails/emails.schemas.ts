/** Schemas of an event's mail log (docs/reference/mail.md): one source for validation, types and OpenAPI. */
import { type Static, Type } from 'typebox';
import { DateTime, Email, Nullable, PageQuery, Uuid } from '../../../kernel/http/schemas.ts';
import { EVENT_MAIL_KINDS, MAIL_STATUSES } from '../../mail/index.ts';

const MailKind = Type.Enum([...EVENT_MAIL_KINDS], {
  title: 'MailKind',
  description: 'what the mail is about',
});
const MailStatus = Type.Enum([...MAIL_STATUSES], {
  title: 'MailStatus',
  description: '`queued` (waiting to be sent, or retried), `sent` (the server accepted it), `failed`',
});

export const Mail = Type.Object(
  {
    id: Uuid(),
    kind: MailKind,
    to: Type.String({ description: 'the recipient' }),
    subject: Nullable(Type.String({ description: 'filled in once the mail was first rendered' })),
    status: MailStatus,
    attempts: Type.Integer({ description: 'attempts made to hand the mail to the mail server' }),
    last_error: Nullable(Type.String({ description: 'the last error met, kept once the mail is sent' })),
    created_at: DateTime(),
    sent_at: Nullable(DateTime()),
    resent_from: Nullable(Uuid({ description: 'the mail this one is a copy of (a resend)' })),
  },
  { title: 'Mail' },
);
export type Mail = Static<typeof Mail>;

export const MAIL_EXAMPLE: Mail = {
  id: '0193a0a0-7c1e-7c3a-9b1e-5f3c2d1e0a11',
  kind: 'registration_confirmed',
  to: 'ana@example.com',
  subject: 'You are registered for DevConf 2026',
  status: 'sent',
  attempts: 1,
  last_error: null,
  created_at: '2026-11-22T10:00:00.000Z',
  sent_at: '2026-11-22T10:00:01.000Z',
  resent_from: null,
};

export const MailLogQuery = Type.Object(
  {
    ...PageQuery,
    kind: Type.Optional(MailKind),
    status: Type.Optional(MailStatus),
    to: Type.Optional(Email({ description: 'only mail to this address (compared without case)' })),
  },
  { additionalProperties: false },
);
export type MailLogQuery = Static<typeof MailLogQuery>;
