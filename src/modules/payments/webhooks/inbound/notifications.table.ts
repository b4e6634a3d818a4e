import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../../../kernel/db/columns.ts';

export const NOTIFICATION_OUTCOMES = ['applied', 'stale', 'ignored', 'unmatched', 'mismatch'] as const;

export type NotificationOutcome = (typeof NOTIFICATION_OUTCOMES)[number];

/**
 * Inbound provider notifications (docs/reference/webhooks.md, `POST /webhooks/{provider}`), as received:
 * `applied` (moved an intent; `event_id` names the event), `stale` (would have moved the intent
 * backwards: kept, intent unchanged), `ignored` (a type other than `payment`), `unmatched` (no
 * intent or payment known yet: kept for a later replay), `mismatch` (the payment's wallet, amount or
 * currency is not the intent's: nothing changed). Duplicates are not recorded.
 */
export const providerNotifications = pgTable(
  'provider_notifications',
  {
    id: uuid('id').primaryKey(),
    provider: text('provider').notNull(),
    type: text('type').notNull(),
    /** The provider's resource id (`data.id`: the payment id for `payment`). */
    resource_id: text('resource_id'),
    request_id: text('request_id'),
    outcome: text('outcome', { enum: NOTIFICATION_OUTCOMES }).notNull(),
    /** Why it was not applied, for a human reading it later. */
    reason: text('reason'),
    intent_id: uuid('intent_id'),
    event_id: uuid('event_id'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    created_at: createdAt(),
  },
  (table) => [
    index('provider_notifications_resource_idx').on(table.provider, table.resource_id, table.created_at),
    index('provider_notifications_outcome_idx').on(table.outcome, table.created_at),
  ],
);

export type ProviderNotificationRow = typeof providerNotifications.$inferSelect;
