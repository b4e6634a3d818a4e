/**
 * Invitations to an event's team (docs/mail.md). Inviting writes the invitation and its
 * `event_invitation` mail in one transaction, and wakes the mail sender once it has committed. When
 * an actor is recorded (a bearer token or a sign-in, kernel/auth/directory.ts), each pending,
 * unexpired invitation of their e-mail becomes a membership, with the staff badges adding a member
 * gives, under the event lock like an add.
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database, Executor } from '../../../kernel/db/client.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { conflict, forbidden, notFound } from '../../../kernel/http/errors.ts';
import type { Page } from '../../../kernel/http/respond.ts';
import { type Mailer, queueMail } from '../../mail/index.ts';
import { eventMembersRepository, lockEvent, requireEventRole } from '../events/index.ts';
import type { MemberStaffBadges } from '../members/index.ts';
import * as repo from './invitations.repository.ts';
import type { CreateInvitationBody, Invitation, InvitationsQuery } from './invitations.schemas.ts';
import type { InvitationRow } from './invitations.table.ts';

const DAY_MS = 86_400_000;

function view(row: InvitationRow, now = Date.now()): Invitation {
  return {
    id: row.id,
    event_id: row.event_id,
    email: row.email,
    role: row.role,
    status: row.status === 'pending' && row.expires_at.getTime() <= now ? 'expired' : row.status,
    expires_at: row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
    ended_at: row.ended_at?.toISOString() ?? null,
  };
}

export async function invite(
  db: Database,
  mail: Pick<Mailer, 'wake'>,
  eventId: string,
  actor: Identity,
  body: CreateInvitationBody,
): Promise<Invitation> {
  // Authorization first (404 for outsiders of a draft, 403 for staff), as for adding a member.
  const { role: callerRole } = await requireEventRole(db, eventId, actor, 'admin');
  if (body.role === 'admin' && callerRole !== 'owner') throw forbidden('Only the owner may invite an admin');
  const member = await eventMembersRepository.findByEmail(db, eventId, body.email);
  if (member !== undefined) {
    throw conflict('already_member', 'This e-mail is already a member of the event', { role: member.role });
  }
  const row = await db.transaction(async (tx) => {
    const inserted = await repo.insertInvitation(tx, {
      id: uuidv7(),
      event_id: eventId,
      email: body.email,
      role: body.role,
      invited_by: actor.userId,
      expires_at: new Date(Date.now() + (body.expires_in_days ?? 7) * DAY_MS),
    });
    if (inserted === undefined) {
      throw conflict(
        'already_invited',
        'A pending invitation for this e-mail already exists; withdraw it first',
      );
    }
    await queueMail(tx, {
      kind: 'event_invitation',
      to: inserted.email,
      language: actor.language ?? 'en',
      eventId,
      data: { invitation_id: inserted.id },
    });
    return inserted;
  });
  mail.wake();
  return view(row);
}

export async function listInvitations(
  db: Database,
  eventId: string,
  actor: Identity,
  query: InvitationsQuery,
  window: Window,
): Promise<Page<Invitation>> {
  await requireEventRole(db, eventId, actor, 'admin');
  const page = await repo.listInvitations(db, eventId, query.status, window);
  const now = Date.now();
  return { ...page, items: page.items.map((row) => view(row, now)) };
}

export async function withdrawInvitation(
  db: Database,
  eventId: string,
  invitationId: string,
  actor: Identity,
) {
  await requireEventRole(db, eventId, actor, 'admin');
  const found = await repo.findInvitation(db, eventId, invitationId);
  if (found === undefined) throw notFound('Invitation');
  const ended = await repo.endInvitation(db, found.id, 'withdrawn', null);
  if (ended === undefined) {
    throw conflict('invitation_not_pending', `The invitation is already ${found.status}`, {
      status: found.status,
    });
  }
  return view(ended);
}

/** The invitation a mail is about (for its renderer), whatever its status now. */
export async function findInvitationForMail(db: Executor, eventId: string, invitationId: string) {
  return repo.findInvitation(db, eventId, invitationId);
}

/**
 * Accepts the pending, unexpired invitations of `identity`'s e-mail: each becomes a membership (or
 * stays accepted when they are a member already). Called when an actor is recorded; invitations a
 * concurrent recording holds are left to it (SKIP LOCKED).
 */
export async function acceptInvitations(
  db: Database,
  badges: MemberStaffBadges,
  identity: { userId: string; email: string },
): Promise<void> {
  // Most recorded actors have no invitation: one indexed read, no transaction, for them.
  if (!(await repo.hasOpenInvitation(db, identity.email))) return;
  await db.transaction(async (tx) => {
    for (const invitation of await repo.lockOpenInvitationsOf(tx, identity.email)) {
      const lock = await lockEvent(tx, invitation.event_id);
      if (await eventMembersRepository.insert(tx, invitation.event_id, identity.userId, invitation.role)) {
        await badges.onMemberAdded(tx, lock, identity.userId);
      }
      await repo.endInvitation(tx, invitation.id, 'accepted', identity.userId);
    }
  });
}
