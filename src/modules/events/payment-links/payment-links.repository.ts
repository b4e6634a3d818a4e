/** SQL of event payment links (docs/reference/checkout.md). */
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { eventPaymentLinks, type PaymentLinkRow } from './payment-links.table.ts';

export async function findPaymentLink(db: Executor, eventId: string): Promise<PaymentLinkRow | undefined> {
  const [row] = await db
    .select()
    .from(eventPaymentLinks)
    .where(eq(eventPaymentLinks.event_id, eventId))
    .limit(1);
  return row;
}

/** Links the event, or replaces its link. */
export async function upsertPaymentLink(
  db: Executor,
  values: Pick<PaymentLinkRow, 'event_id' | 'wallet_id' | 'seller_id' | 'created_by'>,
): Promise<PaymentLinkRow> {
  const [row] = await db
    .insert(eventPaymentLinks)
    .values(values)
    .onConflictDoUpdate({
      target: eventPaymentLinks.event_id,
      set: { wallet_id: values.wallet_id, seller_id: values.seller_id, updated_at: sql`now()` },
    })
    .returning();
  return row!;
}

export async function deletePaymentLink(db: Executor, eventId: string): Promise<PaymentLinkRow | undefined> {
  const [row] = await db.delete(eventPaymentLinks).where(eq(eventPaymentLinks.event_id, eventId)).returning();
  return row;
}
