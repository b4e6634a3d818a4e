/**
 * Shares what the document repeats, once @fastify/swagger has written it: every operation's schemas
 * arrive inlined (131 operations made 1.9 MB, which the reference page took over 20 s to show under
 * load), so the finished document names the repeated parts under `components` and points at them
 * with `$ref` (ARCHITECTURE.md, `src/system/`, "The document's `components`").
 *
 * - A schema with a `title` (an annotation Ajv and the serializer ignore) becomes
 *   `components.schemas[title]`, wherever it appears: the resources (`Event`, `Edition`, `Wallet`, …),
 *   `Pagination`, `Module` and the common strings (`Uuid`, `DateTime`, …). The title is given where
 *   the TypeBox schema is written, so the route schemas stay the one source and Fastify validates
 *   and serializes with them as before: only the document changes.
 * - The success envelope's common fields become `Envelope`, each answer `allOf: [Envelope, {data}]`
 *   (shared as `Event.Envelope` where several answers use it).
 * - The error envelope becomes `ErrorEnvelope`. An error answer without `error.reason`s is the same
 *   for every operation of a module (its description and example depend on the status and module
 *   only), so it becomes `components.responses["events.NotFound"]` and the like. An answer with
 *   reasons narrows the envelope, `allOf: [ErrorEnvelope, {error: {reason: {enum}}}]`, and stays
 *   with its operation unless several write it alike.
 * - A parameter several operations write alike becomes `components.parameters[name]`.
 *
 * Every name must mean one thing: two different schemas with one title are refused at start-up
 * rather than one silently shown for the other.
 */
import { STATUS_CODES } from 'node:http';

type Json = Record<string, unknown>;

interface Document {
  paths?: Record<string, Record<string, { responses?: Record<string, Json> }>>;
  webhooks?: Record<string, unknown>;
  components?: {
    schemas?: Record<string, unknown>;
    responses?: Record<string, unknown>;
    parameters?: Record<string, unknown>;
  };
}

const ERROR_ENVELOPE = 'ErrorEnvelope';
/** The title of the envelope's `error` (kernel/http/schemas.ts). */
const ERROR_DETAIL = 'ErrorDetail';
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Shares the document's repeated schemas and error answers (see above); changes it in place. */
export function shareComponents(document: Document): void {
  document.components ??= {};
  const components = document.components;
  const schemas: Record<string, unknown> = {};
  const responses: Record<string, unknown> = {};
  // 1. The error answers first: the envelope is recognized by its shape, before any part of it is
  //    replaced by a reference.
  for (const operation of operations(document)) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (Number(status) < 400) continue;
      const shared = sharedErrorResponse(Number(status), response, schemas, responses);
      if (shared !== undefined) operation.responses![status] = shared;
    }
  }
  // (and those several operations write alike, with their reasons, under one name too)
  shareRepeatedReasons(document, responses);
  // 2. The titled schemas, wherever they are (operations, webhooks, the error envelope).
  hoistTitled(document.paths, schemas);
  hoistTitled(document.webhooks, schemas);
  for (const schema of Object.values(schemas)) hoistTitled(schema, schemas, false);
  if (schemas[ERROR_ENVELOPE] !== undefined && schemas[ERROR_DETAIL] === undefined) {
    throw new Error(`the error envelope's \`error\` is not titled ${ERROR_DETAIL} (kernel/http/schemas.ts)`);
  }
  // 3. The success envelopes, whose `module` is by now a reference like the error envelope's.
  for (const operation of operations(document)) {
    for (const response of Object.values(operation.responses ?? {})) {
      const media = (response.content as Record<string, Json> | undefined)?.['application/json'];
      if (media !== undefined) media.schema = sharedSuccessSchema(media.schema as Json, schemas);
    }
  }
  // (and the success answers several operations write alike, now that their schemas are short)
  shareRepeatedSuccesses(document, responses);
  shareRepeatedEnvelopes(document, schemas, responses);
  shareWebhookResponses(document, responses);
  // 4. The parameters many operations repeat (ids in paths, `page`, `limit`, `Idempotency-Key`).
  const parameters = shareParameters(document);
  components.schemas = { ...components.schemas, ...sorted(schemas) };
  components.responses = { ...components.responses, ...sorted(responses) };
  if (Object.keys(parameters).length > 0) components.parameters = sorted(parameters);
}

