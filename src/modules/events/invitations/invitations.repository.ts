/** SQL of event invitations. */
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import { eventInvitations, type InvitationRow, type InvitationStatus } from './invitations.table.ts';

/** Inserts a pending invitation; undefined when one is already pending for the e-mail. */
export async function insertInvitation(
  tx: Executor,
  values: typeof eventInvitations.$inferInsert,
): Promise<InvitationRow | undefined> {
  const rows = await tx.insert(eventInvitations).values(values).onConflictDoNothing().returning();
  return rows[0];
}

export function listInvitations(
  db: Executor,
  eventId: string,
  status: InvitationStatus | undefined,
  window: Window,
) {
  const where = and(
    eq(eventInvitations.event_id, eventId),
    status === undefined ? undefined : eq(eventInvitations.status, status),
  );
  return pageOf<InvitationRow>(
    window,
    db
      .select()
      .from(eventInvitations)
      .where(where)
      .orderBy(desc(eventInvitations.created_at), desc(eventInvitations.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(eventInvitations).where(where),
  );
}

export async function findInvitation(
  db: Executor,
  eventId: string,
  id: string,
): Promise<InvitationRow | undefined> {
  const rows = await db
    .select()
    .from(eventInvitations)
    .where(and(eq(eventInvitations.event_id, eventId), eq(eventInvitations.id, id)))
    .limit(1);
  return rows[0];
}

/** Moves a pending invitation to `status`; undefined when it was no longer pending. */
export async function endInvitation(
  tx: Executor,
  id: string,
  status: 'accepted' | 'withdrawn',
  acceptedBy: string | null,
): Promise<InvitationRow | undefined> {
  const rows = await tx
    .update(eventInvitations)
    .set({ status, ended_at: sql`now()`, accepted_by: acceptedBy })
    .where(and(eq(eventInvitations.id, id), eq(eventInvitations.status, 'pending')))
    .returning();
  return rows[0];
}

const isOpenFor = (email: string) =>
  and(
    sql`lower(${eventInvitations.email}) = lower(${email})`,
    eq(eventInvitations.status, 'pending'),
    gt(eventInvitations.expires_at, sql`now()`),
  );

/** Whether an e-mail has a pending, unexpired invitation (the partial index on pending e-mails). */
export async function hasOpenInvitation(db: Executor, email: string): Promise<boolean> {
  const rows = await db
    .select({ id: eventInvitations.id })
    .from(eventInvitations)
    .where(isOpenFor(email))
    .limit(1);
  return rows.length > 0;
}

/** The pending, unexpired invitations of an e-mail (any event), locked for their acceptance. */
export function lockOpenInvitationsOf(tx: Executor, email: string): Promise<InvitationRow[]> {
  return tx.select().from(eventInvitations).where(isOpenFor(email)).for('update', { skipLocked: true });
}
