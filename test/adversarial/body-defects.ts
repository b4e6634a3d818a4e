/**
 * Bad JSON bodies derived from an operation's schema and its documented example: each arbitrary
 * takes the example (which, in the fuzz's world, would succeed) and breaks exactly one thing in it,
 * so every body it yields is invalid by construction. Values the serializer cannot write (integers
 * beyond ±2^53, nesting deeper than JSON.stringify's stack) are `Raw` JSON text spliced in.
 */
import fc from 'fast-check';
import type { Schema } from './openapi.ts';

/** JSON text inserted verbatim where it stands. */
export class Raw {
  constructor(readonly text: string) {}
}

/** A bad body: what it breaks, and its exact text. */
export interface BodyDefect {
  defect: string;
  text: string;
}

type Path = Array<string | number>;

/** JSON text of `value`, `Raw` pieces spliced in unchanged. */
export function serialize(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (!(item instanceof Raw)) return item;
    raws.push(item.text);
    return `\u0001raw${raws.length - 1}\u0001`;
  });
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_, index: string) => raws[Number(index)] as string);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Raw);

/** A place in the body a value can be put: a declared property, or the inside of a free-form object. */
interface Slot {
  path: Path;
  schema: Schema;
  /** A free-form object (`additionalProperties: true` or a schema): anything may be added inside. */
  isOpen: boolean;
}

const isOpenObject = (schema: Schema) => schema.type === 'object' && schema.additionalProperties !== false;

/** Every declared property (recursing into objects and arrays the example holds). */
function slotsOf(schema: Schema, value: unknown, path: Path = []): Slot[] {
  const slots: Slot[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const here = [...path, name];
    slots.push({ path: here, schema: property, isOpen: isOpenObject(property) });
    const inner = isObject(value) ? value[name] : undefined;
    if (property.properties !== undefined && isObject(inner)) slots.push(...slotsOf(property, inner, here));
    if (property.items !== undefined && Array.isArray(inner) && inner.length > 0) {
      slots.push({ path: [...here, 0], schema: property.items, isOpen: isOpenObject(property.items) });
    }
  }
  return slots;
}

/** The closed objects of the body (unknown fields refused): their paths and schemas. */
function closedObjects(
  schema: Schema,
  value: unknown,
  path: Path = [],
): Array<{ path: Path; schema: Schema }> {
  if (!isObject(value)) return [];
  const found = schema.additionalProperties === false ? [{ path, schema }] : [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    found.push(...closedObjects(property, value[name], [...path, name]));
  }
  return found;
}

type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object';

/** The JSON types a schema accepts, or undefined when it accepts anything. */
function typesOf(schema: Schema): Set<JsonType> | undefined {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches !== undefined) {
    const union = new Set<JsonType>();
    for (const branch of branches) {
      const types = typesOf(branch);
      if (types === undefined) return undefined;
      for (const type of types) union.add(type);
    }
    return union;
  }
  if (schema.type !== undefined) {
    const types = new Set((Array.isArray(schema.type) ? schema.type : [schema.type]) as JsonType[]);
    if (types.has('number')) types.add('integer');
    return types;
  }
  const values = schema.enum ?? (schema.const === undefined ? undefined : [schema.const]);
  if (values !== undefined) {
    return new Set(values.map((item) => (item === null ? 'null' : typeof item) as JsonType));
  }
  return undefined;
}

/** Values of no type the schema accepts, none of them coercible into one it does. */
function wrongValues(schema: Schema): unknown[] {
  const types = typesOf(schema);
  if (types === undefined) return [];
  const values: unknown[] = [];
  if (!types.has('string')) values.push('100', 'true', '', 'x');
  if (!types.has('integer')) values.push(100, -1, 0);
  if (types.has('integer') && !types.has('number')) values.push(1.5);
  if (!types.has('boolean')) values.push(true, false);
  if (!types.has('null')) values.push(null);
  if (!types.has('array')) values.push([], [1], ['x']);
  if (!types.has('object')) values.push({}, { a: 1 });
  return values;
}

function get(value: unknown, path: Path): unknown {
  let at = value;
  for (const part of path) at = (at as Record<string | number, unknown> | undefined)?.[part];
  return at;
}

/** A copy of `body` with `path` set to `item` (undefined: removed). */
function set(body: unknown, path: Path, item: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let at = copy;
  for (const part of path.slice(0, -1)) {
    if (typeof at[part] !== 'object' || at[part] === null) at[part] = {};
    at = at[part] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1] as string | number;
  if (item === undefined) delete at[last];
  else at[last] = item;
  return copy;
}

const name = (path: Path) => (path.length === 0 ? 'body' : path.join('.'));
const describe = (item: unknown) =>
  item instanceof Raw
    ? item.text.length > 24
      ? `${item.text.slice(0, 24)}…`
      : item.text
    : JSON.stringify(item);

