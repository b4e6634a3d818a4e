import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from '../../../kernel/db/columns.ts';
import { intents } from './intents.table.ts';

export const REFUND_STATUSES = ['pending', 'settled'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * The refunds of intents, each written before the provider is asked (docs/decisions.md, "Refunds"). A
 * `pending` row is the reservation: at most one per intent (the partial unique index), so two
 * refunds of one intent never reach the provider together, and `intents.refunded_cents` grows
 * only when the provider's answer settles the row. The row is deleted again only when the provider
 * surely made no refund (it refused, or was never asked); while the outcome is unknown (a timeout,
 * a dropped connection, a 5xx) it stays pending and the resume job asks again.
 *
 * Who may ask the provider is fenced: `attempt_id` names the one attempt (the request, or a run of
 * the resume job) that holds the reservation, until `attempt_until`; another takes it over only
 * after that. `sends` counts the requests any attempt sent the provider, so an attempt that learnt
 * nothing releases the reservation only when no other attempt ever sent one.
 */
export const intentRefunds = pgTable(
  'intent_refunds',
  {
    id: uuid('id').primaryKey(),
    intent_id: uuid('intent_id')
      .notNull()
      .references(() => intents.id),
    /** What is asked while pending; once settled, what the provider answered it gave back. */
    amount_cents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /**
     * The provider's idempotency key: the intent, what was refunded before, the amount. Asking
     * again with it (after a crash or a lost answer) gets the same refund, never a second one.
     */
    provider_key: text('provider_key').notNull(),
    /** Why the events module asked for it (`registration_cancelled`, …); null for the wallet owner's. */
    reason: text('reason'),
    status: text('status', { enum: REFUND_STATUSES }).notNull(),
    /** The attempt that holds the reservation: only it asks the provider or releases it. */
    attempt_id: uuid('attempt_id'),
    /** Until when that attempt holds it (a provider call's deadline with room to spare). */
    attempt_until: timestamptz('attempt_until'),
    /** Requests sent to the provider for this refund, by any attempt. */
    sends: integer('sends').notNull().default(0),
    created_at: createdAt(),
    settled_at: timestamptz('settled_at'),
  },
  (table) => [
    uniqueIndex('intent_refunds_one_pending').on(table.intent_id).where(sql`${table.status} = 'pending'`),
    index('intent_refunds_intent_idx').on(table.intent_id, table.created_at),
    check('intent_refunds_amount_check', sql`${table.amount_cents} > 0`),
    check('intent_refunds_status_check', sql`${table.status} in ('pending', 'settled')`),
  ],
);

export type IntentRefundRow = typeof intentRefunds.$inferSelect;
