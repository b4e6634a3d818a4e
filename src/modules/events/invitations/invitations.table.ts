import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from '../../../kernel/db/columns.ts';
import { events } from '../events/events.table.ts';

export const INVITATION_STATUSES = ['pending', 'accepted', 'withdrawn'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];
export const INVITABLE_ROLES = ['admin', 'staff'] as const;

/**
 * Invitations to an event's team by e-mail (docs/mail.md): for someone who may never have called the
 * API. A pending, unexpired invitation becomes a membership when an actor with its e-mail is recorded
 * (a bearer token or a sign-in). At most one pending invitation per event and e-mail.
 */
export const eventInvitations = pgTable(
  'event_invitations',
  {
    id: uuid('id').primaryKey(),
    event_id: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: INVITABLE_ROLES }).notNull(),
    status: text('status', { enum: INVITATION_STATUSES }).notNull().default('pending'),
    invited_by: uuid('invited_by').notNull(),
    expires_at: timestamptz('expires_at').notNull(),
    created_at: createdAt(),
    /** When it was accepted or withdrawn. */
    ended_at: timestamptz('ended_at'),
    /** Who it became: the actor whose e-mail matched. */
    accepted_by: uuid('accepted_by'),
  },
  (table) => [
    uniqueIndex('event_invitations_pending_unique')
      .on(table.event_id, sql`lower(${table.email})`)
      .where(sql`${table.status} = 'pending'`),
    index('event_invitations_email_pending_idx')
      .on(sql`lower(${table.email})`)
      .where(sql`${table.status} = 'pending'`),
    index('event_invitations_event_idx').on(table.event_id, table.created_at),
    check('event_invitations_status_check', sql`${table.status} in ('pending', 'accepted', 'withdrawn')`),
    check('event_invitations_role_check', sql`${table.role} in ('admin', 'staff')`),
  ],
);

export type InvitationRow = typeof eventInvitations.$inferSelect;
