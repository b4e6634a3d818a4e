/**
 * The projects module's public surface: its Fastify plugin, and `renderEmail` for other modules
 * that will send mail (docs/reference/projects.md).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleDeps } from '../../kernel/module.ts';
import type { Mailer } from '../mail/index.ts';
import { emailTemplateRoutes } from './email-templates/index.ts';
import { projectMemberRoutes } from './members/index.ts';
import { projectRoutes } from './projects/index.ts';

export interface ProjectsDeps extends ModuleDeps {
  /** The app's mail service (docs/mail.md), for the mail the projects will send. */
  mail: Mailer;
}

export const projectsModule: FastifyPluginAsync<ProjectsDeps> = async (app, deps) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, module: 'projects' };
  });
  // Route plugins are registered here.
  // Members after projects: the order of the routes (and of the OpenAPI paths) is unchanged.
  await app.register(projectRoutes, deps);
  await app.register(projectMemberRoutes, deps);
  await app.register(emailTemplateRoutes, deps);
};

export { renderEmail } from './email-templates/index.ts';
