/** SQL of check-ins: record one (earliest scan wins), find by nonce, lists and attendance counts. */
import { and, desc, eq, sql } from 'drizzle-orm';
import { actors } from '../../../kernel/auth/actors.table.ts';
import type { Database, Executor } from '../../../kernel/db/client.ts';
import { findPgError } from '../../../kernel/db/errors.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import { preparedQuery } from '../../../kernel/db/prepared.ts';
import { queryRows } from '../../../kernel/db/raw.ts';
import { badgeEmissions } from '../badges/index.ts';
import { registrations } from '../registrations/index.ts';
import { ticketTypes } from '../tickets/index.ts';
import { type CheckInRow, checkIns } from './check-ins.table.ts';

export type NewCheckIn = Omit<typeof checkIns.$inferInsert, 'recorded_at'>;

export type RecordOutcome =
  | { kind: 'recorded'; row: CheckInRow }
  /** The badge was already checked in at this place; `row` holds the earliest scan. */
  | { kind: 'already'; row: CheckInRow }
  /** Another scan with this nonce was recorded first (a concurrent re-upload). */
  | { kind: 'nonce_taken' };

/** Whether the person's participant badge of the edition was ever checked in (at any place of it). */
export async function hasParticipantCheckIn(
  db: Executor,
  editionId: string,
  userId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: checkIns.id })
    .from(checkIns)
    .innerJoin(badgeEmissions, eq(badgeEmissions.id, checkIns.emission_id))
    .where(
      and(
        eq(checkIns.edition_id, editionId),
        eq(checkIns.user_id, userId),
        eq(badgeEmissions.origin, 'participant'),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The statement of `recordCheckIn`, prepared: it runs on every scan (see `findEmission`). */
const insertCheckIn = preparedQuery((db) =>
  db
    .insert(checkIns)
    .values({
      id: sql.placeholder('id'),
      edition_id: sql.placeholder('edition_id'),
      emission_id: sql.placeholder('emission_id'),
      user_id: sql.placeholder('user_id'),
      program_id: sql.placeholder('program_id'),
      checked_in_at: sql.placeholder('checked_in_at'),
      scanned_by: sql.placeholder('scanned_by'),
      nonce: sql.placeholder('nonce'),
    })
    .onConflictDoUpdate({
      target: [checkIns.emission_id, checkIns.program_id],
      set: { checked_in_at: sql`least(${checkIns.checked_in_at}, excluded.checked_in_at)` },
    })
    .returning()
    .prepare('record_check_in'),
);

/**
 * Records a check-in, one per badge and place. A second scan is not a new row: it only moves
 * `checked_in_at` earlier when an offline scanner uploads an older scan, so "first checked in" is
 * the first scan, whichever arrived first. A nonce already used by another row (two uploads of
 * one scan racing) is reported, not raised.
 */
export async function recordCheckIn(db: Database, values: NewCheckIn): Promise<RecordOutcome> {
  try {
    const [row] = await insertCheckIn(db).execute({
      ...values,
      program_id: values.program_id ?? null,
      nonce: values.nonce ?? null,
    });
    return { kind: row!.id === values.id ? 'recorded' : 'already', row: row! };
  } catch (error) {
    if (findPgError(error)?.constraint === 'check_ins_nonce_unique') return { kind: 'nonce_taken' };
    throw error;
  }
}

export async function findCheckInByNonce(
  db: Executor,
  editionId: string,
  nonce: string,
): Promise<CheckInRow | undefined> {
  const rows = await db
    .select()
    .from(checkIns)
    .where(and(eq(checkIns.edition_id, editionId), eq(checkIns.nonce, nonce)))
    .limit(1);
  return rows[0];
}

export interface CheckInView extends CheckInRow {
  holder_email: string;
  holder_name: string | null;
  origin: 'participant' | 'staff';
  ticket_name: string | null;
}

/** Check-ins of an edition, newest scan first, optionally of one program or one person. */
export function listCheckIns(
  db: Executor,
  editionId: string,
  filter: { programId?: string | undefined; userId?: string | undefined },
  window: Window,
) {
  const where = and(
    eq(checkIns.edition_id, editionId),
    filter.programId === undefined ? undefined : eq(checkIns.program_id, filter.programId),
    filter.userId === undefined ? undefined : eq(checkIns.user_id, filter.userId),
  );
  return pageOf<CheckInView>(
    window,
    db
      .select({
        id: checkIns.id,
        edition_id: checkIns.edition_id,
        emission_id: checkIns.emission_id,
        user_id: checkIns.user_id,
        program_id: checkIns.program_id,
        checked_in_at: checkIns.checked_in_at,
        recorded_at: checkIns.recorded_at,
        scanned_by: checkIns.scanned_by,
        nonce: checkIns.nonce,
        holder_email: actors.email,
        holder_name: actors.name,
        origin: badgeEmissions.origin,
        ticket_name: ticketTypes.name,
      })
      .from(checkIns)
      .innerJoin(actors, eq(actors.user_id, checkIns.user_id))
      .innerJoin(badgeEmissions, eq(badgeEmissions.id, checkIns.emission_id))
      .leftJoin(registrations, eq(registrations.id, badgeEmissions.registration_id))
      .leftJoin(ticketTypes, eq(ticketTypes.id, registrations.ticket_type_id))
      .where(where)
      .orderBy(desc(checkIns.checked_in_at), desc(checkIns.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(checkIns).where(where),
  );
}

export interface AttendanceRow {
  program_id: string | null;
  name: string | null;
  kind: string | null;
  max_participants: number | null;
  registered: number;
  checked_in: number;
}

/**
 * Attendance in one query: for the edition, confirmed registrations and the participant badges
 * checked in at the door; for each live program, its active sign-ups and the badges (participant
 * or staff) checked in there.
 */
export function attendanceOf(db: Executor, editionId: string): Promise<AttendanceRow[]> {
  // The edition's row first (is_program false), then the programs in the programs list's order.
  return queryRows<AttendanceRow>(
    db,
    sql`
      select null::uuid as program_id, null as name, null as kind, null::int as max_participants,
             (select count(*)::int from registrations r
               where r.edition_id = ${editionId} and r.status = 'confirmed') as registered,
             (select count(*)::int from check_ins c
                join badge_emissions b on b.id = c.emission_id and b.origin = 'participant'
               where c.edition_id = ${editionId} and c.program_id is null) as checked_in,
             false as is_program, null::timestamptz as starts_at, null::timestamptz as created_at
      union all
      select p.id, p.name, p.kind, p.max_participants,
             (select count(*)::int from program_participants pp
               where pp.program_id = p.id and pp.status = 'active'),
             (select count(*)::int from check_ins c where c.program_id = p.id),
             true, p.starts_at, p.created_at
        from programs p
       where p.edition_id = ${editionId} and p.deleted_at is null
      order by is_program, starts_at nulls last, created_at, program_id`,
  );
}
