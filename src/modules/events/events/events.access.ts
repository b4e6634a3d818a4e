/**
 * The event's role guards. Order matters (docs/reference/auth.md): the resource is looked up (404
 * when unknown), then the caller's role is checked (403), and only then does a service look at
 * state (409), so a caller without the role learns nothing about the resource's state. The guards
 * of what an event holds build on these: `editions.access.ts`, `registrations.access.ts`.
 */

import type { Identity } from '../../../kernel/auth/identity.ts';
import { hasRole, requireRole } from '../../../kernel/auth/roles.ts';
import type { Executor } from '../../../kernel/db/client.ts';
import { notFound } from '../../../kernel/http/errors.ts';
import { findEventWithRole } from './events.repository.ts';
import { EVENT_ROLES, type EventRole, type EventRow } from './events.table.ts';

export interface EventAccess {
  event: EventRow;
  role: EventRole | undefined;
}

export async function requireEventRole(
  db: Executor,
  eventId: string,
  actor: Identity,
  minimum: EventRole,
): Promise<EventAccess & { role: EventRole }> {
  const found = await findEventWithRole(db, eventId, actor.userId);
  // A draft exists only for its members: to anyone else it is unknown (404), never forbidden (403),
  // so outsiders cannot probe for draft ids.
  if (found === undefined || (found.role === undefined && found.event.status !== 'active')) {
    throw notFound('Event');
  }
  return { event: found.event, role: requireRole(EVENT_ROLES, found.role, minimum) };
}

/** A published event is public; a draft exists only for its members (404 for everyone else). */
export async function requireReadableEvent(
  db: Executor,
  eventId: string,
  actor: Identity | null,
): Promise<EventAccess> {
  const found = await findEventWithRole(db, eventId, actor?.userId);
  if (found === undefined || (found.event.status !== 'active' && found.role === undefined)) {
    throw notFound('Event');
  }
  return found;
}

export const isEventRole = (role: EventRole | undefined, minimum: EventRole) =>
  hasRole(EVENT_ROLES, role, minimum);
