/** The payments module's public surface: its Fastify plugin (contract 7). */
import type { FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../../kernel/config.ts';
import type { Database, DatabaseHandle } from '../../kernel/db/client.ts';
import { connectionRoutes } from './connections.routes.ts';
import { deliveryRoutes } from './deliveries.routes.ts';
import { DeliveryWorker } from './delivery.worker.ts';
import { endpointRoutes } from './endpoints.routes.ts';
import { intentRoutes } from './intents.routes.ts';
import { notificationRoutes } from './notifications.routes.ts';
import { testModeRoutes } from './testmode.routes.ts';
import { walletRoutes } from './wallets.routes.ts';
import { webhookEventRoutes } from './webhook-events.routes.ts';

export interface ModuleDeps {
  db: Database;
  config: Config;
}

export interface PaymentsModuleDeps extends ModuleDeps {
  /** Set to run the webhook delivery worker in this process (started when the app is ready). */
  worker?: { listen: DatabaseHandle['listen'] } | undefined;
}

export const paymentsModule: FastifyPluginAsync<PaymentsModuleDeps> = async (app, { worker, ...deps }) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, module: 'payments' };
  });
  // Route plugins are registered here.
  await app.register(connectionRoutes, deps);
  await app.register(walletRoutes, deps);
  await app.register(intentRoutes, deps);
  await app.register(testModeRoutes, deps);
  await app.register(endpointRoutes, deps);
  await app.register(webhookEventRoutes, deps);
  await app.register(deliveryRoutes, deps);
  await app.register(notificationRoutes, deps);

  if (worker !== undefined) {
    const deliveries = new DeliveryWorker({
      db: deps.db,
      listen: worker.listen,
      config: deps.config,
      logger: app.log as Logger,
      registry: app.metrics,
    });
    app.addHook('onReady', () => deliveries.start());
    // Before the database closes (main.ts closes it after the app): attempts in flight finish.
    app.addHook('onClose', () => deliveries.stop());
  }
};
