/** The stored normalized payment events of a wallet (docs/reference/webhooks.md), read by the wallet's owner. */
import type { Identity } from '../../../../kernel/auth/identity.ts';
import type { Database } from '../../../../kernel/db/client.ts';
import type { Window } from '../../../../kernel/db/paging.ts';
import { notFound } from '../../../../kernel/http/errors.ts';
import { serialize } from '../../../../kernel/http/respond.ts';
import { requireWalletOwner } from '../../access.ts';
import * as repo from './webhook-events.repository.ts';

export async function listEvents(
  db: Database,
  walletId: string,
  actor: Identity,
  filter: repo.EventFilter,
  window: Window,
) {
  await requireWalletOwner(db, walletId, actor);
  const page = await repo.listEventsOfWallet(db, walletId, filter, window);
  return { ...page, items: page.items.map(serialize) };
}

/** The event, if the caller owns its wallet; anyone else's is the 404 of an unknown id. */
export async function getEvent(db: Database, eventId: string, actor: Identity) {
  const event = await repo.findEventOfOwner(db, eventId, actor.userId);
  if (event === undefined) throw notFound('Event');
  return serialize(event);
}
