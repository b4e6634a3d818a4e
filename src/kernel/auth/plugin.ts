/**
 * Authentication as route configuration: `config: { auth: 'required' }` (bearer token needed) or
 * `'optional'` (public route that shows more to members). The token is checked in a route-level
 * `onRequest` hook, before the body is read, so an anonymous caller learns nothing about
 * validation or state. It is appended after the rate limiter's own route hook, so requests with
 * bad tokens are counted against the limit too.
 */
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { unauthorized } from '../http/errors.ts';
import { pickLanguage } from '../pages/language.ts';
import type { ActorDirectory } from './directory.ts';
import type { Identity } from './identity.ts';
import type { TokenVerifier } from './verifier.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: 'required' | 'optional';
  }
  interface FastifyRequest {
    actor: Identity | null;
  }
}

const BEARER = /^Bearer +([A-Za-z0-9_.~+/=-]+)$/i;

export function registerAuth(
  app: FastifyInstance,
  deps: { verifier: TokenVerifier; directory: ActorDirectory },
) {
  app.decorateRequest('actor', null);

  const authenticate: onRequestAsyncHookHandler = async (request) => {
    const header = request.headers.authorization;
    if (header === undefined || header === '') {
      if (request.routeOptions.config.auth === 'required') throw unauthorized('A bearer token is required');
      return;
    }
    const token = BEARER.exec(header)?.[1];
    if (token === undefined) throw unauthorized('The Authorization header must be "Bearer <token>"');
    const identity = await deps.verifier.verify(token);
    await deps.directory.record(identity);
    request.actor = { ...identity, language: pickLanguage(request.headers['accept-language']) };
  };

  app.addHook('onRoute', (route) => {
    const mode = route.config?.auth;
    if (mode === undefined) return;
    // Shown in the OpenAPI document; optional auth is "bearer or anonymous".
    if (route.schema !== undefined) {
      route.schema.security = mode === 'required' ? [{ bearerAuth: [] }] : [{ bearerAuth: [] }, {}];
    }
    const existing = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [...existing, authenticate];
  });
}

/** The caller of a route with `auth: 'required'`. */
export function actorOf(request: FastifyRequest): Identity {
  if (request.actor === null) throw unauthorized('A bearer token is required');
  return request.actor;
}
