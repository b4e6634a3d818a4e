/** SQL of inbound provider notifications: the intent one names, and the record of each outcome. */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../../kernel/db/client.ts';
import { sellers } from '../../connections/connections.table.ts';
import { type IntentRow, intents } from '../../intents/intents.table.ts';
import type { Provider } from '../../wallets/wallets.table.ts';
import { type ProviderNotificationRow, providerNotifications } from './notifications.table.ts';

export type NewProviderNotification = typeof providerNotifications.$inferInsert;

/**
 * The intent of `provider` whose `provider_data.transaction_id` is `transactionId`, with its
 * seller's sealed credentials (null for test or revoked sellers). The expression is the one of
 * `intents_transaction_idx`. Should several intents carry the id, the newest is the one meant.
 */
export async function findIntentByTransaction(
  db: Executor,
  provider: Provider,
  transactionId: string,
): Promise<{ intent: IntentRow; credentials: string | null } | undefined> {
  const [row] = await db
    .select({ intent: intents, credentials: sellers.credentials })
    .from(intents)
    .innerJoin(sellers, eq(sellers.id, intents.seller_id))
    .where(
      and(
        eq(intents.provider, provider),
        sql`(${intents.provider_data} ->> 'transaction_id') = ${transactionId}`,
      ),
    )
    .orderBy(desc(intents.created_at), desc(intents.id))
    .limit(1);
  return row;
}

export async function insertNotification(
  db: Executor,
  values: NewProviderNotification,
): Promise<ProviderNotificationRow> {
  const [row] = await db.insert(providerNotifications).values(values).returning();
  return row!;
}
