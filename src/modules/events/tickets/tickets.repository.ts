/** SQL of ticket types and their seat counters (the registrations' transitions move them). */
import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import { isTransaction, preparedQuery } from '../../../kernel/db/prepared.ts';
import { type TicketTypeRow, ticketTypes } from './tickets.table.ts';

export type NewTicketType = typeof ticketTypes.$inferInsert;

export async function insertTicketType(db: Executor, values: NewTicketType): Promise<TicketTypeRow> {
  const [row] = await db.insert(ticketTypes).values(values).returning();
  return row!;
}

function selectTicketType(db: Executor) {
  return db
    .select()
    .from(ticketTypes)
    .where(eq(ticketTypes.id, sql.placeholder('id')))
    .limit(1);
}

/** Every registration reads its ticket type first: prepared once, outside a transaction. */
const ticketTypeById = preparedQuery((db) => selectTicketType(db).prepare('ticket_type_by_id'));

export async function findTicketType(db: Executor, id: string): Promise<TicketTypeRow | undefined> {
  const query = isTransaction(db) ? selectTicketType(db) : ticketTypeById(db);
  const rows = await query.execute({ id });
  return rows[0];
}

export function listTicketTypes(db: Executor, editionId: string, window: Window) {
  const ofEdition = eq(ticketTypes.edition_id, editionId);
  return pageOf(
    window,
    db
      .select()
      .from(ticketTypes)
      .where(ofEdition)
      .orderBy(asc(ticketTypes.created_at), asc(ticketTypes.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(ticketTypes).where(ofEdition),
  );
}

/**
 * Takes one seat with a single conditional statement. Under concurrency the row lock serializes
 * the updates and PostgreSQL re-checks the condition against the committed count, so of two
 * requests for the last seat exactly one gets a row back; undefined means sold out. The seat
 * counters do not touch `updated_at`, which tracks changes to the ticket type itself.
 */
export async function takeSeat(db: Executor, ticketTypeId: string): Promise<TicketTypeRow | undefined> {
  const [row] = await db
    .update(ticketTypes)
    .set({ confirmed_count: sql`${ticketTypes.confirmed_count} + 1` })
    .where(and(eq(ticketTypes.id, ticketTypeId), hasFreeSeat))
    .returning();
  return row;
}

/** Seats held by unpaid checkouts count against the maximum as confirmed ones do (docs/reference/checkout.md). */
const hasFreeSeat = or(
  isNull(ticketTypes.max_quantity),
  lt(sql`${ticketTypes.confirmed_count} + ${ticketTypes.held_count}`, ticketTypes.max_quantity),
);

/** `takeSeat` for a checkout: holds one seat until it is paid or its hold ends. */
export async function holdSeat(db: Executor, ticketTypeId: string): Promise<TicketTypeRow | undefined> {
  const [row] = await db
    .update(ticketTypes)
    .set({ held_count: sql`${ticketTypes.held_count} + 1` })
    .where(and(eq(ticketTypes.id, ticketTypeId), hasFreeSeat))
    .returning();
  return row;
}

/** A held seat becomes a confirmed one (its payment succeeded in time). */
export async function confirmHeldSeat(db: Executor, ticketTypeId: string): Promise<void> {
  await db
    .update(ticketTypes)
    .set({
      held_count: sql`${ticketTypes.held_count} - 1`,
      confirmed_count: sql`${ticketTypes.confirmed_count} + 1`,
    })
    .where(eq(ticketTypes.id, ticketTypeId));
}

export async function releaseHeldSeat(db: Executor, ticketTypeId: string): Promise<void> {
  await db
    .update(ticketTypes)
    .set({ held_count: sql`${ticketTypes.held_count} - 1` })
    .where(eq(ticketTypes.id, ticketTypeId));
}

export async function releaseSeat(db: Executor, ticketTypeId: string): Promise<void> {
  await db
    .update(ticketTypes)
    .set({ confirmed_count: sql`${ticketTypes.confirmed_count} - 1` })
    .where(eq(ticketTypes.id, ticketTypeId));
}
