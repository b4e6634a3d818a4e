/**
 * The API reference: @fastify/swagger collects every route's schema into the OpenAPI 3.1 document
 * (finished by `openapi.ts`: tags, public security, error statuses and examples, the `webhooks`
 * section), and `/docs` shows it with Scalar's reference. The document's URLs
 * (`/docs/openapi.json`, `/docs/json`, `/docs/yaml`) are served precomputed (see precomputed.ts).
 *
 * Scalar's Fastify plugin is used for its bundled script (`/docs/js/scalar.js`): its own page
 * holds an inline script, which a strict policy would have to allow with a nonce fixed at start-up.
 * Ours passes the configuration in a data attribute of a JSON block instead, which the script
 * reads, so the page runs with `script-src 'self'` and nothing else.
 */
import swagger from '@fastify/swagger';
import scalar from '@scalar/fastify-api-reference';
import type { FastifyInstance, FastifyReply, RouteOptions } from 'fastify';
import { sessionCookieName } from '../kernel/auth/sessions-port.ts';
import type { Config } from '../kernel/config.ts';
import { precomputed } from '../kernel/http/precomputed.ts';
import { escapeHtml } from '../kernel/pages/html.ts';
import { VERSION } from '../version.ts';
import { type DocumentedSchema, documentedSchema, documentTags, finishDocument } from './openapi.ts';

export interface OpenApiDocuments {
  json: ReturnType<typeof precomputed>;
  yaml: ReturnType<typeof precomputed>;
}

export const DOCS_SCRIPT = '/docs/js/scalar.js';

/**
 * The reference page's policy. Scripts only from the service; styles may be inline because Scalar's
 * components write `<style>` elements at run time (they carry no user content); everything else
 * from the service only, and nothing third-party: no fonts, no telemetry, no hosted client. It
 * works over plain HTTP on any address (no `upgrade-insecure-requests`).
 */
export const DOCS_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Scalar's configuration: our document, curl as the first example (JavaScript's fetch and other
 * languages beside it), no third-party fonts, hosted client, agent or telemetry.
 */
const SCALAR_CONFIGURATION = {
  url: '/docs/openapi.json',
  title: 'Convene API',
  withDefaultFonts: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
  operationTitleSource: 'summary',
};

const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Convene API reference</title>
  </head>
  <body>
    <script id="api-reference" type="application/json" data-configuration="${escapeHtml(
      JSON.stringify(SCALAR_CONFIGURATION),
    )}"></script>
    <script src="${DOCS_SCRIPT}"></script>
  </body>
</html>
`;

function sendDocsPage(_request: unknown, reply: FastifyReply) {
  return reply
    .type('text/html; charset=utf-8')
    .header('content-security-policy', DOCS_POLICY)
    .header('cache-control', 'no-cache')
    .send(DOCS_PAGE);
}

export async function registerDocs(
  app: FastifyInstance,
  config: Config,
  webhooks: Record<string, object>,
): Promise<OpenApiDocuments> {
  // Operations whose body may be left out (`config.bodyOptional`), found while routes are documented.
  const optionalBodies = new Set<string>();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Convene API',
        version: VERSION,
        description:
          'Events, editions and payments behind one base URL. Every response is an envelope ' +
          '`{code, message, data | error, pagination?, timestamp, module}`. Authenticated operations ' +
          'take `Authorization: Bearer <JWT>`; webhooks are signed per the Standard Webhooks ' +
          'specification (see the `webhooks` section).',
        contact: { name: 'Convene', url: config.publicBaseUrl },
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: config.publicBaseUrl, description: 'this service' }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT (EdDSA)',
            description:
              'A JWT (EdDSA) signed by a key of `AUTH_JWKS_URL` or `AUTH_PUBLIC_KEYS`; in development, the key `npm run token` signs with',
          },
          // Not repeated as a second alternative on every operation (that doubled each `security`
          // list and outgrew the document's size bound): said here, once, for all of them.
          cookieAuth: {
            type: 'apiKey',
            in: 'cookie',
            name: sessionCookieName(config.publicBaseUrl),
            description:
              'The browser session of `GET /auth/sign-in` (docs/reference/sign-in.md). Every operation that takes ' +
              '`bearerAuth` takes this cookie too, with the same roles; a bearer token, when sent, wins. With ' +
              'the cookie, a method other than GET or HEAD must carry `Origin` (or `Referer`) of this service and ' +
              '`X-Convene-CSRF: 1`, else 403 `FORBIDDEN` with `error.reason` `csrf`.',
          },
        },
      },
      webhooks: webhooks as never,
      ...documentTags(),
    },
    transform: ({ schema, url, route }) => {
      const documented = documentedSchema(schema as DocumentedSchema, route as RouteOptions);
      const operationId = (schema as { operationId?: string }).operationId;
      if ((route as RouteOptions).config?.bodyOptional === true && operationId !== undefined) {
        optionalBodies.add(operationId);
      }
      return { schema: documented as typeof schema, url };
    },
    transformObject: (documentObject) => {
      // A copy: finishing moves shared schemas under `components` in place, and the document holds
      // the modules' schema objects themselves (the webhooks' payloads), which every app of the
      // process shares; changed, the next app's document would point at components it lacks.
      const document = structuredClone(
        (documentObject as { openapiObject: Parameters<typeof finishDocument>[0] }).openapiObject,
      );
      finishDocument(document, optionalBodies);
      return document as never;
    },
  });

  const documents: OpenApiDocuments = {
    json: precomputed('application/json; charset=utf-8', () => JSON.stringify(app.swagger())),
    yaml: precomputed('application/x-yaml', () => app.swagger({ yaml: true })),
  };
  // The plugin's page routes show ours (see above), and its copies of the document (at
  // /docs/json and /docs/yaml, where swagger-ui had them) serve the precomputed one instead of
  // converting it on every request.
  app.addHook('onRoute', (route) => {
    if (route.url === '/docs' || route.url === '/docs/') route.handler = sendDocsPage;
    if (route.url === '/docs/json') route.handler = documents.json;
    if (route.url === '/docs/yaml') route.handler = documents.yaml;
  });
  await app.register(scalar, {
    routePrefix: '/docs',
    openApiDocumentEndpoints: { json: '/json', yaml: '/yaml' },
    configuration: { url: '/docs/openapi.json' },
    logLevel: 'warn',
  });
  return documents;
}
