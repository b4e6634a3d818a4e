/**
 * The registration's guards, in the order of the event's (`events.access.ts`): a registration of a
 * draft event is unknown (404) to anyone who is neither its registrant nor a member of the event;
 * others lacking the role get 403.
 */

import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Executor } from '../../../kernel/db/client.ts';
import { forbidden, notFound } from '../../../kernel/http/errors.ts';
import { type EventRole, isEventRole } from '../events/index.ts';
import { findRegistrationWithAccess } from './registrations.repository.ts';
import type { RegistrationRow } from './registrations.table.ts';

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
