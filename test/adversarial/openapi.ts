/**
 * The operations of the service's own OpenAPI document, in the shape the fuzz needs: method, path
 * template, parameters with their schemas, and the JSON body schema with its documented example.
 */
import { resolve } from '../../src/system/openapi-components.ts';

/**
 * A JSON Schema node as @fastify/swagger writes it, with the document's `$ref`s to its `components`
 * (system/openapi-components.ts) replaced by what they point at, so the fuzz sees every constraint.
 */
export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  minProperties?: number;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  /** `METHOD /path/{template}`: the operation's name in the report and in FUZZ_ONLY. */
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The JSON body schema, when the operation takes a body. */
  body: Schema | undefined;
  /** `requestBody.content['application/json'].example`. */
  example: unknown;
  /** Whether the operation requires a bearer token. */
  isProtected: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface RawOperation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema; example?: unknown }> };
  security?: unknown[];
}

/** Every operation of the document, in document order, its `$ref`s followed. */
export function operationsOf(document: { paths?: Record<string, Record<string, unknown>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const raw = dereferenced(document, item[method]) as RawOperation | undefined;
      if (raw === undefined) continue;
      const parameters: Parameter[] = (raw.parameters ?? []).map((parameter) => ({
        name: parameter.name,
        in: parameter.in as Parameter['in'],
        required: parameter.required === true,
        schema: parameter.schema ?? {},
      }));
      const json = raw.requestBody?.content?.['application/json'];
      if (raw.requestBody !== undefined && json === undefined) {
        throw new Error(`${method.toUpperCase()} ${path}: a body that is not JSON; teach the fuzz about it`);
      }
      if (json !== undefined && json.example === undefined) {
        throw new Error(`${method.toUpperCase()} ${path}: the body has no documented example`);
      }
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase() as Operation['method'],
        path,
        pathParams: parameters.filter((parameter) => parameter.in === 'path'),
        queryParams: parameters.filter((parameter) => parameter.in === 'query'),
        body: json?.schema,
        example: json?.example,
        isProtected: Array.isArray(raw.security) && raw.security.length > 0,
      });
    }
  }
  return operations;
}

/**
 * A copy of `value` with each local `$ref` replaced by a copy of what it points at (the document's
 * components refer to none of their own ancestors, so this ends; `depth` says so if one ever does).
 */
function dereferenced(document: object, value: unknown, depth = 0): unknown {
  if (depth > 64) throw new Error('a $ref cycle in the OpenAPI document');
  if (Array.isArray(value)) return value.map((item) => dereferenced(document, item, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const resolved = resolve(document, value);
  if (resolved !== value) return dereferenced(document, resolved, depth + 1);
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, dereferenced(document, item, depth + 1)]),
  );
}

/** The path parameter names of a template, in order (`/a/{x}:by-slug/b/{y}` -> x, y). */
export const templateNames = (path: string): string[] =>
  [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);

/** The path with each `{name}` replaced by `values[name]`, inserted verbatim (already encoded). */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${path}: no value for {${name}}`);
    return value;
  });
}
