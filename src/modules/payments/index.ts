/** The payments module's public surface: its Fastify plugin (contract 7). */
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../kernel/config.ts';
import type { Database } from '../../kernel/db/client.ts';
import { connectionRoutes } from './connections.routes.ts';
import { endpointRoutes } from './endpoints.routes.ts';
import { intentRoutes } from './intents.routes.ts';
import { testModeRoutes } from './testmode.routes.ts';
import { walletRoutes } from './wallets.routes.ts';

export interface ModuleDeps {
  db: Database;
  config: Config;
}

export const paymentsModule: FastifyPluginAsync<ModuleDeps> = async (app, deps) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, module: 'payments' };
  });
  // Route plugins are registered here.
  await app.register(connectionRoutes, deps);
  await app.register(walletRoutes, deps);
  await app.register(intentRoutes, deps);
  await app.register(testModeRoutes, deps);
  await app.register(endpointRoutes, deps);
};
