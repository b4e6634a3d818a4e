/**
 * The badge emission rules (docs/reference/tickets.md). Each function runs inside its caller's transaction,
 * so a badge is emitted or revoked together with the change that causes it, or not at all:
 *
 * (a) publishing an edition emits a staff badge to every member of the event;
 * (b) a member added while published editions of the event are current (not yet ended) gets a
 *     staff badge for each of them;
 * (c) a removed member's staff badges of current editions are revoked (`member_removed`);
 * (d) a confirmed registration emits the participant badge;
 * (e) cancelling it revokes that badge (`registration_cancelled`);
 * (f) emitting a badge that exists re-activates it and clears its reason (one row per edition,
 *     person and origin).
 *
 * (a), (b) and (c) need the event lock (`lockEvent`), which their callers take before their own
 * first write, as every edition and member write does: a member added at the moment an edition is
 * published is either seen by the publish or sees the edition published, never neither (each
 * statement reads what committed before it under READ COMMITTED). They take an `EventLock` so that
 * a caller cannot forget it; taking it here, after the caller's insert, is what deadlocked.
 */
import type { Executor } from '../../../kernel/db/client.ts';
import { listCurrentEditionIds, type PublishStaffBadges } from '../editions/index.ts';
import { type EventLock, listMemberIds } from '../events/index.ts';
import type { MemberStaffBadges } from '../members/index.ts';
import type { ParticipantBadges } from '../registrations/index.ts';
import * as repo from './badges.repository.ts';

/** (a) The edition was just published: every member of its event gets a staff badge. */
export async function emitStaffBadgesOnPublish(
  tx: Executor,
  lock: EventLock,
  editionId: string,
): Promise<void> {
  const members = await listMemberIds(tx, lock.eventId);
  await repo.upsertEmissions(
    tx,
    members.map((userId) => ({ edition_id: editionId, user_id: userId, origin: 'staff' as const })),
  );
}

/** (b) A member was just added: a staff badge for each published edition still to end. */
export async function emitStaffBadgesOnMemberAdded(
  tx: Executor,
  lock: EventLock,
  userId: string,
): Promise<void> {
  const editionIds = await listCurrentEditionIds(tx, lock.eventId, true);
  await repo.upsertEmissions(
    tx,
    editionIds.map((editionId) => ({ edition_id: editionId, user_id: userId, origin: 'staff' as const })),
  );
}

/**
 * (c) A member was just removed: their staff badges of editions still to end are revoked. Badges of
 * past editions stay: they record who staffed them.
 */
export async function revokeStaffBadgesOnMemberRemoved(
  tx: Executor,
  lock: EventLock,
  userId: string,
): Promise<void> {
  const editionIds = await listCurrentEditionIds(tx, lock.eventId, false);
  await repo.revokeEmissions(tx, { userId, origin: 'staff', editionIds }, 'member_removed');
}

/** (d) A registration was just confirmed: its holder's participant badge, pointing at it. */
export async function emitParticipantBadge(
  tx: Executor,
  registration: { id: string; edition_id: string; user_id: string },
): Promise<void> {
  await repo.upsertEmissions(tx, [
    {
      edition_id: registration.edition_id,
      user_id: registration.user_id,
      origin: 'participant',
      registration_id: registration.id,
    },
  ]);
}

/** (e) A registration was just cancelled or refunded: its holder's participant badge is revoked. */
export async function revokeParticipantBadge(
  tx: Executor,
  registration: { edition_id: string; user_id: string },
  reason: 'registration_cancelled' | 'refunded' = 'registration_cancelled',
): Promise<void> {
  await repo.revokeEmissions(
    tx,
    { userId: registration.user_id, origin: 'participant', editionIds: [registration.edition_id] },
    reason,
  );
}

/** (a) as the editions' port (`PublishStaffBadges`), wired in the module's index.ts. */
export const publishStaffBadges: PublishStaffBadges = { onPublished: emitStaffBadgesOnPublish };

/** (b) and (c) as the members' port (`MemberStaffBadges`), wired in the module's index.ts. */
export const memberStaffBadges: MemberStaffBadges = {
  onMemberAdded: emitStaffBadgesOnMemberAdded,
  onMemberRemoved: revokeStaffBadgesOnMemberRemoved,
};

/** (d) and (e) as the registration transitions' port (`ParticipantBadges`), wired in the module's index.ts. */
export const participantBadges: ParticipantBadges = {
  emit: emitParticipantBadge,
  revoke: revokeParticipantBadge,
};