function* operations(document: Document) {
  for (const item of Object.values(document.paths ?? {})) yield* Object.values(item);
}

type Operation = { responses?: Record<string, Json>; parameters?: unknown[] };

function* allOperations(document: Document): Generator<Operation> {
  yield* operations(document);
  for (const item of Object.values(document.webhooks ?? {}))
    yield* Object.values(item as Record<string, Operation>);
}

/**
 * What a receiver may answer a webhook (2XX, 4XX, 410) is the same for every event type: each
 * answer all the webhooks write alike is written once, as `Webhook.<status>`.
 */
function shareWebhookResponses(document: Document, responses: Record<string, unknown>): void {
  const webhooks = Object.values(document.webhooks ?? {}).flatMap((item) =>
    Object.values(item as Record<string, Operation>),
  );
  const [first] = webhooks;
  if (first === undefined || webhooks.length < 2) return;
  for (const [status, response] of Object.entries(first.responses ?? {})) {
    const form = JSON.stringify(response);
    if (!webhooks.every((webhook) => JSON.stringify(webhook.responses?.[status]) === form)) continue;
    const name = `Webhook.${status}`;
    responses[name] = response;
    for (const webhook of webhooks) webhook.responses![status] = { $ref: `#/components/responses/${name}` };
  }
}

const ENVELOPE = 'Envelope';
const ENVELOPE_FIELDS = ['code', 'message', 'timestamp', 'module'];

/**
 * A success envelope (envelope() and listEnvelope() of kernel/http/schemas.ts) as
 * `allOf: [Envelope, {data}]`: the fields every answer has are written once, in `Envelope`. A schema
 * of another shape, or whose common fields differ from the first envelope's, is left as it is.
 */
function sharedSuccessSchema(schema: Json | undefined, schemas: Record<string, unknown>): Json | undefined {
  const properties = schema?.properties as Record<string, unknown> | undefined;
  if (schema === undefined || properties === undefined || schema.type !== 'object') return schema;
  const rest = Object.keys(properties).filter((key) => !ENVELOPE_FIELDS.includes(key));
  const isList = rest.length === 2 && rest.includes('data') && rest.includes('pagination');
  if (!(rest.length === 1 && rest[0] === 'data') && !isList) return schema;
  const common = {
    type: 'object',
    required: ENVELOPE_FIELDS,
    properties: Object.fromEntries(ENVELOPE_FIELDS.map((key) => [key, properties[key]])),
  };
  const required = schema.required as string[] | undefined;
  if (required?.length !== Object.keys(properties).length) return schema;
  schemas[ENVELOPE] ??= common;
  if (JSON.stringify(schemas[ENVELOPE]) !== JSON.stringify(common)) return schema;
  const own = Object.fromEntries(rest.map((key) => [key, properties[key]]));
  return {
    allOf: [schemaRef(ENVELOPE), { required: rest, properties: own }],
  };
}

/**
 * Each parameter written alike by several operations becomes `components.parameters[name]` (the
 * form most operations use, when one name is written in several ways); the others stay inline.
 */
function shareParameters(document: Document): Record<string, unknown> {
  const uses = new Map<string, Map<string, number>>();
  for (const operation of allOperations(document)) {
    for (const parameter of operation.parameters ?? []) {
      // A title names a schema shared under `components.schemas`; a parameter is shared whole.
      delete (parameter as { schema?: { title?: string } }).schema?.title;
      const { name } = parameter as { name: string };
      const forms = uses.get(name) ?? new Map<string, number>();
      const form = JSON.stringify(parameter);
      forms.set(form, (forms.get(form) ?? 0) + 1);
      uses.set(name, forms);
    }
  }
  const shared = new Map<string, string>();
  for (const [name, forms] of uses) {
    const [form, count] = [...forms].sort(([a, m], [b, n]) => n - m || a.localeCompare(b))[0]!;
    if (count >= 2 && /^[A-Za-z0-9._-]+$/.test(name)) shared.set(form, name);
  }
  const parameters: Record<string, unknown> = {};
  for (const operation of allOperations(document)) {
    operation.parameters = operation.parameters?.map((parameter) => {
      const name = shared.get(JSON.stringify(parameter));
      if (name === undefined) return parameter;
      parameters[name] = parameter;
      return { $ref: `#/components/parameters/${name}` };
    });
  }
  return parameters;
}

