/**
 * Shared TypeBox building blocks. One schema per route drives Ajv validation, the TypeScript types
 * of the handler and the OpenAPI document, so these are the only place the envelope is described.
 */
import { type Static, type TSchema, Type } from 'typebox';
import type { ErrorCode, FieldError } from './errors.ts';
import { ERROR_REASONS, type ErrorReason } from './reasons.ts';

export type ModuleName = 'events' | 'projects' | 'payments' | 'identity' | 'console' | 'system';

/**
 * `Uuid()`, `DateTime()` and the other common strings below carry a title, so the OpenAPI document writes
 * each once under `components.schemas` (system/openapi-components.ts) rather than at each of their ~300 uses;
 * a description given here stays at the use, beside the reference.
 */
export const Uuid = (options: { description?: string } = {}) =>
  Type.String({
    title: 'Uuid',
    format: 'uuid',
    examples: ['01937a4e-8f2b-7c3d-9e4f-5a6b7c8d9e0f'],
    ...options,
  });

export const DateTime = (options: { description?: string } = {}) =>
  Type.String({ title: 'DateTime', format: 'date-time', examples: ['2026-11-22T10:00:00.000Z'], ...options });

/**
 * `T | null`. A schema with a single primitive `type` becomes `type: [T, 'null']` rather than
 * `anyOf`: the response serializer picks an `anyOf` branch by validating the value against each
 * one (format checks included, per field and per row), which the benchmark saw as a large share of
 * a list's CPU; a type array is a typeof check.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const {
    type,
    const: constant,
    enum: values,
  } = schema as { type?: unknown; const?: unknown; enum?: unknown };
  // A literal or an enum keeps `anyOf`: `const: "staff"` beside `type: [string, null]` refuses null.
  const isPlain = constant === undefined && values === undefined;
  if (isPlain && typeof type === 'string' && ['string', 'integer', 'number', 'boolean'].includes(type)) {
    // A nullable `Uuid()` is not the `Uuid` component, but `NullableUuid` (system/openapi-components.ts).
    const { title } = schema as { title?: string };
    return Type.Unsafe<Static<T> | null>({
      ...schema,
      type: [type, 'null'],
      ...(title === undefined ? {} : { title: `Nullable${title}` }),
    });
  }
  return Type.Union([schema, Type.Null()]);
}

/** An http(s) URL of reasonable length. */
export const HttpUrl = (options: { description?: string } = {}) =>
  Type.String({ title: 'HttpUrl', format: 'uri', pattern: '^https?://', maxLength: 2048, ...options });

export const Email = (options: { description?: string } = {}) =>
  Type.String({ title: 'Email', format: 'email', maxLength: 320, examples: ['ana@example.com'], ...options });

export const Slug = (options: { description?: string } = {}) =>
  Type.String({
    title: 'Slug',
    minLength: 2,
    maxLength: 64,
    pattern: '^[a-z0-9][a-z0-9-]*$',
    description: 'lower-case letters, digits and hyphens; starts with a letter or digit',
    ...options,
  });

/** A display name (of an event, edition, project, program, template). */
export const Name = (minLength = 2) => Type.String({ minLength, maxLength: 200 });
/** Free text of at most `maxLength` characters. */
export const Text = (maxLength: number) => Type.String({ maxLength });

/** `page` and `limit` of every list operation (docs/reference/errors.md). */
export const PageQuery = {
  page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'page number, from 1' }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'items per page, 1..100' }),
  ),
};
export const PageQuerySchema = Type.Object(PageQuery, { additionalProperties: false });
export type PageParams = { page?: number; limit?: number };

export const Pagination = Type.Object(
  {
    page: Type.Integer(),
    limit: Type.Integer(),
    total: Type.Integer(),
    has_next: Type.Boolean(),
    has_prev: Type.Boolean(),
    next_page: Nullable(Type.Integer()),
    prev_page: Nullable(Type.Integer()),
  },
  { title: 'Pagination' },
);
export type Pagination = Static<typeof Pagination>;

const head = {
  code: Type.Integer({ examples: [200] }),
  message: Type.String({ examples: ['OK'] }),
};
const tail = {
  timestamp: DateTime(),
  module: Type.Union(
    [
      Type.Literal('events'),
      Type.Literal('projects'),
      Type.Literal('payments'),
      Type.Literal('identity'),
      Type.Literal('console'),
      Type.Literal('system'),
    ],
    { title: 'Module' },
  ),
};

