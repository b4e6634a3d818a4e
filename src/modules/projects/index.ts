/**
 * The projects module's public surface: its Fastify plugin, and `renderEmail` for other modules
 * that will send mail (contract 6).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../kernel/config.ts';
import type { Database } from '../../kernel/db/client.ts';

export interface ModuleDeps {
  db: Database;
  config: Config;
}

export const projectsModule: FastifyPluginAsync<ModuleDeps> = async (app, _deps) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, module: 'projects' };
  });
  // Route plugins are registered here.
};
