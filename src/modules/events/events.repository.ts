/** SQL of events and their members. */
import { and, desc, eq, sql } from 'drizzle-orm';
import { actors } from '../../kernel/auth/actors.table.ts';
import type { Executor } from '../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../kernel/db/paging.ts';
import { type EventRole, type EventRow, eventMembers, events } from './events.table.ts';

export type NewEvent = typeof events.$inferInsert;
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