/** Success envelope around one object; `example` is the `data` shown in the OpenAPI document. */
export function envelope<T extends TSchema>(data: T, example: unknown, module: ModuleName, code = 200) {
  return Type.Object(
    { ...head, data, ...tail },
    {
      examples: [
        {
          code,
          message: code === 201 ? 'Created' : code === 202 ? 'Accepted' : 'OK',
          data: example,
          timestamp: EXAMPLE_TIME,
          module,
        },
      ],
    },
  );
}

/** Success envelope around a page of items. */
export function listEnvelope<T extends TSchema>(item: T, example: unknown, module: ModuleName) {
  return Type.Object(
    { ...head, data: Type.Array(item), pagination: Pagination, ...tail },
    {
      examples: [
        {
          code: 200,
          message: 'OK',
          data: [example],
          pagination: {
            page: 1,
            limit: 20,
            total: 1,
            has_next: false,
            has_prev: false,
            next_page: null,
            prev_page: null,
          },
          timestamp: EXAMPLE_TIME,
          module,
        },
      ],
    },
  );
}

export const EXAMPLE_TIME = '2026-11-22T10:00:00.000Z';

export const ErrorEnvelope = Type.Object(
  {
    code: Type.Integer({ minimum: 400, maximum: 599, description: 'the HTTP status' }),
    message: Type.String(),
    error: Type.Object(
      {
        code: Type.String({
          description: 'one of the closed list of error codes (docs/reference/errors.md)',
        }),
        message: Type.String(),
        reason: Type.Optional(
          Type.String({
            description:
              'a stable snake_case word telling apart the causes that share a code (docs/reference/errors.md, ' +
              '"Error reasons"); ' +
              'every 409 has one',
          }),
        ),
        fields: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
        meta: Type.Optional(Type.Object({}, { additionalProperties: true })),
        debug: Type.Optional(Type.Object({ raw_error: Type.String(), stack_trace: Type.String() })),
      },
      { title: 'ErrorDetail' },
    ),
    ...tail,
  },
  { description: 'Error envelope' },
);

/**
 * What each documented error status answers, as its example shows it: the code and a message the
 * service really gives. The 400 example is the field error every operation can answer: a query
 * parameter it does not know.
 */
const ERROR_EXAMPLES: Record<number, { code: ErrorCode; message: string; fields?: FieldError[] }> = {
  400: {
    code: 'VALIDATION_ERROR',
    message: 'The request is not valid',
    fields: [{ field: 'query.x', message: 'is not a known parameter' }],
  },
  401: { code: 'UNAUTHORIZED', message: 'A bearer token or a signed-in session is required' },
  403: { code: 'FORBIDDEN', message: 'You do not have the role this operation needs' },
  404: { code: 'NOT_FOUND', message: 'Not found' },
  409: { code: 'CONFLICT', message: 'The current state does not allow this operation' },
  413: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 1 MiB' },
  415: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body must be application/json' },
  422: {
    code: 'UNPROCESSABLE_ENTITY',
    message: 'This Idempotency-Key was used with a different request',
  },
  429: { code: 'TOO_MANY_REQUESTS', message: 'Rate limit of 1200 requests per minute exceeded' },
  500: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred' },
  502: { code: 'BAD_GATEWAY', message: 'The payment provider failed' },
  503: { code: 'SERVICE_UNAVAILABLE', message: 'The service is unavailable' },
};