/** `body` with one value changed: at a declared slot, or inside a free-form object. */
function put(body: unknown, path: Path, item: unknown, defect: string): BodyDefect {
  return {
    defect: `${defect} at ${name(path)}: ${describe(item)}`.slice(0, 160),
    text: serialize(set(body, path, item)),
  };
}

const NOT_JSON_KEYS = ['__proto__', 'constructor', 'prototype'];

// Made once, not per operation: building a stringMatching arbitrary costs fast-check ~15 ms of
// CPU (it tokenises its default strings), ~2 s over the fuzz. An arbitrary is immutable, so a
// shared one gives the same samples for the same seed.
const SHORT_KEY = fc.stringMatching(/^[a-z]{1,8}$/);
const FIELD_NAME = fc.stringMatching(/^[a-z][a-z_]{0,14}$/);

/** The arbitraries of one operation; a category that cannot apply is undefined. */
export function bodyDefects(schema: Schema, body: unknown) {
  const slots = slotsOf(schema, body);
  const open: Path[] = isOpenObject(schema) ? [[]] : [];
  for (const slot of slots) if (slot.isOpen) open.push(slot.path);
  const insideOpen = fc
    .tuple(fc.constantFrom(...(open.length > 0 ? open : [[] as Path])), SHORT_KEY)
    .map(([path, key]) => [...path, `fuzz_${key}`]);
  const text = serialize(body);
  const either = <T>(cases: Array<fc.Arbitrary<T>>) => (cases.length === 0 ? undefined : fc.oneof(...cases));

  const typed = slots.filter((slot) => wrongValues(slot.schema).length > 0);
  const wrongType =
    typed.length === 0
      ? undefined
      : fc
          .constantFrom(...typed)
          .chain((slot) =>
            fc
              .constantFrom(...wrongValues(slot.schema))
              .map((item) => put(body, slot.path, item, 'wrong type')),
          );

  const closed = closedObjects(schema, body);
  const unknownField =
    closed.length === 0
      ? undefined
      : fc
          .tuple(
            fc.constantFrom(...closed),
            fc.oneof(
              fc.constantFrom(
                'id',
                'owner_id',
                'created_at',
                'status',
                'role',
                'is_admin',
                'deleted_at',
                'Name',
              ),
              FIELD_NAME,
            ),
            fc.oneof(
              fc.integer({ min: -1000, max: 1000 }),
              fc.string({ maxLength: 16 }),
              fc.boolean(),
              fc.constant(null),
            ),
          )
          .filter(([at, key]) => !(key in (at.schema.properties ?? {})) && !NOT_JSON_KEYS.includes(key))
          .map(([at, key, item]) => put(body, [...at.path, key], item, 'unknown field'));

  const stringy = slots.filter((slot) => typesOf(slot.schema)?.has('string'));
  const withNul = (base: unknown) =>
    fc.nat().map((at) => {
      const value = typeof base === 'string' && base !== '' ? base : 'fuzz';
      const cut = at % (value.length + 1);
      return `${value.slice(0, cut)}\u0000${value.slice(cut)}`;
    });
  const nul = fc.oneof(
    ...(stringy.length > 0
      ? [
          fc
            .constantFrom(...stringy)
            .chain((slot) => withNul(get(body, slot.path)).map((item) => put(body, slot.path, item, 'NUL'))),
        ]
      : []),
    ...(open.length > 0
      ? [fc.tuple(insideOpen, withNul('x')).map(([path, item]) => put(body, path, item, 'NUL'))]
      : []),
    fc.constantFrom('na\u0000me', '\u0000', 'slug\u0000').map((key) => ({
      defect: `NUL in a field name: ${JSON.stringify(key)}`,
      text: `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}${JSON.stringify(key)}:"x"}`,
    })),
  );

  const numeric = slots.filter((slot) => {
    const types = typesOf(slot.schema);
    return types?.has('integer') === true && !types.has('string');
  });
  const beyond = ['9007199254740993', '-9007199254740993', '18446744073709551616', '1e400', '-1e400'];
  const outOfRange = either([
    ...numeric.map((slot) => {
      const { minimum, maximum } = slot.schema;
      const values = beyond.map((raw) => new Raw(raw));
      if (minimum !== undefined && minimum > -(2 ** 53)) values.push(new Raw(String(minimum - 1)));
      if (maximum !== undefined && maximum < 2 ** 53) values.push(new Raw(String(maximum + 1)));
      return fc.constantFrom(...values).map((item) => put(body, slot.path, item, 'out of range'));
    }),
    ...(open.length > 0
      ? [
          fc
            .tuple(insideOpen, fc.constantFrom(...beyond))
            .map(([path, raw]) => put(body, path, new Raw(raw), 'beyond ±2^53')),
        ]
      : []),
  ]);

  const constraint = either(
    slots.flatMap((slot) =>
      violations(slot.schema, get(body, slot.path)).map((item) =>
        fc.constant(put(body, slot.path, item, 'constraint')),
      ),
    ),
  );

  const nest = (depth: number, shape: 'array' | 'object') =>
    shape === 'array'
      ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
      : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const deepPlaces = open.length > 0 ? insideOpen : fc.constantFrom(...slots.map((slot) => slot.path));
  const deepValue = fc
    .tuple(
      deepPlaces,
      fc.integer({ min: 65, max: 3000 }),
      fc.constantFrom('array' as const, 'object' as const),
    )
    .map(([path, depth, shape]) => put(body, path, new Raw(nest(depth, shape)), `${depth} levels deep`));

  const notObject = fc
    .constantFrom('null', '[]', `[${text}]`, '1', '-0', '"text"', '""', 'true', 'false')
    .map((bad) => ({
      defect: `a body that is not an object: ${bad.slice(0, 30)}`,
      text: bad,
    }));

  const required = closedObjects(schema, body)
    .concat(schema.additionalProperties === false ? [] : [{ path: [], schema }])
    .flatMap((at) => (at.schema.required ?? []).map((field) => [...at.path, field]))
    .filter((path) => get(body, path) !== undefined);
  const missingRequired = either([
    ...(required.length > 0
      ? [fc.constantFrom(...required).map((path) => put(body, path, undefined, 'required field removed'))]
      : []),
    ...((schema.minProperties ?? 0) > 0
      ? [fc.constant({ defect: 'no field (minProperties)', text: '{}' })]
      : []),
  ]);

  const malformedJson = fc
    .oneof(
      fc.integer({ min: 1, max: Math.max(1, text.length - 1) }).map((cut) => text.slice(0, cut)),
      fc.constantFrom(
        `${text}}`,
        `${text},`,
        `${text.slice(0, -1)},}`,
        text.replaceAll('"', "'"),
        `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}"x":NaN}`,
        `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}"x":undefined}`,
        `{${text}`,
        `${text}\u0000`,
        `// comment\n${text}`,
      ),
    )
    .filter((bad) => {
      try {
        JSON.parse(bad);
        return false;
      } catch {
        return true;
      }
    })
    .map((bad) => ({ defect: `malformed JSON: ${bad.slice(0, 40)}`, text: bad }));

  return {
    wrongType,
    unknownField,
    nul,
    outOfRange,
    constraint,
    deepValue,
    notObject,
    missingRequired,
    malformedJson,
  };
}