/**
 * The shared form of one error answer (a reference, or the answer narrowing the shared envelope),
 * or undefined for an answer that is not the envelope (the HTML of an expired signing link).
 */
function sharedErrorResponse(
  status: number,
  response: Json,
  schemas: Record<string, unknown>,
  responses: Record<string, unknown>,
): Json | undefined {
  const media = (response.content as Record<string, Json> | undefined)?.['application/json'];
  const schema = media?.schema as ErrorSchema | undefined;
  if (media === undefined || schema?.properties?.error === undefined) return undefined;
  const { envelope, reasons, isReasonRequired } = splitErrorSchema(schema);
  remember(schemas, ERROR_ENVELOPE, envelope);
  if (reasons === undefined) {
    // Its description and example depend on the status and the example's module only.
    const module = (media.example as { module?: string } | undefined)?.module ?? 'any';
    const name = `${module}.${statusName(status)}`;
    remember(responses, name, {
      ...response,
      content: { 'application/json': { ...media, schema: schemaRef(ERROR_ENVELOPE) } },
    });
    return { $ref: `#/components/responses/${name}` };
  }
  const narrowed = {
    allOf: [
      schemaRef(ERROR_ENVELOPE),
      // Only what narrows the envelope: the types are the envelope's. `error` names its whole schema
      // again (`allOf`) so that a validator refusing properties no schema describes (as the linter
      // checks the examples) sees `code` and `message` described beside `reason`.
      {
        properties: {
          error: {
            allOf: [schemaRef(ERROR_DETAIL)],
            ...(isReasonRequired ? { required: ['reason'] } : {}),
            properties: { reason: { enum: reasons } },
          },
        },
      },
    ],
  };
  return { ...response, content: { 'application/json': { ...media, schema: narrowed } } };
}

/**
 * An answer with reasons written alike by several operations (the `Idempotency-Key` conflicts of
 * every idempotent POST, most often) becomes `components.responses`, named by its module, status
 * and reasons: `events.Conflict.answer_withheld.key_releasing.request_in_progress`.
 */
function shareRepeatedReasons(document: Document, responses: Record<string, unknown>): void {
  const uses = new Map<string, number>();
  const each = function* () {
    for (const operation of operations(document)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (Number(status) >= 400 && !('$ref' in response)) yield { operation, status, response };
      }
    }
  };
  for (const { response } of each()) {
    const form = JSON.stringify(response);
    uses.set(form, (uses.get(form) ?? 0) + 1);
  }
  for (const { operation, status, response } of each()) {
    if ((uses.get(JSON.stringify(response)) ?? 0) < 2) continue;
    const media = (response.content as Record<string, Json> | undefined)?.['application/json'];
    // The narrowing part written by sharedErrorResponse (the components are not in the document yet).
    const narrowing = (media?.schema as { allOf?: ErrorSchema[] } | undefined)?.allOf?.[1];
    const reasons = narrowing?.properties?.error?.properties?.reason?.enum ?? [];
    const module = (media?.example as { module?: string } | undefined)?.module;
    if (reasons.length === 0 || module === undefined) continue;
    const name = [module, statusName(Number(status)), ...reasons].join('.');
    remember(responses, name, response);
    operation.responses![status] = { $ref: `#/components/responses/${name}` };
  }
}

/**
 * A success answer written alike by several operations (a resource read and updated, its example
 * the same) becomes `components.responses`, named by its resource and status: `Edition.OK`,
 * `Certificate.List.OK`. A name that would stand for two different answers names neither.
 */