/** The documented example of an error `status` answered by a route of `module`. */
export function errorExample(status: number, module: ModuleName, reason?: ErrorReason) {
  const example = ERROR_EXAMPLES[status];
  if (example === undefined) throw new Error(`no error example for status ${status}`);
  const { code, fields } = example;
  // With a reason, the example shows it with the words of its meaning (a message of that cause).
  const message = reason === undefined ? example.message : capitalized(ERROR_REASONS[reason]);
  return {
    code: status,
    message,
    error: {
      code: reason === undefined || status !== 400 ? code : 'BAD_REQUEST',
      message,
      ...(reason === undefined ? {} : { reason }),
      ...(fields === undefined || reason !== undefined ? {} : { fields }),
    },
    timestamp: EXAMPLE_TIME,
    module,
  };
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Path parameters object of UUID ids, e.g. `idParams('event_id', 'edition_id')`. */
export function idParams<K extends string>(...names: K[]) {
  const properties = Object.fromEntries(names.map((name) => [name, Uuid()])) as Record<
    K,
    ReturnType<typeof Uuid>
  >;
  return Type.Object(properties, { additionalProperties: false });
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed JSON, a field that fails its schema (`VALIDATION_ERROR` with `fields`) or a broken rule',
  401: 'No token, or a bad or expired one',
  403: 'Authenticated, but without the role this operation needs',
  404: 'Unknown resource (drafts are unknown to non-members)',
  409: 'A unique value is taken, or the state does not allow the operation',
  413: 'The body is larger than 1 MiB',
  415: 'The body is not JSON (`application/json`)',
  422: 'An `Idempotency-Key` reused with a different request',
  429: 'Too many requests from this address; `Retry-After` says when to try again',
  500: 'An unexpected error; the service logged it (nothing of it is shown in production)',
  502: 'The payment provider failed',
  503: 'Unavailable (test mode off, shutting down, database unreachable)',
};

/** An error status with the `error.reason`s a route can answer with it: `withReasons(409, 'sold_out')`. */
export interface ReasonedStatus {
  status: number;
  reasons: readonly ErrorReason[];
}

export const withReasons = (status: number, ...reasons: ErrorReason[]): ReasonedStatus => ({
  status,
  reasons,
});

/**
 * Error responses of a route, for the OpenAPI document (and serialization of those errors). Their
 * examples are added to the document by `system/openapi.ts`, which knows the route's module from
 * its tag. A status given `withReasons` documents its reasons (an `enum` on `error.reason`, and
 * each with its meaning in the description); a 409 always names some.
 */
export function errorResponses(...statuses: Array<number | ReasonedStatus>) {
  return Object.fromEntries(
    statuses.map((entry) =>
      typeof entry === 'number'
        ? [entry, errorResponse(entry)]
        : [entry.status, errorResponse(entry.status, undefined, entry.reasons)],
    ),
    // A listed reason narrows `error.reason` to an enum; the shape stays the envelope's.
  ) as unknown as Record<number, typeof ErrorEnvelope>;
}

/**
 * One error response: the envelope, the status's description and, given a module, its example;
 * given `reasons`, `error.reason` is one of them (and, on a 409, always present).
 */
export function errorResponse(status: number, module?: ModuleName, reasons: readonly ErrorReason[] = []) {
  const listed = [...new Set(reasons)].sort();
  const base = ERROR_DESCRIPTIONS[status] ?? 'Error';
  if (listed.length === 0) {
    return {
      ...ErrorEnvelope,
      description: base,
      ...(module === undefined ? {} : { examples: [errorExample(status, module, undefined)] }),
    };
  }
  const detail = ErrorEnvelope.properties.error;
  const error = {
    ...detail,
    properties: {
      ...detail.properties,
      reason: Type.String({ ...detail.properties.reason, enum: listed }),
    },
    required: status === 409 ? [...(detail.required ?? []), 'reason'] : detail.required,
  };
  return {
    ...ErrorEnvelope,
    properties: { ...ErrorEnvelope.properties, error },
    description: `${base}. \`error.reason\`:\n${listed.map((reason) => `- \`${reason}\`: ${ERROR_REASONS[reason]}`).join('\n')}`,
    ...(module === undefined ? {} : { examples: [errorExample(status, module, listed[0])] }),
  };
}

/** The `error.reason`s a route's error response lists (none when it lists none). */
export function reasonsOf(response: unknown): ErrorReason[] {
  const listed = (response as { properties?: { error?: { properties?: { reason?: { enum?: unknown } } } } })
    ?.properties?.error?.properties?.reason?.enum;
  return Array.isArray(listed) ? (listed as ErrorReason[]) : [];
}

/** A 200 whose body is a PDF document, not an envelope (printable badges, certificates). */
export function pdfResponse(description: string) {
  return {
    description,
    content: { 'application/pdf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
  };
}
