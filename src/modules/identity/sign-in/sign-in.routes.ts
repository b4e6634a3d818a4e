/**
 * The sign-in routes (docs/reference/sign-in.md): `GET /auth/sign-in` (to the identity service, or the
 * development form), `GET /auth/callback` (the provider's answer) and `POST /auth/dev-sign-in` (the
 * development form's target). They answer pages and redirects, not the envelope, except for a bad
 * `return_to` and the refusals every route shares.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import {
  assertSameOriginRequest,
  readCookie,
  sessionCookieName,
} from '../../../kernel/auth/sessions-port.ts';
import { AppError, notFound } from '../../../kernel/http/errors.ts';
import { Email, errorResponses, withReasons } from '../../../kernel/http/schemas.ts';
import { pickLanguage } from '../../../kernel/pages/language.ts';
import { sendHtml } from '../../../kernel/pages/layout.ts';
import type { IdentityDeps } from '../deps.ts';
import { findSession, type StartedSession, sessionCookie } from '../sessions/index.ts';
import { OidcRelyingParty } from './oidc.ts';
import { parseReturnTo, RETURN_TO_MAX } from './return-to.ts';
import { devSignInPage, notConfiguredPage, signInFailedPage } from './sign-in.page.ts';
import { beginSignIn, devSignIn, finishSignIn } from './sign-in.service.ts';

const tags = ['Sign-in'];

const htmlPage = (description: string) => ({
  description,
  content: { 'text/html': { schema: Type.String(), example: '<!doctype html><html lang="en">…' } },
});

const ReturnTo = Type.String({
  maxLength: RETURN_TO_MAX,
  description:
    'where to land once signed in: a path of this service (one leading `/`; not `//`, no backslash, scheme, ' +
    'host or control character); default `/`',
  examples: ['/b/AbC123'],
});

export const signInRoutes: FastifyPluginAsyncTypebox<IdentityDeps> = async (app, deps) => {
  const { config, db } = deps;
  const { issuer, clientId, clientSecret } = config.oidc;
  const oidc =
    issuer === undefined || clientId === undefined
      ? undefined
      : new OidcRelyingParty({
          issuer,
          clientId,
          clientSecret,
          redirectUri: `${config.publicBaseUrl}/auth/callback`,
        });
  const devSignInOpen = oidc === undefined && !config.isProduction;
  const cookieName = sessionCookieName(config.publicBaseUrl);
  const publicOrigin = new URL(config.publicBaseUrl).origin;

  const startSessionAndGo = (
    reply: FastifyReply,
    session: StartedSession,
    returnTo: string,
    status: 302 | 303,
  ) =>
    reply
      .header('set-cookie', sessionCookie(config, session.id, config.sessionTtlHours * 3600))
      .header('cache-control', 'no-store')
      .redirect(returnTo, status);

  app.get(
    '/auth/sign-in',
    {
      schema: {
        tags,
        operationId: 'signIn',
        summary: 'Sign in (browser)',
        description:
          'Public. With `OIDC_ISSUER`: 302 to the identity service (authorization code flow with PKCE S256, a ' +
          'single-use `state` and `nonce` kept for 10 minutes), which sends the browser back to ' +
          '`/auth/callback`. Without it, in development: a page (HTML, in the language of `Accept-Language`) ' +
          'where one types an e-mail and a name and is signed in as that person; in production: a 503 page ' +
          'saying browser sign-in is not configured. A `return_to` that is not a path of this service is a 400.',
        querystring: Type.Object({ return_to: Type.Optional(ReturnTo) }, { additionalProperties: false }),
        response: {
          200: htmlPage('the development sign-in page (no `OIDC_ISSUER`, not production)'),
          302: Type.Null({ description: "to the identity service's authorization endpoint" }),
          503: htmlPage('browser sign-in is not configured (production without `OIDC_ISSUER`)'),
          ...errorResponses(400, 502),
        },
      },
    },
    async (request, reply) => {
      const returnTo = parseReturnTo(request.query.return_to);
      const language = pickLanguage(request.headers['accept-language']);
      if (oidc !== undefined) {
        let url: URL;
        try {
          url = await beginSignIn(deps, oidc, returnTo);
        } catch (error) {
          request.log.warn({ err: error }, 'the identity service could not be reached');
          throw new AppError('BAD_GATEWAY', 'The identity service could not be reached', { cause: error });
        }
        return reply.header('cache-control', 'no-store').redirect(url.href, 302);
      }
      if (!devSignInOpen) return sendHtml(reply, 503, language, notConfiguredPage(language));
      const cookie = readCookie(request.headers.cookie, cookieName);
      const session = cookie === undefined ? undefined : await findSession(db, cookie);
      return sendHtml(reply, 200, language, devSignInPage(language, returnTo, session));
    },
  );

  app.get(
    '/auth/callback',
    {
      schema: {
        tags,
        operationId: 'signInCallback',
        summary: 'Sign-in callback (browser)',
        description:
          'Where the identity service sends the browser back. The `state` is taken once (a replay finds nothing), ' +
          "the code is traded with the PKCE verifier, and the ID token is verified (signature by the issuer's " +
          'JWKS, `iss`, `aud`, `exp`, `nonce`); the person (`sub`, `email`, `name`) is recorded in the actor ' +
          'directory, a session starts (cookie `convene_session`) and the answer is 302 to `return_to`. A ' +
          'sign-in that fails starts no session and answers a page saying why, with a link to start again: ' +
          '400 for an unknown, used or expired `state`, an error from the provider or no e-mail; 401 for a ' +
          'token that does not verify. 404 when no identity service is configured. Any parameter the provider ' +
          'adds is accepted.',
        querystring: Type.Object(
          {
            code: Type.Optional(Type.String({ maxLength: 4096 })),
            state: Type.Optional(Type.String({ maxLength: 512 })),
            error: Type.Optional(Type.String({ maxLength: 512 })),
            error_description: Type.Optional(Type.String({ maxLength: 2048 })),
            iss: Type.Optional(Type.String({ maxLength: 2048 })),
          },
          { additionalProperties: true },
        ),
        response: {
          302: Type.Null({ description: 'to `return_to`, with the session cookie set' }),
          400: htmlPage('the sign-in failed: unknown, used or expired `state`, a provider error, no e-mail'),
          401: htmlPage('the sign-in failed: the ID token did not verify'),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      if (oidc === undefined || issuer === undefined) throw notFound('Sign-in callback');
      const language = pickLanguage(request.headers['accept-language']);
      const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const outcome = await finishSignIn(deps, oidc, issuer, request.query, rawQuery);
      if (outcome.ok) return startSessionAndGo(reply, outcome.session, outcome.returnTo, 302);
      request.log.warn({ failure: outcome.failure, detail: outcome.detail }, 'a sign-in failed');
      const status = outcome.failure === 'token' ? 401 : 400;
      return sendHtml(reply, status, language, signInFailedPage(language, outcome.failure, outcome.returnTo));
    },
  );

  // The development form posts `application/x-www-form-urlencoded` (this plugin's context only: the
  // API stays JSON); its fields become the body object the schema checks.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.post(
    '/auth/dev-sign-in',
    {
      schema: {
        tags,
        operationId: 'devSignIn',
        summary: 'Development sign-in (form)',
        description:
          'Development only (no `OIDC_ISSUER` and `NODE_ENV` not production; else 404): signs the browser in as ' +
          'the person the form names, with the user id `npm run token -- --email` gives that address, and ' +
          '303 to `return_to`. The form is posted from `/auth/sign-in` (`application/x-www-form-urlencoded` ' +
          'or JSON); it must come from this service (`Origin`, or `Referer`, of `PUBLIC_BASE_URL`), else 403.',
        body: Type.Object(
          {
            email: Email(),
            name: Type.Optional(Type.String({ maxLength: 200 })),
            return_to: Type.Optional(ReturnTo),
          },
          {
            additionalProperties: false,
            examples: [{ email: 'ana@example.com', name: 'Ana Souza', return_to: '/b/AbC123' }],
          },
        ),
        response: {
          303: Type.Null({ description: 'to `return_to`, with the session cookie set' }),
          ...errorResponses(400, withReasons(403, 'csrf'), 404),
        },
      },
    },
    async (request, reply) => {
      if (!devSignInOpen) throw notFound('Development sign-in');
      // A form cannot send X-Convene-CSRF; the origin alone keeps other sites from signing a browser in.
      assertSameOriginRequest(request, publicOrigin, { requireHeader: false });
      const returnTo = parseReturnTo(request.body.return_to, 'body.return_to');
      const session = await devSignIn(deps, request.body);
      return startSessionAndGo(reply, session, returnTo, 303);
    },
  );
};