function shareRepeatedSuccesses(document: Document, responses: Record<string, unknown>): void {
  const forms = new Map<string, Map<string, number>>();
  const named: Array<{ operation: Operation; status: string; response: Json; name: string }> = [];
  for (const operation of operations(document)) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      const name = Number(status) < 400 ? successName(Number(status), response) : undefined;
      if (name === undefined) continue;
      named.push({ operation, status, response, name });
      const form = JSON.stringify(response);
      const counts = forms.get(name) ?? new Map<string, number>();
      counts.set(form, (counts.get(form) ?? 0) + 1);
      forms.set(name, counts);
    }
  }
  for (const { operation, status, response, name } of named) {
    const counts = [...(forms.get(name)?.values() ?? [])];
    if (counts.length !== 1 || counts[0]! < 2) continue;
    responses[name] = response;
    operation.responses![status] = { $ref: `#/components/responses/${name}` };
  }
}

/** `Edition.OK` for an envelope around an Edition, `Edition.List.OK` around a page of them. */
function successName(status: number, response: Json): string | undefined {
  const media = (response.content as Record<string, Json> | undefined)?.['application/json'];
  const resource = envelopedResource(media?.schema as Json | undefined);
  return resource === undefined ? undefined : `${resource}.${statusName(status)}`;
}

/** `Edition` for `allOf: [Envelope, {data: Edition}]`, `Edition.List` for a page of them. */
function envelopedResource(schema: Json | undefined): string | undefined {
  const own = (schema as { allOf?: Array<{ properties?: { data?: Json } }> } | undefined)?.allOf?.[1];
  const data = own?.properties?.data;
  const single = data?.$ref;
  const item = (data?.items as Json | undefined)?.$ref;
  const ref = typeof single === 'string' ? single : typeof item === 'string' ? `${item}.List` : undefined;
  return ref?.replace('#/components/schemas/', '');
}

/**
 * An envelope around one resource that several answers use (each with its own example) becomes
 * `components.schemas["Edition.Envelope"]` (`Edition.List.Envelope` for a page of them).
 */
function shareRepeatedEnvelopes(
  document: Document,
  schemas: Record<string, unknown>,
  responses: Record<string, unknown>,
): void {
  const media: Json[] = [];
  const answers = [
    ...[...operations(document)].flatMap((operation) => Object.values(operation.responses ?? {})),
    ...(Object.values(responses) as Json[]),
  ];
  for (const answer of answers) {
    const json = (answer.content as Record<string, Json> | undefined)?.['application/json'];
    if (json !== undefined && envelopedResource(json.schema as Json) !== undefined) media.push(json);
  }
  const forms = new Map<string, Map<string, number>>();
  for (const json of media) {
    const name = `${envelopedResource(json.schema as Json)}.Envelope`;
    const counts = forms.get(name) ?? new Map<string, number>();
    const form = JSON.stringify(json.schema);
    counts.set(form, (counts.get(form) ?? 0) + 1);
    forms.set(name, counts);
  }
  for (const json of media) {
    const name = `${envelopedResource(json.schema as Json)}.Envelope`;
    const counts = [...(forms.get(name)?.values() ?? [])];
    if (counts.length !== 1 || counts[0]! < 2) continue;
    remember(schemas, name, json.schema);
    json.schema = schemaRef(name);
  }
}

const statusName = (status: number) =>
  (STATUS_CODES[status] ?? `Status${status}`).replace(/[^A-Za-z0-9]/g, '');

interface ErrorSchema {
  description?: string;
  properties?: {
    error?: { required?: string[]; properties?: { reason?: { enum?: string[] } } };
  };
}

/**
 * The envelope without what an operation adds to it (its status's description, the `enum` of its
 * reasons and, on a 409, `reason` among the required fields), and what it added.
 */
