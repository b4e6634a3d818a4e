/**
 * Input validation of every route, all parts at once (docs/reference/errors.md: "one 400 names every bad
 * field of the path, query and body"). Fastify validates params, body, querystring and headers in turn and
 * stops at the first part that fails, so a bad path hid a bad body. Here each route's schemas are compiled
 * when the route is added (`onRoute`), Fastify's own validation step is a no-op, and one `preHandler` hook
 * runs every part and throws a single VALIDATION_ERROR naming each field.
 *
 * The same hook refuses input a route does not declare, for the API's own routes (those that name
 * their module; the docs UI serves static files): a body on a route without a body schema (`{}` is
 * tolerated as no body, since many clients send it on a bare POST), whatever the method, and any
 * query parameter on a route without a querystring schema.
 *
 * Two Ajv instances: bodies are never coerced ("100" is not an integer), while querystring, path
 * parameters and headers, strings by nature, are parsed into the types their schema declares.
 * `allErrors` so that one response names every offending field.
 */

import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JSON_CONTENT_TYPE } from './body.ts';
import { AppError, type FieldError, validationError } from './errors.ts';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body schema is optional: no body at all reads as `{}` (JSON `null` is still refused). */
    bodyOptional?: boolean;
    /** Set by `registerValidation` when the route is added; not for routes to set. */
    input?: RouteInput;
  }
}

/** An Ajv validator, or one that compiles itself on its first call (`onFirstUse`). */
type Validator = ((data: unknown) => boolean) & { errors?: ValidateFunction['errors'] };

interface RouteInput {
  params?: Validator;
  querystring?: Validator;
  body?: Validator;
  headers?: Validator;
}

function createAjv(coerceTypes: Options['coerceTypes']): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allowUnionTypes: true,
    strictSchema: false,
  });
  addFormats(ajv, { mode: 'full' });
  ajv.addFormat('date-time', { type: 'string', validate: isStorableDateTime });
  return ajv;
}

const rfc3339 = fullFormats['date-time'] as { validate: (value: string) => boolean };

/**
 * RFC 3339 admits date-times that neither a JavaScript Date nor PostgreSQL can hold: a leap second
 * (`23:59:60` is an Invalid Date) and the year 0000. Refusing them here keeps them a field error
 * instead of a failure deeper down.
 */
function isStorableDateTime(value: string): boolean {
  if (!rfc3339.validate(value)) return false;
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).getUTCFullYear() >= 1;
}

const isEmptyObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

