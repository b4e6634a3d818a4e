import { pgTable, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../../kernel/db/columns.ts';
import { events } from '../events/events.table.ts';

/**
 * Which wallet and seller sell an event's paid tickets (docs/reference/checkout.md). The wallet and the
 * seller belong to the payments module: they are named by id only, and checked through its port
 * (`kernel/payments-port.ts`) when the link is made and at every checkout.
 */
export const eventPaymentLinks = pgTable('event_payment_links', {
  event_id: uuid('event_id')
    .primaryKey()
    .references(() => events.id, { onDelete: 'cascade' }),
  wallet_id: uuid('wallet_id').notNull(),
  seller_id: uuid('seller_id').notNull(),
  created_by: uuid('created_by').notNull(),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export type PaymentLinkRow = typeof eventPaymentLinks.$inferSelect;
