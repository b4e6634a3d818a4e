/**
 * An event's mail log and resending (docs/reference/mail.md). The mail module keeps the outbox; the
 * access rules are the event's: owner and admin. A mail is no public resource: to a caller with no
 * role on its event it is unknown (404), to a member below admin forbidden (403).
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { forbidden, notFound } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import { findLogEntry, listEventMails, type Mailer, queueCopy } from '../../mail/index.ts';
import { isEventRole, requireEventRole, requireReadableEvent } from '../events/index.ts';
import type { MailLogQuery } from './emails.schemas.ts';

export async function listMails(
  db: Database,
  eventId: string,
  actor: Identity,
  query: MailLogQuery,
  window: Window,
) {
  await requireEventRole(db, eventId, actor, 'admin');
  const page = await listEventMails(
    db,
    eventId,
    { kind: query.kind, status: query.status, to: query.to },
    window,
  );
  return { ...page, items: page.items.map(serialize) };
}

/** Queues a copy of the mail (a new id and Message-ID) and wakes the sending. */
export async function resendMail(db: Database, mailer: Mailer, emailId: string, actor: Identity) {
  const mail = await findLogEntry(db, emailId);
  const access =
    mail?.event_id == null
      ? undefined
      : await requireReadableEvent(db, mail.event_id, actor).catch(() => undefined);
  if (access?.role === undefined) throw notFound('Mail');
  if (!isEventRole(access.role, 'admin')) throw forbidden();
  const copy = await db.transaction(async (tx) => queueCopy(tx, emailId));
  mailer.wake();
  const entry = copy === undefined ? undefined : await findLogEntry(db, copy.id);
  if (entry === undefined) throw notFound('Mail');
  const { event_id: _eventId, ...shown } = entry;
  return serialize(shown);
}
