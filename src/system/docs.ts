/**
 * The API reference: @fastify/swagger collects every route's schema into the OpenAPI 3.1 document,
 * @fastify/swagger-ui serves the page at /docs. The document's three URLs (/docs/openapi.json,
 * and the UI's own /docs/json and /docs/yaml) are served precomputed (see precomputed.ts).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../kernel/config.ts';
import { precomputed } from '../kernel/http/precomputed.ts';
import { VERSION } from '../version.ts';

export interface OpenApiDocuments {
  json: ReturnType<typeof precomputed>;
  yaml: ReturnType<typeof precomputed>;
}

/**
 * swagger-ui's static policy, minus what breaks or leaks off loopback: `upgrade-insecure-requests`
 * made a browser fetch every asset over HTTPS when the page was opened over plain HTTP at a LAN or
 * container address (a blank page), and `https:` / `validator.swagger.io` let it load third-party
 * fonts, styles and a validator badge. Everything the page needs is served by the service.
 */
export function docsPolicy(policy: string): string {
  return policy
    .split(';')
    .map((directive) =>
      directive
        .trim()
        .split(/\s+/)
        .filter((token) => token !== 'https:' && token !== 'validator.swagger.io')
        .join(' '),
    )
    .filter((directive) => directive !== '' && directive !== 'upgrade-insecure-requests')
    .join('; ');
}

export async function registerDocs(app: FastifyInstance, config: Config): Promise<OpenApiDocuments> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Convene API',
        version: VERSION,
        description:
          'Events, editions and payments behind one base URL. Every response is an envelope ' +
          '`{code, message, data | error, pagination?, timestamp, module}`.',
      },
      servers: [{ url: config.publicBaseUrl }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT (EdDSA)' } },
      },
      tags: [
        { name: 'system', description: 'Health, readiness, metrics and this document' },
        { name: 'events', description: 'Events, members, editions and everything an edition holds' },
        { name: 'projects', description: 'Projects, their members and e-mail templates' },
        { name: 'payments', description: 'Wallets, provider connections, intents and test mode' },
      ],
    },
  });

  const documents: OpenApiDocuments = {
    json: precomputed('application/json; charset=utf-8', () => JSON.stringify(app.swagger())),
    yaml: precomputed('application/x-yaml', () => app.swagger({ yaml: true })),
  };
  // swagger-ui's copies of the document serialize it on every request; they serve ours instead.
  app.addHook('onRoute', (route) => {
    if (route.url === '/docs/json') route.handler = documents.json;
    if (route.url === '/docs/yaml') route.handler = documents.yaml;
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    transformStaticCSP: docsPolicy,
    uiConfig: { url: '/docs/openapi.json', validatorUrl: null },
  });
  return documents;
}