/** Values of the right type that break one of the schema's constraints. */
function violations(schema: Schema, current: unknown): unknown[] {
  const types = typesOf(schema);
  if (types === undefined) return [];
  const values: unknown[] = [];
  if (types.has('string')) {
    const { maxLength, minLength, pattern, format } = schema;
    if (maxLength !== undefined && maxLength < 400_000) values.push('x'.repeat(maxLength + 1));
    if (minLength !== undefined && minLength > 0) values.push('x'.repeat(minLength - 1));
    const listed = stringEnum(schema);
    if (listed !== undefined)
      values.push('zz-not-listed', listed[0]?.toUpperCase() === listed[0] ? 'zz' : listed[0]?.toUpperCase());
    if (pattern !== undefined) {
      const regex = new RegExp(pattern, 'u');
      const miss = ['Not Valid!', 'ftp://example.com/x', 'ABC', '-lead', 'abc'].find(
        (candidate) => !regex.test(candidate),
      );
      if (miss !== undefined) values.push(miss);
    }
    const badFormat: Record<string, string[]> = {
      uuid: ['not-a-uuid', '01937a4e-0000-7000-8000-00000000000'],
      'date-time': ['2030-02-30T10:00:00.000Z', 'tomorrow', '2030-01-01 10:00'],
      email: ['not-an-email', 'a@'],
      uri: ['not a uri'],
    };
    if (format !== undefined) values.push(...(badFormat[format] ?? []));
  }
  if (types.has('integer') && !types.has('string')) {
    if (schema.minimum !== undefined) values.push(schema.minimum - 1);
    if (schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER)
      values.push(schema.maximum + 1);
  }
  if (types.has('array') && Array.isArray(current) && current.length > 0) {
    if (schema.maxItems !== undefined && schema.maxItems < 10_000) {
      values.push(Array.from({ length: schema.maxItems + 1 }, () => current[0]));
    }
    if (schema.minItems !== undefined && schema.minItems > 0) values.push([]);
  }
  return values.filter((value) => value !== undefined && value !== current);
}

/** The strings a schema allows when they are a closed list (`enum`, or `anyOf` of enums). */
function stringEnum(schema: Schema): string[] | undefined {
  if (schema.enum !== undefined)
    return schema.enum.filter((item): item is string => typeof item === 'string');
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches === undefined) return undefined;
  const listed: string[] = [];
  for (const branch of branches) {
    if (typesOf(branch)?.has('string') !== true) continue;
    const inner = stringEnum(branch);
    if (inner === undefined) return undefined;
    listed.push(...inner);
  }
  return listed.length > 0 ? listed : undefined;
}
