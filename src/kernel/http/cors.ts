/**
 * Documents any web page may read: what verifiers running in a browser fetch from another origin
 * (the issuer's DID document, credential status lists). Nothing else of the service is opened to
 * other origins; these carry no credentials and are public by nature.
 *
 * `anyOrigin` is an `onSend` hook for such a route, so every answer it gives carries the headers:
 * 200, HEAD (Fastify's HEAD route keeps the GET route's hooks), 304 and errors alike.
 * `Cross-Origin-Resource-Policy` is relaxed there too, from the service-wide `same-origin`.
 *
 * A simple GET needs no preflight; a script that adds a header of its own (`Cache-Control`, an
 * explicit `If-None-Match`) makes the browser ask first, so `anyOriginPreflight` answers `OPTIONS`
 * at the same path: any origin, `GET` and `HEAD`, any request header (`*`, which browsers honour
 * for requests without credentials, as these are), for a day. Its body is the usual envelope (with
 * no data): the service never answers 204.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { ok } from './respond.ts';
import { envelope, errorResponses, type ModuleName } from './schemas.ts';

const ANY_ORIGIN = Object.freeze({
  'access-control-allow-origin': '*',
  // A script may read the version it got, to ask with `If-None-Match` itself.
  'access-control-expose-headers': 'ETag',
  'cross-origin-resource-policy': 'cross-origin',
});

/** Route `onSend` hook: the answer may be read by a page of any origin. */
export function anyOrigin(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  reply.headers(ANY_ORIGIN);
  done(null, payload);
}

/**
 * `OPTIONS url`: the answer to a browser's preflight for a cross-origin GET of `url`, whose path
 * parameters (`params`, the GET route's schema) are validated as the GET's are.
 */
export function anyOriginPreflight(
  app: FastifyInstance,
  url: string,
  doc: { module: ModuleName; tags: string[]; operationId: string; what: string; params?: TSchema },
): void {
  app.options(
    url,
    {
      schema: {
        tags: doc.tags,
        operationId: doc.operationId,
        summary: `CORS preflight of ${doc.what}`,
        description:
          `Public. What a browser asks before a cross-origin GET of ${doc.what} that carries a header of its ` +
          'own: any origin may read it (`Access-Control-Allow-Origin: *`), with `GET` or `HEAD` and any request ' +
          'header, for a day (`Access-Control-Max-Age`). A plain GET needs no preflight.',
        ...(doc.params === undefined ? {} : { params: doc.params }),
        response: {
          200: envelope(Type.Object({}), {}, doc.module),
          ...(doc.params === undefined ? {} : errorResponses(400)),
        },
      },
    },
    async (request, reply) => {
      reply.headers({
        ...ANY_ORIGIN,
        'access-control-allow-methods': 'GET, HEAD',
        'access-control-allow-headers': '*',
        'access-control-max-age': '86400',
      });
      return ok(request, {});
    },
  );
}
