/**
 * The events module's public surface: its Fastify plugin. Other modules never import its
 * repositories or tables.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../kernel/config.ts';
import type { Database } from '../../kernel/db/client.ts';
import { editionRoutes } from './editions.routes.ts';
import { eventRoutes } from './events.routes.ts';

export interface ModuleDeps {
  db: Database;
  config: Config;
}

export const eventsModule: FastifyPluginAsync<ModuleDeps> = async (app, deps) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, module: 'events' };
  });
  await app.register(eventRoutes, deps);
  await app.register(editionRoutes, deps);
};
