/**
 * The edition's role guards, in the order of the event's (`events.access.ts`): unknown (or a draft
 * event the caller is not a member of) is 404, a missing role 403, and only then state (409).
 */

import type { Identity } from '../../../kernel/auth/identity.ts';
import { requireRole } from '../../../kernel/auth/roles.ts';
import type { Executor } from '../../../kernel/db/client.ts';
import { notFound } from '../../../kernel/http/errors.ts';
import { EVENT_ROLES, type EventRole, isEventRole } from '../events/index.ts';
import { findEditionWithAccess } from './editions.repository.ts';
import type { EditionRow } from './editions.table.ts';

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
