/**
 * Authentication as route configuration: `config: { auth: 'required' }` (a caller needed) or
 * `'optional'` (public route that shows more to members). The caller is a bearer token or, for
 * browsers, the session cookie of the identity module (docs/reference/sign-in.md), given here as a
 * port so the kernel imports no module; a bearer token, when sent, wins. The check runs in a
 * route-level `onRequest` hook, before the body is read, so an anonymous caller learns nothing about
 * validation or state. It is appended after the rate limiter's own route hook, so requests with
 * bad credentials are counted against the limit too.
 */
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { unauthorized } from '../http/errors.ts';
import { errorResponse, reasonsOf } from '../http/schemas.ts';
import { pickLanguage } from '../pages/language.ts';
import type { ActorDirectory } from './directory.ts';
import type { Identity } from './identity.ts';
import { assertSameOriginRequest, readCookie, type SessionPort } from './sessions-port.ts';
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

export interface AuthDeps {
  verifier: TokenVerifier;
  directory: ActorDirectory;
  /** Browser sessions (the identity module); without it only bearer tokens authenticate. */
  sessions?: SessionPort;
  /** PUBLIC_BASE_URL: cookie-authenticated writes must come from its origin. */
  publicBaseUrl: string;
}

export function registerAuth(app: FastifyInstance, deps: AuthDeps) {
  app.decorateRequest('actor', null);
  const publicOrigin = new URL(deps.publicBaseUrl).origin;
  const { sessions } = deps;

  /** The session cookie's person, or undefined (no cookie, or a session that has ended). */
  const fromCookie = async (request: FastifyRequest): Promise<Identity | undefined> => {
    if (sessions === undefined) return undefined;
    const value = readCookie(request.headers.cookie, sessions.cookieName);
    if (value === undefined) return undefined;
    const identity = await sessions.resolve(value);
    // Only a request the cookie really authenticates is held to the same-origin rule: an ended
    // session is no credential, so it is treated as no cookie at all.
    if (identity !== undefined) assertSameOriginRequest(request, publicOrigin);
    return identity;
  };

  const authenticate: onRequestAsyncHookHandler = async (request) => {
    const header = request.headers.authorization;
    let identity: Identity | undefined;
    if (header === undefined || header === '') {
      identity = await fromCookie(request);
      if (identity === undefined) {
        if (request.routeOptions.config.auth === 'required') {
          throw unauthorized('A bearer token or a signed-in session is required');
        }
        return;
      }
    } else {
      const token = BEARER.exec(header)?.[1];
      if (token === undefined) throw unauthorized('The Authorization header must be "Bearer <token>"');
      identity = await deps.verifier.verify(token);
    }
    // The same for both credentials: the directory's hooks (first sight of an e-mail) see every caller.
    await deps.directory.record(identity);
    request.actor = { ...identity, language: pickLanguage(request.headers['accept-language']) };
  };

  app.addHook('onRoute', (route) => {
    const mode = route.config?.auth;
    if (mode === undefined) return;
    if (route.schema !== undefined) {
      // Shown in the OpenAPI document; optional auth is "bearer or anonymous". The session cookie
      // is declared once, in the `cookieAuth` scheme, for every operation that takes bearerAuth.
      route.schema.security = mode === 'required' ? [{ bearerAuth: [] }] : [{ bearerAuth: [] }, {}];
      if (sessions !== undefined && [route.method].flat().some((method) => !SAFE.has(method))) {
        // A write can be refused for its origin (the cookie's cross-site check): its 403 says so. A
        // new object, since route schemas may share their `response`.
        const responses = (route.schema.response ?? {}) as Record<string, unknown>;
        const existing = responses[403] ?? responses['403'];
        const { 403: _old, '403': _text, ...rest } = responses;
        route.schema.response = {
          ...rest,
          403: errorResponse(403, undefined, [...reasonsOf(existing), 'csrf']),
        };
      }
    }
    const existing = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [...existing, authenticate];
  });
}

const SAFE = new Set(['GET', 'HEAD']);

/** The caller of a route with `auth: 'required'`. */
export function actorOf(request: FastifyRequest): Identity {
  if (request.actor === null) throw unauthorized('A bearer token or a signed-in session is required');
  return request.actor;
}
