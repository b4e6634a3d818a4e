/** The payments module's public surface: its Fastify plugin (contract 7). */
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../kernel/config.ts';
import type { Database } from '../../kernel/db/client.ts';

export interface ModuleDeps {
  db: Database;
  config: Config;
}

export const paymentsModule: FastifyPluginAsync<ModuleDeps> = async (app, _deps) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, module: 'payments' };
  });
  // Route plugins are registered here.
};
