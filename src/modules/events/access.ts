/**
 * Role guards of the events module. Order matters (docs/reference/auth.md): the resource is looked up
 * (404 when unknown), then the caller's role is checked (403), and only then does a service look
 * at state (409), so a caller without the role learns nothing about the resource's state.
 */

import type { Identity } from '../../kernel/auth/identity.ts';
import { hasRole, requireRole } from '../../kernel/auth/roles.ts';
import type { Executor } from '../../kernel/db/client.ts';
import { forbidden, notFound } from '../../kernel/http/errors.ts';
import { findEditionWithAccess } from './editions/editions.repository.ts';
import type { EditionRow } from './editions/editions.table.ts';
import { findEventWithRole } from './events/events.repository.ts';
import { EVENT_ROLES, type EventRole, type EventRow } from './events/events.table.ts';
import { findRegistrationWithAccess } from './registrations/registrations.repository.ts';
import type { RegistrationRow } from './registrations/registrations.table.ts';

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

export interface EditionAccess {
  edition: EditionRow;
  role: EventRole | undefined;
}

/**
 * The live edition and the caller's role in its event, for a caller holding `minimum`. Same order
 * as `requireEventRole`: unknown (or a draft event the caller is not a member of) is 404, a
 * missing role 403.
 */
export async function requireEditionRole(
  db: Executor,
  editionId: string,
  actor: Identity,
  minimum: EventRole,
): Promise<EditionAccess & { role: EventRole }> {
  const found = await findEditionWithAccess(db, editionId, actor.userId);
  if (found === undefined || (found.role === undefined && found.eventStatus !== 'active')) {
    throw notFound('Edition');
  }
  return { edition: found.edition, role: requireRole(EVENT_ROLES, found.role, minimum) };
}

/** Public when the edition and its event are published; members of the event see drafts (404 otherwise). */
export async function requireReadableEdition(
  db: Executor,
  editionId: string,
  actor: Identity | null,
): Promise<EditionAccess> {
  const found = await findEditionWithAccess(db, editionId, actor?.userId);
  const isPublic = found !== undefined && found.eventStatus === 'active' && !found.edition.is_draft;
  if (found === undefined || (!isPublic && !isEventRole(found.role, 'staff'))) throw notFound('Edition');
  return { edition: found.edition, role: found.role };
}

export interface RegistrationAccess {
  registration: RegistrationRow;
  /** The caller's role in the registration's event, if any. */
  role: EventRole | undefined;
  /** When the registration's edition starts. */
  editionStartsAt: Date;
}

/**
 * A registration, for its registrant (when `registrantMay`) or for a member holding `minimum`, with
 * the caller's role and its edition's start. As with the other guards, a registration of a draft
 * event is unknown (404) to anyone who is neither its registrant nor a member of the event; others
 * lacking the role get 403.
 */
export async function requireRegistrationAccessWithRole(
  db: Executor,
  registrationId: string,
  actor: Identity,
  minimum: EventRole,
  registrantMay: boolean,
): Promise<RegistrationAccess> {
  const found = await findRegistrationWithAccess(db, registrationId, actor.userId);
  const isRegistrant = found?.registration.user_id === actor.userId;
  if (found === undefined || (!isRegistrant && found.role === undefined && found.eventStatus !== 'active')) {
    throw notFound('Registration');
  }
  if (!(isRegistrant && registrantMay) && !isEventRole(found.role, minimum)) throw forbidden();
  return { registration: found.registration, role: found.role, editionStartsAt: found.startsAt };
}

/** `requireRegistrationAccessWithRole`'s registration alone. */
export async function requireRegistrationAccess(
  db: Executor,
  registrationId: string,
  actor: Identity,
  minimum: EventRole,
  registrantMay: boolean,
): Promise<RegistrationRow> {
  return (await requireRegistrationAccessWithRole(db, registrationId, actor, minimum, registrantMay))
    .registration;
}
