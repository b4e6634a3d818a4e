/**
 * System routes (docs/reference/running.md, module `system`): liveness, readiness, Prometheus metrics and
 * the OpenAPI document. The probes and the scraper are never rate limited, so they are never
 * refused; the document is, like any other route (served from memory, but 800 KB a copy).
 */
import type { FastifyPluginAsync } from 'fastify';
import { type Static, Type } from 'typebox';
import type { DatabaseHandle } from '../kernel/db/client.ts';
import { AppError } from '../kernel/http/errors.ts';
import { ok } from '../kernel/http/respond.ts';
import { ErrorEnvelope, envelope } from '../kernel/http/schemas.ts';
import { serveAsset } from '../kernel/pages/assets.ts';
import { FAVICON_ASSET, ICON_SVG_ASSET } from '../kernel/pages/icon.ts';
import { STYLESHEET_ASSET } from '../kernel/pages/stylesheet.ts';
import { VERSION } from '../version.ts';
import type { OpenApiDocuments } from './docs.ts';

// Set on each route, not in the onRoute hook above: the rate-limit plugin reads it in its own
// onRoute hook, which runs first. Liveness and metrics are never shed under pressure either (a
// pressure handler that returns nothing lets the request through); readiness is, on purpose.
const config = { rateLimit: false } as const;
const unshed = { ...config, pressureHandler: () => undefined };

export const Status = Type.Object({ status: Type.String(), version: Type.String() }, { title: 'Status' });
export type Status = Static<typeof Status>;

export const systemRoutes: FastifyPluginAsync<{
  database: DatabaseHandle;
  documents: OpenApiDocuments;
}> = async (app, { database, documents }) => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, module: 'system' };
  });

  app.get(
    '/health',
    {
      config: unshed,
      schema: {
        tags: ['System'],
        operationId: 'getHealth',
        summary: 'Liveness',
        description: 'Answers 200 while the process runs. Does not touch the database.',
        response: { 200: envelope(Status, { status: 'ok', version: VERSION }, 'system') },
      },
    },
    async (request) => ok(request, { status: 'ok', version: VERSION }),
  );

  app.get(
    '/ready',
    {
      config,
      schema: {
        tags: ['System'],
        operationId: 'getReadiness',
        summary: 'Readiness',
        description: 'Answers 200 when the database answers a query, 503 `SERVICE_UNAVAILABLE` otherwise.',
        response: {
          200: envelope(Status, { status: 'ready', version: VERSION }, 'system'),
          503: ErrorEnvelope,
        },
      },
    },
    async (request) => {
      try {
        await database.ping();
      } catch (error) {
        throw new AppError('SERVICE_UNAVAILABLE', 'The database does not answer', { cause: error });
      }
      return ok(request, { status: 'ready', version: VERSION });
    },
  );

  app.get(
    '/metrics',
    {
      config: unshed,
      schema: {
        tags: ['System'],
        operationId: 'getMetrics',
        summary: 'Prometheus metrics',
        description:
          'Prometheus text exposition: request counts and durations per route, process metrics. ' +
          'Not an envelope. Bind it privately in production.',
        response: {
          // Only the 200 is text; its errors are the JSON envelope, like everywhere else.
          200: {
            description: 'Prometheus text format 0.0.4',
            content: {
              'text/plain': {
                schema: Type.String(),
                example: 'http_requests_total{method="GET",route="/health",status="200"} 3',
              },
            },
          },
        },
      },
    },
    async (_request, reply) => {
      reply.type(app.metrics.contentType);
      return app.metrics.metrics();
    },
  );

  app.get(
    '/docs/openapi.json',
    {
      schema: {
        tags: ['System'],
        operationId: 'getOpenApiDocument',
        summary: 'OpenAPI document',
        description:
          'The OpenAPI 3.1 document generated from the route schemas. Not an envelope. Compressed with ' +
          'brotli or gzip when `Accept-Encoding` allows; carries an `ETag` (`If-None-Match` gets a 304).',
        response: {
          200: Type.Object({}, { additionalProperties: true, examples: [{ openapi: '3.1.0' }] }),
          304: Type.Null({ description: 'Not modified: the `If-None-Match` ETag is current' }),
        },
      },
    },
    documents.json,
  );

  serveAsset(app, STYLESHEET_ASSET, {
    tags: ['System'],
    operationId: 'getPagesStylesheet',
    summary: "The pages' stylesheet",
    description:
      'The one stylesheet of the people-facing pages (docs/reference/pages.md), served here so that their Content ' +
      'Security Policy can forbid inline styles.',
  });

  serveAsset(app, ICON_SVG_ASSET, {
    tags: ['System'],
    operationId: 'getPagesIcon',
    summary: "The pages' icon (SVG)",
    description: 'The icon every people-facing page links (docs/reference/pages.md), as SVG.',
  });

  serveAsset(app, FAVICON_ASSET, {
    tags: ['System'],
    operationId: 'getFavicon',
    summary: 'The icon browsers ask for (`/favicon.ico`)',
    description:
      'The same icon as a 32×32 ICO, at the path browsers request by themselves (docs/reference/pages.md).',
  });
};
