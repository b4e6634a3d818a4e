/**
 * `GET /auth/session` and `POST /auth/sign-out` (docs/reference/sign-in.md): the browser session
 * itself, read and ended through its cookie only (a bearer token has no session), and the script
 * that sign-out buttons run.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  assertSameOriginRequest,
  readCookie,
  sessionCookieName,
} from '../../../kernel/auth/sessions-port.ts';
import { unauthorized } from '../../../kernel/http/errors.ts';
import { ok } from '../../../kernel/http/respond.ts';
import { envelope, errorResponses, withReasons } from '../../../kernel/http/schemas.ts';
import type { ModuleDeps } from '../../../kernel/module.ts';
import { serveAsset } from '../../../kernel/pages/assets.ts';
import { SESSION_EXAMPLE, SessionJson } from './sessions.schemas.ts';
import { clearedSessionCookie, endSession, findSession, SIGN_OUT_SCRIPT } from './sessions.service.ts';

const tags = ['Sign-in'];
const security = [{ cookieAuth: [] }];

export const sessionRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, deps) => {
  const { db, config } = deps;
  const cookieName = sessionCookieName(config.publicBaseUrl);
  const publicOrigin = new URL(config.publicBaseUrl).origin;
  const cookieOf = (request: FastifyRequest) => readCookie(request.headers.cookie, cookieName);

  app.get(
    '/auth/session',
    {
      schema: {
        tags,
        operationId: 'getSession',
        summary: 'The browser session',
        description:
          'Who the session cookie signs in, and until when. Only the cookie counts here (a bearer token has no ' +
          'session): without a live session (none, signed out, past its expiry or idle for 2 h) the answer is 401.',
        security,
        response: { 200: envelope(SessionJson, SESSION_EXAMPLE, 'identity'), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const value = cookieOf(request);
      const session = value === undefined ? undefined : await findSession(db, value);
      reply.header('cache-control', 'no-store');
      if (session === undefined) throw unauthorized('No signed-in session');
      return ok(request, {
        user_id: session.user_id,
        email: session.email,
        name: session.name,
        expires_at: session.expires_at.toISOString(),
      });
    },
  );

  app.post(
    '/auth/sign-out',
    {
      schema: {
        tags,
        operationId: 'signOut',
        summary: 'Sign out',
        description:
          'Ends the session of the cookie on the server (the cookie is worth nothing afterwards, even if kept) ' +
          'and clears the cookie; 303 to `/`. Like every write signed in by the cookie, it must carry `Origin` ' +
          '(or `Referer`) of this service and `X-Convene-CSRF: 1` (a sign-out button runs `/assets/sign-out.js`, ' +
          'which sends them), else 403. Without a live session, 401. No body.',
        security,
        response: {
          303: Type.Null({ description: 'to `/`; the cookie is cleared' }),
          ...errorResponses(400, 401, withReasons(403, 'csrf')),
        },
      },
    },
    async (request, reply) => {
      const value = cookieOf(request);
      const session = value === undefined ? undefined : await findSession(db, value);
      if (value === undefined || session === undefined) throw unauthorized('No signed-in session');
      assertSameOriginRequest(request, publicOrigin);
      await endSession(db, value);
      return reply.header('set-cookie', clearedSessionCookie(config)).redirect('/', 303);
    },
  );

  serveAsset(app, SIGN_OUT_SCRIPT, {
    tags,
    operationId: 'getSignOutScript',
    summary: 'The sign-out button’s script',
    description:
      'Makes a page’s `form[data-sign-out]` post to `POST /auth/sign-out` with `X-Convene-CSRF: 1` (plain JavaScript).',
  });
};
