/**
 * Event members (docs/reference/events.md), through the kernel's membership. Every add and removal takes the
 * event lock first, before the write whose foreign key check locks the event row too (see
 * lockEvent), and emits or revokes the member's staff badges of current published editions in the
 * same transaction.
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { membership } from '../../../kernel/membership/membership.service.ts';
import { requireEventRole } from '../access.ts';
import { emitStaffBadgesOnMemberAdded, revokeStaffBadgesOnMemberRemoved } from '../badges/badges.emission.ts';
import { lockEvent } from '../events/events.repository.ts';
import type { EventRole } from '../events/events.table.ts';
import { eventMembersRepository } from './members.repository.ts';
import type { AddMemberBody } from './members.schemas.ts';

const members = membership<EventRole>({
  repository: eventMembersRepository,
  requireRole: requireEventRole,
  listRole: 'staff',
  noun: 'event',
  around: (db, eventId, userId, change, write) =>
    db.transaction(async (tx) => {
      const lock = await lockEvent(tx, eventId);
      await write(tx);
      if (change === 'added') await emitStaffBadgesOnMemberAdded(tx, lock, userId);
      else await revokeStaffBadgesOnMemberRemoved(tx, lock, userId);
    }),
});

export const listMembers = (db: Database, eventId: string, actor: Identity, window: Window) =>
  members.list(db, eventId, actor, window);

export const addMember = (db: Database, eventId: string, actor: Identity, body: AddMemberBody) =>
  members.add(db, eventId, actor, body.email, body.role);

/** The member named by `email`; the path `user_id` is only cross-checked (400 when it names another). */
export const removeMember = (
  db: Database,
  eventId: string,
  pathUserId: string,
  actor: Identity,
  email: string,
) => members.remove(db, eventId, actor, email, pathUserId);