/** Whether the request carries a body, read or not (Fastify does not read one on GET). */
const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined ||
  (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0');

/**
 * `compileOnFirstUse` (test apps): compile a route's validators when a request first reaches it, not
 * when the route is added. A test file exercises a few of the service's routes, and compiling them
 * all cost each test app about a second of CPU. The service compiles at start-up, so a schema Ajv
 * refuses fails the boot, not a request.
 */
export function registerValidation(
  app: FastifyInstance,
  options: { compileOnFirstUse?: boolean } = {},
): void {
  const strict = createAjv(false);
  const coercing = createAjv('array');
  const compile = (ajv: Ajv, schema: unknown): Validator | undefined => {
    if (schema === undefined) return undefined;
    if (options.compileOnFirstUse !== true) return ajv.compile(schema as object);
    let compiled: ValidateFunction | undefined;
    const validate: Validator = (data) => {
      compiled ??= ajv.compile(schema as object);
      const isValid = compiled(data);
      validate.errors = compiled.errors;
      return isValid;
    };
    return validate;
  };

  // Fastify's per-part validation would stop at the first bad part; the hook below does it all.
  app.setValidatorCompiler(() => () => true);

  app.addHook('onRoute', (route) => {
    const schema = route.schema ?? {};
    const input: RouteInput = {
      params: compile(coercing, schema.params),
      querystring: compile(coercing, schema.querystring),
      body: compile(strict, schema.body),
      headers: compile(coercing, schema.headers),
    };
    route.config = { ...route.config, input };
  });

  // Callback style: one promise fewer per request on every route.
  app.addHook('preHandler', (request, _reply, done) => {
    const { input, module } = request.routeOptions.config;
    if (input === undefined) return done();
    if (isQueryMalformed(request.url)) {
      return done(new AppError('BAD_REQUEST', 'The query string is not valid percent-encoding'));
    }
    // The API's own routes name their module (set by the module's onRoute hook, after this one).
    const isStrict = module !== undefined;
    const refusal = isStrict ? bodyRefusal(request, input) : [];
    if (refusal instanceof AppError) return done(refusal);
    const fields: FieldError[] = refusal;
    check(input.params, request.params, 'params', fields);
    if (input.querystring !== undefined) {
      check(input.querystring, request.query, 'querystring', fields);
    } else if (isStrict) {
      for (const name of Object.keys((request.query as Record<string, unknown> | undefined) ?? {})) {
        fields.push({ field: `query.${name}`, message: 'is not a known parameter' });
      }
    }
    if (input.body !== undefined) {
      if (request.body === undefined && request.routeOptions.config.bodyOptional) request.body = {};
      check(input.body, request.body ?? null, 'body', fields);
    }
    check(input.headers, request.headers, 'headers', fields);
    done(fields.length > 0 ? validationError(fields) : undefined);
  });
}

/**
 * A body where the route takes none: 415 when it is not JSON, else a `body` field error (returned,
 * so that it is named with the other fields). Routes with a body schema are left to the schema.
 */
function bodyRefusal(request: FastifyRequest, input: RouteInput): AppError | FieldError[] {
  if (input.body !== undefined) return [];
  if (request.body === undefined) {
    if (!hasBody(request)) return [];
    // Not parsed (GET, HEAD): decide by its declared type.
    if (!JSON_CONTENT_TYPE.test(request.headers['content-type'] ?? '')) {
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json');
    }
  } else if (isEmptyObject(request.body)) {
    return [];
  }
  return [{ field: 'body', message: 'this operation takes no body' }];
}

function check(
  validate: Validator | undefined,
  data: unknown,
  part: 'params' | 'querystring' | 'body' | 'headers',
  fields: FieldError[],
): void {
  if (validate === undefined) return;
  const isDecoded =
    (part === 'params' || part === 'querystring') && typeof data === 'object' && data !== null;
  // Ajv coerces in place: the text as it came is kept to judge how a number was written.
  const written = isDecoded ? { ...(data as Record<string, unknown>) } : {};
  const problems = validate(data) ? [] : fieldsFromAjv(validate.errors ?? [], part);
  if (isDecoded) {
    const named = new Set(problems.map((problem) => problem.field));
    const decoded = decodedValueProblems(data as Record<string, unknown>, written, PART_PREFIX[part] ?? '');
    problems.push(...decoded.filter((problem) => !named.has(problem.field)));
  }
  fields.push(...problems);
}

/**
 * How an integer is written in a path or a query: decimal digits, a `-` for a negative, no
 * leading zero (`0` alone), nothing else. Ajv's coercion is JavaScript's `Number()`, which also
 * reads `0x10`, `0b1`, `1e2`, `+5`, `1.0`, ` 5` and `05`: one number with many spellings, which a
 * cache, a log search or a proxy in front would each see as different values (and `05` as octal in
 * some languages). One spelling per number. Every number the API takes there is an integer.
 */
const DECIMAL_INTEGER = /^(?:0|-?[1-9][0-9]*)$/;

/**
 * What the schema passes but the API refuses in a decoded path or query value: a number not
 * written as a plain decimal integer (`written` holds the values as they came, before coercion) or
 * not finite (Ajv coerces a decimal of 400 digits to Infinity and then, with `strictNumbers`, checks
 * neither its finiteness nor its `maximum`), and NUL (a body's strings are checked by the body
 * parser).
 */
function decodedValueProblems(
  values: Record<string, unknown>,
  written: Record<string, unknown>,
  prefix: string,
): FieldError[] {
  const problems: FieldError[] = [];
  for (const [name, value] of Object.entries(values)) {
    const items = Array.isArray(value) ? value : [value];
    const texts = [written[name]].flat();
    const problem = items.map((item, index) => valueProblem(item, texts[index])).find(Boolean);
    if (problem !== undefined) problems.push({ field: `${prefix}${name}`, message: problem });
  }
  return problems;
}

/** What is wrong with one decoded value (`text`: as written, when it was), if anything. */
function valueProblem(item: unknown, text: unknown): string | undefined {
  if (typeof item === 'number') {
    // A default the schema filled in was not written at all.
    if (typeof text === 'string' && !DECIMAL_INTEGER.test(text)) {
      return 'must be an integer written in decimal digits (no sign but -, no leading zero)';
    }
    if (!Number.isFinite(item)) return 'must be a finite number';
  }
  if (typeof item === 'string' && item.includes('\u0000')) return 'must not contain NUL characters';
  return undefined;
}

/**
 * Whether the query string has a malformed escape (`%ZZ`, a cut `%A`, bytes that are not UTF-8).
 * The query parser keeps such text as it came, so only the raw URL shows it; the path's escapes
 * are the router's (FST_ERR_BAD_URL).
 */
function isQueryMalformed(url: string): boolean {
  const start = url.indexOf('?');
  if (start < 0 || !url.includes('%', start)) return false;
  try {
    decodeURIComponent(url.slice(start + 1));
    return false;
  } catch {
    return true;
  }
}

const PART_PREFIX: Record<string, string> = {
  body: '',
  querystring: 'query.',
  params: 'params.',
  headers: 'header.',
};

/** Turns Ajv errors into one `fields` entry per offending field. */
function fieldsFromAjv(errors: ErrorObject[], context: string): FieldError[] {
  const prefix = PART_PREFIX[context] ?? '';
  const byField = new Map<string, string[]>();
  for (const error of errors) {
    // `anyOf` repeats what its branches already said ("must be string", "must be null").
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    let path = error.instancePath
      .split('/')
      .slice(1)
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
    let message = error.message ?? 'is not valid';
    if (error.keyword === 'required') {
      path = [...path, String(error.params.missingProperty)];
      message = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      path = [...path, String(error.params.additionalProperty)];
      message = 'is not a known field';
    } else if (error.keyword === 'type' && Array.isArray(error.params.type)) {
      message = `must be ${(error.params.type as string[]).join(' or ')}`;
    } else if (error.keyword === 'format') {
      message = `must be a valid ${String(error.params.format)}`;
    }
    const field = prefix + path.join('.') || (context === 'body' ? 'body' : context);
    const messages = byField.get(field) ?? [];
    if (!messages.includes(message)) messages.push(message);
    byField.set(field, messages);
  }
  return [...byField].map(([field, messages]) => ({ field, message: joinMessages(messages) }));
}

function joinMessages(messages: string[]): string {
  const types = messages.filter((m) => m.startsWith('must be ') && !m.startsWith('must be a valid'));
  if (types.length > 1 && types.length === messages.length) {
    return `must be ${types.map((m) => m.slice('must be '.length)).join(' or ')}`;
  }
  return messages.join('; ');
}
