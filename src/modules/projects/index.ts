/**
 * The projects module's public surface: its Fastify plugin, and `renderEmail` for other modules
 * that will send mail (docs/reference/projects.md).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleDeps } from '../../kernel/module.ts';
import { emailTemplateRoutes } from './email-templates/email-templates.routes.ts';
import { projectRoutes } from './projects/projects.routes.ts';

export const projectsModule: FastifyPluginAsync<ModuleDeps> = async (app, deps) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, module: 'projects' };
  });
  // Route plugins are registered here.
  await app.register(projectRoutes, deps);
  await app.register(emailTemplateRoutes, deps);
};

export { renderEmail } from './email-templates/email-templates.service.ts';
