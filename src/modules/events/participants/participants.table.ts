import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { actors } from '../../../kernel/auth/actors.table.ts';
import { createdAt, timestamptz, updatedAt } from '../../../kernel/db/columns.ts';
import { programs } from '../programs/programs.table.ts';
import { registrations } from '../registrations/registrations.table.ts';

export const PARTICIPANT_STATUSES = ['active', 'cancelled'] as const;

/**
 * Sign-ups to programs (docs/reference/attendance.md): one row per program and person; cancelling keeps the
 * row (`cancelled`) and signing up again re-activates it. `max_participants` is held by locking the program
 * row while counting, so two last-seat sign-ups cannot both succeed.
 */
export const programParticipants = pgTable(
  'program_participants',
  {
    program_id: uuid('program_id')
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id')
      .notNull()
      .references(() => actors.user_id),
    /** The confirmed registration that admitted the sign-up; null for staff in a staff-only program. */
    registration_id: uuid('registration_id').references(() => registrations.id),
    status: text('status', { enum: PARTICIPANT_STATUSES }).notNull().default('active'),
    signed_up_at: timestamptz('signed_up_at').notNull().defaultNow(),
    cancelled_at: timestamptz('cancelled_at'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (table) => [
    primaryKey({ name: 'program_participants_pk', columns: [table.program_id, table.user_id] }),
    index('program_participants_user_idx').on(table.user_id),
    check('program_participants_status_check', sql`${table.status} in ('active', 'cancelled')`),
  ],
);

export type ProgramParticipantRow = typeof programParticipants.$inferSelect;
