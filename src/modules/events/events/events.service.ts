/** Events: creation (the caller becomes owner), reads with draft visibility, update, publish. */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { describeConstraint } from '../../../kernel/db/errors.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { conflict, notFound } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import { eventMembersRepository } from './event-members.repository.ts';
import { requireEventRole, requireReadableEvent } from './events.access.ts';
import * as repo from './events.repository.ts';
import type { CreateEventBody, UpdateEventBody } from './events.schemas.ts';

describeConstraint('events_slug_unique', {
  reason: 'slug_taken',
  field: 'slug',
  message: 'slug is already taken by another event',
});

export async function createEvent(db: Database, actor: Identity, body: CreateEventBody) {
  const event = await db.transaction(async (tx) => {
    const row = await repo.insertEvent(tx, { id: uuidv7(), ...body, owner_id: actor.userId });
    await eventMembersRepository.insert(tx, row.id, actor.userId, 'owner');
    return row;
  });
  return serialize(event);
}

export async function listPublishedEvents(db: Database, window: Window) {
  const page = await repo.listActiveEvents(db, window);
  return { ...page, items: page.items.map(serialize) };
}

export async function listMyEvents(db: Database, actor: Identity, window: Window) {
  const page = await repo.listEventsOfUser(db, actor.userId, window);
  return { ...page, items: page.items.map(({ event, role }) => ({ ...serialize(event), role })) };
}

export async function getPublishedEventBySlug(db: Database, slug: string) {
  const event = await repo.findEventBySlug(db, slug);
  if (event === undefined || event.status !== 'active') throw notFound('Event');
  return serialize(event);
}

export async function getEvent(db: Database, eventId: string, actor: Identity | null) {
  const { event } = await requireReadableEvent(db, eventId, actor);
  return serialize(event);
}

export async function updateEvent(db: Database, eventId: string, actor: Identity, body: UpdateEventBody) {
  await requireEventRole(db, eventId, actor, 'admin');
  return serialize(await repo.updateEvent(db, eventId, body));
}

export async function publishEvent(db: Database, eventId: string, actor: Identity) {
  const { event } = await requireEventRole(db, eventId, actor, 'admin');
  // Conditional update: of two concurrent publishes exactly one wins, the other gets the 409.
  const published = event.status === 'draft' ? await repo.activateDraftEvent(db, eventId) : undefined;
  if (published === undefined)
    throw conflict('already_published', 'Only a draft event can be published', { status: 'active' });
  return serialize(published);
}
