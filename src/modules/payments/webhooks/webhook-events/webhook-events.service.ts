/**
 * The stored normalized payment events of a wallet (docs/reference/webhooks.md), read by the
 * wallet's owner. The events are the intents' (`payment_events`, written by intents.transitions.ts
 * in the transaction of the change that caused them): their SQL is there too.
 */
import type { Identity } from '../../../../kernel/auth/identity.ts';
import type { Database } from '../../../../kernel/db/client.ts';
import type { Window } from '../../../../kernel/db/paging.ts';
import { notFound } from '../../../../kernel/http/errors.ts';
import { serialize } from '../../../../kernel/http/respond.ts';
import { type EventFilter, findEventOfOwner, listEventsOfWallet } from '../../intents/index.ts';
import { requireWalletOwner } from '../../wallets/index.ts';

export async function listEvents(
  db: Database,
  walletId: string,
  actor: Identity,
  filter: EventFilter,
  window: Window,
) {
  await requireWalletOwner(db, walletId, actor);
  const page = await listEventsOfWallet(db, walletId, filter, window);
  return { ...page, items: page.items.map(serialize) };
}

/** The event, if the caller owns its wallet; anyone else's is the 404 of an unknown id. */
export async function getEvent(db: Database, eventId: string, actor: Identity) {
  const event = await findEventOfOwner(db, eventId, actor.userId);
  if (event === undefined) throw notFound('Event');
  return serialize(event);
}
