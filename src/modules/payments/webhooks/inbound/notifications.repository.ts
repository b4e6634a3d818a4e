/** SQL of inbound provider notifications: the record of each outcome (the intent one names: `intents/`). */
import type { Executor } from '../../../../kernel/db/client.ts';
import { type ProviderNotificationRow, providerNotifications } from './notifications.table.ts';

export type NewProviderNotification = typeof providerNotifications.$inferInsert;

export async function insertNotification(
  db: Executor,
  values: NewProviderNotification,
): Promise<ProviderNotificationRow> {
  const [row] = await db.insert(providerNotifications).values(values).returning();
  return row!;
}
