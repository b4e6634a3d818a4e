/** SQL of events and their members. */
import { and, desc, eq, sql } from 'drizzle-orm';
import { actors } from '../../kernel/auth/actors.table.ts';
import type { Executor, Transaction } from '../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../kernel/db/paging.ts';
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

// ---------- members ----------

const memberColumns = {
  user_id: eventMembers.user_id,
  email: actors.email,
  role: eventMembers.role,
  created_at: eventMembers.created_at,
};

export type MemberRow = { user_id: string; email: string; role: EventRole; created_at: Date };

export async function insertMember(
  db: Executor,
  values: { event_id: string; user_id: string; role: EventRole },
): Promise<void> {
  await db.insert(eventMembers).values(values);
}

export function listMembers(db: Executor, eventId: string, window: Window) {
  const ofEvent = eq(eventMembers.event_id, eventId);
  return pageOf<MemberRow>(
    window,
    db
      .select(memberColumns)
      .from(eventMembers)
      .innerJoin(actors, eq(actors.user_id, eventMembers.user_id))
      .where(ofEvent)
      // The owner first, then admins, then staff; within a role, by joining order.
      .orderBy(
        sql`case ${eventMembers.role} when 'owner' then 0 when 'admin' then 1 else 2 end`,
        eventMembers.created_at,
        eventMembers.user_id,
      )
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(eventMembers).where(ofEvent),
  );
}

export async function findMember(
  db: Executor,
  eventId: string,
  userId: string,
): Promise<MemberRow | undefined> {
  const rows = await db
    .select(memberColumns)
    .from(eventMembers)
    .innerJoin(actors, eq(actors.user_id, eventMembers.user_id))
    .where(and(eq(eventMembers.event_id, eventId), eq(eventMembers.user_id, userId)))
    .limit(1);
  return rows[0];
}

export async function findMemberByEmail(
  db: Executor,
  eventId: string,
  email: string,
): Promise<MemberRow | undefined> {
  const rows = await db
    .select(memberColumns)
    .from(eventMembers)
    .innerJoin(actors, eq(actors.user_id, eventMembers.user_id))
    .where(and(eq(eventMembers.event_id, eventId), sql`lower(${actors.email}) = lower(${email})`))
    .limit(1);
  return rows[0];
}

export async function deleteMember(db: Executor, eventId: string, userId: string): Promise<void> {
  await db
    .delete(eventMembers)
    .where(and(eq(eventMembers.event_id, eventId), eq(eventMembers.user_id, userId)));
}
