/**
 * The console module's public surface (docs/console.md): its Fastify plugin, serving the organiser
 * console built from `web/console/`. It owns no table and calls no other module: the console
 * reaches the service through the documented API only, from the browser.
 */
import type { FastifyPluginAsync } from 'fastify';
import { consoleRoutes } from './console.routes.ts';

export const consoleModule: FastifyPluginAsync<{ buildDir?: string }> = async (app, options) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, module: 'console' };
  });
  await app.register(consoleRoutes, options);
};

export { CONSOLE_BUILD_DIR } from './console.files.ts';
