/** Ticket types (docs/reference/tickets.md): their seats are counted by the registrations' transitions. */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { describeConstraint } from '../../../kernel/db/errors.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { validationError } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import { requireEditionRole, requireReadableEdition } from '../editions/index.ts';
import * as repo from './tickets.repository.ts';
import type { CreateTicketTypeBody } from './tickets.schemas.ts';
import type { TicketTypeRow } from './tickets.table.ts';

// The last line of defence of a counter that would pass its maximum (which the conditional seat
// update prevents).
describeConstraint('ticket_types_capacity_check', {
  reason: 'sold_out',
  message: 'This ticket type is sold out',
});

function toTicketType(row: TicketTypeRow) {
  return {
    ...serialize(row),
    remaining:
      row.max_quantity === null ? null : Math.max(0, row.max_quantity - row.confirmed_count - row.held_count),
  };
}

export async function createTicketType(
  db: Database,
  editionId: string,
  actor: Identity,
  body: CreateTicketTypeBody,
) {
  await requireEditionRole(db, editionId, actor, 'admin');
  if (body.price_cents > 0 && body.currency === undefined) {
    throw validationError([{ field: 'currency', message: 'is required when price_cents is above 0' }]);
  }
  const row = await repo.insertTicketType(db, {
    id: uuidv7(),
    edition_id: editionId,
    name: body.name,
    price_cents: body.price_cents,
    access_level: body.access_level,
    max_quantity: body.max_quantity ?? null,
    currency: body.currency ?? null,
  });
  return toTicketType(row);
}

/** Public when the edition is; members of the event see the ticket types of drafts too. */
export async function listTicketTypes(
  db: Database,
  editionId: string,
  actor: Identity | null,
  window: Window,
) {
  await requireReadableEdition(db, editionId, actor);
  const page = await repo.listTicketTypes(db, editionId, window);
  return { ...page, items: page.items.map(toTicketType) };
}
