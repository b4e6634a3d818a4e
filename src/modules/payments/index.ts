/** The payments module's public surface: its Fastify plugin (contract 7). */
import type { FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../../kernel/config.ts';
import type { Database, DatabaseHandle } from '../../kernel/db/client.ts';
import { connectionRoutes } from './connections.routes.ts';
import { deliveryRoutes } from './deliveries.routes.ts';
import { DeliveryWorker, openWorkerPool } from './delivery.worker.ts';
import { notifyWorkers } from './delivery-queue.repository.ts';
import { endpointRoutes } from './endpoints.routes.ts';
import { intentRoutes } from './intents.routes.ts';
import { notificationRoutes } from './notifications.routes.ts';
import { createOutbox, type Outbox } from './outbox.ts';
import { testModeRoutes } from './testmode.routes.ts';
import { walletRoutes } from './wallets.routes.ts';
import { webhookEventRoutes } from './webhook-events.routes.ts';

export interface ModuleDeps {
  db: Database;
  config: Config;
  /** Where writers of payment events wake the delivery workers. */
  outbox: Outbox;
}

export interface PaymentsModuleDeps {
  database: DatabaseHandle;
  config: Config;
  /** Run the webhook delivery worker in this process (started when the app is ready). */
  runWorker: boolean;
}

export const paymentsModule: FastifyPluginAsync<PaymentsModuleDeps> = async (
  app,
  { database, config, runWorker },
) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, module: 'payments' };
  });
  const db = database.db;
  // On a server, workers of other processes learn of new work by NOTIFY; embedded, there are none.
  const outbox = createOutbox(
    config.webhooks.retryScheduleSeconds,
    database.kind === 'postgres' ? () => notifyWorkers(db) : undefined,
  );
  const deps: ModuleDeps = { db, config, outbox };
  await app.register(connectionRoutes, deps);
  await app.register(walletRoutes, deps);
  await app.register(intentRoutes, deps);
  await app.register(testModeRoutes, deps);
  await app.register(endpointRoutes, deps);
  await app.register(webhookEventRoutes, deps);
  await app.register(deliveryRoutes, deps);
  await app.register(notificationRoutes, deps);

  if (runWorker) {
    const pool = openWorkerPool(database);
    const worker = new DeliveryWorker({
      db: pool.db,
      listen: database.listen,
      config,
      logger: app.log as Logger,
      registry: app.metrics,
      outbox,
    });
    app.addHook('onReady', () => worker.start());
    // Before the database closes (main.ts closes it after the app): attempts in flight finish.
    app.addHook('onClose', async () => {
      await worker.stop();
      await pool.close();
    });
  }
};
