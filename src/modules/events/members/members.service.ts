/**
 * Event members (docs/reference/events.md), through the kernel's membership. Every add and removal takes the
 * event lock first, before the write whose foreign key check locks the event row too (see
 * lockEvent), and emits or revokes the member's staff badges of current published editions in the
 * same transaction.
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database, Executor } from '../../../kernel/db/client.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { type MembershipConfig, membership } from '../../../kernel/membership/membership.service.ts';
import {
  type EventLock,
  type EventRole,
  eventMembersRepository,
  lockEvent,
  requireEventRole,
} from '../events/index.ts';
import type { AddMemberBody } from './members.schemas.ts';

/**
 * What adding or removing a member does to their staff badges. Badges sit above members (a badge
 * row points at registrations and ticket types), so the badges feature is given here as a port,
 * wired in the module's index.ts (`MembersContext`): routes built without it do not compile.
 */
export interface MemberStaffBadges {
  /** A member was just added: a staff badge for each published edition still to end. */
  onMemberAdded(tx: Executor, lock: EventLock, userId: string): Promise<void>;
  /** A member was just removed: their staff badges of editions still to end are revoked. */
  onMemberRemoved(tx: Executor, lock: EventLock, userId: string): Promise<void>;
}

const BASE: MembershipConfig<EventRole> = {
  repository: eventMembersRepository,
  requireRole: requireEventRole,
  listRole: 'staff',
  noun: 'event',
};

/** Listing writes nothing, so it needs no badges: its service is built once. */
const lister = membership<EventRole>(BASE);

const membersWith = (badges: MemberStaffBadges) =>
  membership<EventRole>({
    ...BASE,
    around: (db, eventId, userId, change, write) =>
      db.transaction(async (tx) => {
        const lock = await lockEvent(tx, eventId);
        await write(tx);
        if (change === 'added') await badges.onMemberAdded(tx, lock, userId);
        else await badges.onMemberRemoved(tx, lock, userId);
      }),
  });

export const listMembers = (db: Database, eventId: string, actor: Identity, window: Window) =>
  lister.list(db, eventId, actor, window);

export const addMember = (
  db: Database,
  badges: MemberStaffBadges,
  eventId: string,
  actor: Identity,
  body: AddMemberBody,
) => membersWith(badges).add(db, eventId, actor, body.email, body.role);

/** The member named by `email`; the path `user_id` is only cross-checked (400 when it names another). */
export const removeMember = (
  db: Database,
  badges: MemberStaffBadges,
  eventId: string,
  pathUserId: string,
  actor: Identity,
  email: string,
) => membersWith(badges).remove(db, eventId, actor, email, pathUserId);
