/** The event_members table (events.table.ts), through the kernel's membership SQL: an event's owner is its first member. */
import { membershipRepository } from '../../../kernel/membership/membership.repository.ts';
import { type EventRole, eventMembers } from './events.table.ts';

export const eventMembersRepository = membershipRepository<EventRole>({
  table: eventMembers,
  parentId: eventMembers.event_id,
  userId: eventMembers.user_id,
  role: eventMembers.role,
  createdAt: eventMembers.created_at,
});
