/** The event_members table (events.table.ts), through the kernel's membership SQL: an event's owner is its first member. */
import { eq } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { membershipRepository } from '../../../kernel/membership/membership.repository.ts';
import { type EventRole, eventMembers } from './events.table.ts';

export const eventMembersRepository = membershipRepository<EventRole>({
  table: eventMembers,
  parentId: eventMembers.event_id,
  userId: eventMembers.user_id,
  role: eventMembers.role,
  createdAt: eventMembers.created_at,
});

/** Every member of the event (owner, admins, staff): who gets a staff badge when an edition is published. */
export async function listMemberIds(db: Executor, eventId: string): Promise<string[]> {
  const rows = await db
    .select({ user_id: eventMembers.user_id })
    .from(eventMembers)
    .where(eq(eventMembers.event_id, eventId));
  return rows.map((row) => row.user_id);
}