function splitErrorSchema(schema: ErrorSchema) {
  const { description: _status, ...envelope } = structuredClone(schema);
  const error = envelope.properties!.error!;
  const reason = error.properties?.reason;
  const reasons = reason?.enum;
  if (reason !== undefined) delete reason.enum;
  const isReasonRequired = error.required?.includes('reason') === true;
  if (isReasonRequired) error.required = error.required!.filter((field) => field !== 'reason');
  return { envelope, reasons, isReasonRequired };
}

/**
 * Keys whose values are data (examples, enums, defaults), never schemas to look into; and the
 * parameters, whose schemas @fastify/swagger rewrites (their examples moved out), so that one titled
 * `Uuid` there is not the `Uuid` of the bodies (they are shared whole, by shareParameters).
 */
const DATA_KEYS = new Set(['example', 'examples', 'enum', 'const', 'default', 'parameters']);

/**
 * Replaces, below `node`, each schema carrying a `title` by a reference to its component (and `node`
 * itself unless `isHoisted` is false: a component's own title names it already).
 */
function hoistTitled(node: unknown, schemas: Record<string, unknown>, isHoisted = true): unknown {
  if (Array.isArray(node)) {
    node.forEach((item, index) => {
      node[index] = hoistTitled(item, schemas);
    });
    return node;
  }
  if (typeof node !== 'object' || node === null) return node;
  const object = node as Json;
  for (const [key, value] of Object.entries(object)) {
    if (!DATA_KEYS.has(key)) object[key] = hoistTitled(value, schemas);
  }
  // A property named `title` is an object under `properties`, not a string: only schemas match.
  const title = object.title;
  const isSchema = 'type' in object || 'anyOf' in object || 'allOf' in object || 'oneOf' in object;
  if (!isHoisted || typeof title !== 'string' || !isSchema || '$ref' in object) return node;
  // A description says what the schema means where it is used (`Uuid({description})`): it stays
  // there, beside the reference (OpenAPI 3.1 allows it), and the component is the schema itself.
  const { description, ...schema } = object;
  remember(schemas, title, schema);
  return description === undefined ? schemaRef(title) : { ...schemaRef(title), description };
}

/** Sets `named[name]`, refusing a second, different value under the same name. */
function remember(named: Record<string, unknown>, name: string, value: unknown): void {
  if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`"${name}" cannot name an OpenAPI component`);
  const known = named[name];
  if (known === undefined) named[name] = value;
  else if (JSON.stringify(known) !== JSON.stringify(value)) {
    throw new Error(
      `two different schemas would be the OpenAPI component ${name}, give one another title: ` +
        `${JSON.stringify(known)} and ${JSON.stringify(value)}`,
    );
  }
}

const sorted = (named: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(named).sort(([a], [b]) => a.localeCompare(b)));

/**
 * The `error.reason`s the document lists for an answer of an operation, following its references
 * (a shared answer lists none: only an answer narrowing the envelope has reasons).
 */
export function documentedReasons(document: object, response: unknown): readonly string[] {
  const answer = resolve(document, response) as
    | { content?: Record<string, { schema?: unknown }> }
    | undefined;
  const schema = resolve(document, answer?.content?.['application/json']?.schema) as
    | (ErrorSchema & { allOf?: unknown[] })
    | undefined;
  for (const part of [schema, ...(schema?.allOf ?? [])]) {
    const listed = (resolve(document, part) as ErrorSchema | undefined)?.properties?.error?.properties?.reason
      ?.enum;
    if (Array.isArray(listed)) return listed;
  }
  return [];
}

/** The object a local `$ref` (`#/components/...`) points at, or the value itself. */
export function resolve(document: object, value: unknown): unknown {
  const ref = (value as { $ref?: unknown } | undefined)?.$ref;
  if (typeof ref !== 'string') return value;
  if (!ref.startsWith('#/')) throw new Error(`not a local reference: ${ref}`);
  const target = ref
    .slice(2)
    .split('/')
    .reduce<unknown>(
      (at, key) => (at as Json | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')],
      document,
    );
  if (target === undefined) throw new Error(`the reference ${ref} points at nothing`);
  return resolve(document, target);
}
