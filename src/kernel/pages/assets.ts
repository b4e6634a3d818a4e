/**
 * The static files of the pages (docs/reference/pages.md): the stylesheet and the few scripts, served by the
 * service itself so that the pages' CSP can say `'self'` and forbid anything inline. A page links
 * an asset by `url`, which carries the content's hash, so a new version is never read from a
 * stale cache while the file itself may be cached for a day.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

export interface Asset {
  /** Where it is served. */
  path: string;
  /** What pages link: the path with its version. */
  url: string;
  type: string;
  /** Text, or the bytes of a binary file (the icon). */
  body: string | Buffer;
  etag: string;
}

export function asset(path: string, type: string, body: string | Buffer): Asset {
  const version = createHash('sha256').update(body).digest('base64url').slice(0, 16);
  return { path, url: `${path}?v=${version}`, type, body, etag: `"${version}"` };
}

/** A browser script kept as a file next to the page that uses it (plain JavaScript, no build). */
export function scriptAsset(path: string, file: URL): Asset {
  return asset(path, 'text/javascript; charset=utf-8', readFileSync(file, 'utf8'));
}

/**
 * The CSP of an image asset (the icon) instead of the API's: opened on its own, Chromium shows an
 * image in a document of its making whose inline styles `default-src 'none'` refuses, with a
 * console error each. Inline style is all it is allowed; the image carries no script.
 */
export const IMAGE_CSP =
  "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/** `GET <asset.path>`: the file, cacheable for a day, with its version as `ETag`. */
export function serveAsset(
  app: FastifyInstance,
  served: Asset,
  doc: { tags: string[]; operationId: string; summary: string; description: string },
): void {
  const mediaType = served.type.split(';')[0] ?? served.type;
  app.get(
    served.path,
    {
      config: { rateLimit: false },
      schema: {
        ...doc,
        description: `${doc.description} Not an envelope. Cacheable for a day; \`ETag\` names its version.`,
        querystring: Type.Object(
          {
            v: Type.Optional(Type.String({ maxLength: 64, description: 'the version pages link (ignored)' })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: {
            description: mediaType,
            content: {
              [mediaType]:
                typeof served.body === 'string'
                  ? { schema: Type.String(), example: served.body.slice(0, 60) }
                  : { schema: Type.String({ format: 'binary' }) },
            },
          },
          304: { description: 'not modified: the `If-None-Match` version is current', type: 'null' },
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'public, max-age=86400').header('etag', served.etag);
      if (served.type.startsWith('image/')) reply.header('content-security-policy', IMAGE_CSP);
      if (request.headers['if-none-match'] === served.etag) return reply.code(304).send();
      return reply.type(served.type).send(served.body);
    },
  );
}
