/** SQL of events (their members: `event-members.repository.ts`). */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor, Transaction } from '../../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import { type EventRole, type EventRow, eventMembers, events } from './events.table.ts';

export type NewEvent = typeof events.$inferInsert;

declare const held: unique symbol;
/** What `lockEvent` answers: proof, for the functions that need it, that the event lock is held. */
export interface EventLock {
  readonly eventId: string;
  readonly [held]: true;
}

/**
 * The event lock: the event row, locked until the transaction ends. Every path that writes the
 * editions or members of an event (or the staff badges that follow from them) takes it before its
 * first write, so those paths run one at a time per event and all lock in the same order.
 *
 * `FOR NO KEY UPDATE`, not `FOR UPDATE`: it conflicts with itself, which is all the lock is for,
 * but not with the `FOR KEY SHARE` lock a foreign key check takes on the event row when a member
 * or an edition row is inserted. With `FOR UPDATE`, two transactions that had each inserted such a
 * row (each holding KEY SHARE) and then asked for the lock waited on each other: a deadlock, a 503.
 * Taking the lock first removes that order; the weaker mode also keeps any row inserted elsewhere
 * that references the event from waiting behind, or deadlocking with, a lock holder.
 */
export async function lockEvent(tx: Transaction, eventId: string): Promise<EventLock> {
  await tx.execute(sql`select 1 from ${events} where ${events.id} = ${eventId} for no key update`);
  return { eventId } as EventLock;
}
export type EventPatch = Partial<Omit<NewEvent, 'id' | 'owner_id' | 'created_at'>>;

export async function insertEvent(db: Executor, values: NewEvent): Promise<EventRow> {
  const [row] = await db.insert(events).values(values).returning();
  return row!;
}

export async function updateEvent(db: Executor, id: string, patch: EventPatch): Promise<EventRow> {
  const [row] = await db
    .update(events)
    .set({ ...patch, updated_at: sql`now()` })
    .where(eq(events.id, id))
    .returning();
  return row!;
}

export async function activateDraftEvent(db: Executor, id: string): Promise<EventRow | undefined> {
  const [row] = await db
    .update(events)
    .set({ status: 'active', updated_at: sql`now()` })
    .where(and(eq(events.id, id), eq(events.status, 'draft')))
    .returning();
  return row;
}

/** The event and the caller's role in it (undefined for non-members and anonymous callers). */
export async function findEventWithRole(
  db: Executor,
  eventId: string,
  userId: string | undefined,
): Promise<{ event: EventRow; role: EventRole | undefined } | undefined> {
  const rows = await db
    .select({ event: events, role: eventMembers.role })
    .from(events)
    .leftJoin(
      eventMembers,
      and(eq(eventMembers.event_id, events.id), eq(eventMembers.user_id, userId ?? sql`null::uuid`)),
    )
    .where(eq(events.id, eventId))
    .limit(1);
  const row = rows[0];
  return row === undefined ? undefined : { event: row.event, role: row.role ?? undefined };
}

export async function findEventBySlug(db: Executor, slug: string): Promise<EventRow | undefined> {
  const rows = await db.select().from(events).where(eq(events.slug, slug)).limit(1);
  return rows[0];
}

export function listActiveEvents(db: Executor, window: Window) {
  const active = eq(events.status, 'active');
  return pageOf(
    window,
    db
      .select()
      .from(events)
      .where(active)
      .orderBy(desc(events.created_at), desc(events.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(events).where(active),
  );
}

export function listEventsOfUser(db: Executor, userId: string, window: Window) {
  const mine = eq(eventMembers.user_id, userId);
  return pageOf(
    window,
    db
      .select({ event: events, role: eventMembers.role })
      .from(eventMembers)
      .innerJoin(events, eq(events.id, eventMembers.event_id))
      .where(mine)
      .orderBy(desc(events.created_at), desc(events.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(eventMembers).where(mine),
  );
}
