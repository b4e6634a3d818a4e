/**
 * What the route schemas do not say themselves, added once while @fastify/swagger builds the
 * document: the tags and their groups (one tag per feature, grouped by module), the empty
 * `security` of public operations, the error statuses every route can answer (400 everywhere, 413
 * and 415 wherever a body is read, 429 where the rate limit counts, 500 everywhere) with an
 * example per status in the route's module, a description on each success answer, and
 * `requestBody.required: false` where the body may be left out.
 * The runtime schemas are left as they are: this only shapes the document.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifySchema, RouteOptions } from 'fastify';
import { errorResponse, type ModuleName, reasonsOf } from '../kernel/http/schemas.ts';
import { shareComponents } from './openapi-components.ts';

interface TagGroup {
  module: ModuleName;
  name: string;
  tags: Array<{ name: string; description: string }>;
}

/** Every tag an operation may carry, grouped by module (shown as `x-tagGroups`). */
export const TAG_GROUPS: readonly TagGroup[] = [
  {
    module: 'events',
    name: 'Events',
    tags: [
      { name: 'Events', description: 'Events and their members' },
      { name: 'Editions', description: 'Editions of an event, found by id or by slugs' },
      { name: 'Programs', description: 'The schedule of an edition, and who signs up to each program' },
      {
        name: 'Tickets and registrations',
        description: 'Ticket types, registrations and their cancellation',
      },
      { name: 'Paid tickets', description: 'Selling tickets through a wallet, and refunds' },
      { name: 'Badges', description: 'Badge templates, emissions and printable badges' },
      { name: 'Check-ins', description: 'Scanning badges at the door, and attendance' },
      {
        name: 'Certification templates',
        description: 'What a certificate says, and which programs it covers',
      },
      { name: 'Certificates', description: 'Issued certificates, their verification and credentials' },
      { name: 'Jobs', description: 'The progress of background work an operation accepted (202)' },
      { name: 'Signatures', description: 'Signatures collected from signatories by token' },
      { name: 'Pages', description: 'The HTML pages people open (signing, badge, checkout)' },
      { name: 'Mail', description: 'The mail an event sends: its log, and resending one' },
    ],
  },
  {
    module: 'projects',
    name: 'Projects',
    tags: [
      { name: 'Projects', description: 'Projects and their members' },
      { name: 'E-mail templates', description: 'The e-mails a project sends, overriding the defaults' },
    ],
  },
  {
    module: 'payments',
    name: 'Payments',
    tags: [
      { name: 'Wallets', description: 'Wallets, their fee, sandbox flag, collector and sellers' },
      { name: 'Provider connections', description: 'OAuth connection to Mercado Pago' },
      { name: 'Intents', description: 'Payment intents, their cancellation and refunds' },
      { name: 'Test mode', description: 'Intents and sellers made up for tests, no provider contacted' },
      { name: 'Webhook endpoints', description: 'Where a wallet’s events are delivered, and test events' },
      { name: 'Webhook events', description: 'The normalized events a wallet’s endpoints receive' },
      {
        name: 'Webhook deliveries',
        description: 'Each delivery of an event to an endpoint, and its attempts',
      },
      { name: 'Provider notifications', description: 'Notifications the payment provider sends' },
    ],
  },
  {
    module: 'identity',
    name: 'Identity',
    tags: [
      { name: 'Sign-in', description: 'Browser sign-in through OpenID Connect, and the session cookie' },
    ],
  },
  {
    module: 'console',
    name: 'Console',
    tags: [
      { name: 'Console', description: 'The organiser console: its page and its script and style files' },
    ],
  },
  {
    module: 'system',
    name: 'System',
    tags: [
      { name: 'System', description: 'Health, readiness, metrics, this document and the pages’ assets' },
    ],
  },
];

const MODULE_OF_TAG = new Map(
  TAG_GROUPS.flatMap((group) => group.tags.map((tag) => [tag.name, group.module] as const)),
);

/** The document's `tags` and `x-tagGroups`. */
export const documentTags = () => ({
  tags: TAG_GROUPS.flatMap((group) => group.tags),
  'x-tagGroups': TAG_GROUPS.map((group) => ({ name: group.name, tags: group.tags.map((tag) => tag.name) })),
});

export type DocumentedSchema = FastifySchema & {
  hide?: boolean;
  tags?: readonly string[];
  security?: readonly unknown[];
  response?: Record<string, unknown>;
};

/** The schema a route is documented with (@fastify/swagger's `transform`). */
export function documentedSchema(
  schema: DocumentedSchema,
  route: Partial<Pick<RouteOptions, 'config' | 'method'>>,
): DocumentedSchema {
  if (schema.hide === true) return schema;
  const tag = schema.tags?.[0];
  const module = tag === undefined ? undefined : MODULE_OF_TAG.get(tag);
  if (module === undefined) throw new Error(`the tag ${tag} is in no group of system/openapi.ts`);
  const config = (route.config ?? {}) as { rateLimit?: unknown };
  // The route's own error envelopes, to be shown with their examples; other answers (the HTML of
  // an expired signing link) stay as written.
  const statuses = new Set(
    Object.entries(schema.response ?? {})
      .filter(([, response]) => isErrorEnvelope(response))
      .map(([status]) => Number(status)),
  );
  statuses.add(400); // every operation refuses a query parameter it does not know
  // Any method but GET and HEAD has its body read (and refused when too large or not JSON), with a
  // body schema or without one.
  const methods = [route.method ?? []].flat();
  if (schema.body !== undefined || methods.some((method) => method !== 'GET' && method !== 'HEAD')) {
    statuses.add(413);
    statuses.add(415);
  }
  if (config.rateLimit !== false) statuses.add(429);
  statuses.add(500);
  const errors = Object.fromEntries(
    [...statuses]
      .sort()
      .map((status) => [status, errorResponse(status, module, reasonsOf(schema.response?.[status]))]),
  );
  // A success answer without a description would be shown as "Default Response".
  const successes = Object.fromEntries(
    Object.entries(schema.response ?? {})
      .filter(([status]) => Number(status) < 400)
      .map(([status, response]) => [status, describedSuccess(Number(status), response)]),
  );
  return {
    ...schema,
    security: schema.security ?? [],
    response: { ...schema.response, ...successes, ...errors },
  };
}

function describedSuccess(status: number, response: unknown): unknown {
  const described = response as { description?: string };
  if (typeof response !== 'object' || response === null || described.description !== undefined) {
    return response;
  }
  return { ...response, description: STATUS_CODES[status] ?? 'Success' };
}

const isErrorEnvelope = (response: unknown) =>
  typeof response === 'object' &&
  response !== null &&
  'error' in ((response as { properties?: object }).properties ?? {});

interface Operation {
  operationId?: string;
  requestBody?: { required?: boolean };
}

/**
 * After the document is built: a route whose body may be left out entirely (`bodyOptional`) gets
 * `requestBody.required: false`, which @fastify/swagger always writes as true; then the repeated
 * schemas and error answers move to `components` (openapi-components.ts).
 */
export function finishDocument(
  document: { paths?: Record<string, Record<string, Operation>> } & Parameters<typeof shareComponents>[0],
  optionalBodies: ReadonlySet<string>,
): void {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      if (operation.requestBody !== undefined && optionalBodies.has(operation.operationId ?? '')) {
        operation.requestBody.required = false;
      }
    }
  }
  shareComponents(document);
}
