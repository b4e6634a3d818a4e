/**
 * Authentication as route configuration: `config: { auth: 'required' }` (bearer token needed) or
 * `'optional'` (public route that shows more to members). Tokens are checked in `onRequest`,
 * before the body is read, so an anonymous caller learns nothing about validation or state.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '../http/errors.ts';
import type { ActorDirectory } from './directory.ts';
import type { Identity, TokenVerifier } from './verifier.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: 'required' | 'optional';
  }
  interface FastifyRequest {
    actor: Identity | null;
  }
}

export function registerAuth(
  app: FastifyInstance,
  deps: { verifier: TokenVerifier; directory: ActorDirectory },
) {
  app.decorateRequest('actor', null);

  app.addHook('onRoute', (route) => {
    if (route.config?.auth === undefined || route.schema === undefined) return;
    // Shown in the OpenAPI document; optional auth is "bearer or anonymous".
    route.schema.security =
      route.config.auth === 'required' ? [{ bearerAuth: [] }] : [{ bearerAuth: [] }, {}];
  });

  app.addHook('onRequest', async (request) => {
    const mode = request.routeOptions.config?.auth;
    if (mode === undefined) return;
    const header = request.headers.authorization;
    if (header === undefined || header === '') {
      if (mode === 'required') throw unauthorized('A bearer token is required');
      return;
    }
    const match = /^Bearer +([A-Za-z0-9_.~+/=-]+)$/i.exec(header);
    if (match?.[1] === undefined) throw unauthorized('The Authorization header must be "Bearer <token>"');
    const identity = await deps.verifier.verify(match[1]);
    await deps.directory.record(identity);
    request.actor = identity;
  });
}

/** The caller of a route with `auth: 'required'`. */
export function actorOf(request: FastifyRequest): Identity {
  if (request.actor === null) throw unauthorized('A bearer token is required');
  return request.actor;
}
