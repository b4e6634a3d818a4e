/**
 * The identity module's public surface (docs/reference/sign-in.md): its Fastify plugin, the session
 * port app.ts gives the auth plugin (so every authenticated route takes the session cookie), and the
 * sign-out button for other modules' pages.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { IdentityDeps } from './deps.ts';
import { sessionRoutes } from './sessions/index.ts';
import { signInRoutes } from './sign-in/index.ts';

export const identityModule: FastifyPluginAsync<IdentityDeps> = async (app, deps) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, module: 'identity' };
  });
  await app.register(signInRoutes, deps);
  await app.register(sessionRoutes, deps);
};

export type { IdentityDeps } from './deps.ts';
export { createSessionPort, SIGN_OUT_SCRIPT } from './sessions/index.ts';
export { signOutForm } from './sign-in/index.ts';
