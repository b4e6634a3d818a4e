/**
 * The bad requests of one operation, by category: for each, the cases every operation must get
 * (`must`) and a fast-check arbitrary over the operation's documented shape and the world's base
 * request for the rest. Each case is invalid by construction (one defect) and carries the statuses
 * docs/reference/errors.md gives it (`expect`: reported, not asserted; the assertions are 4xx, an answer, the
 * envelope and no row changed).
 */
import fc from 'fast-check';
import { bodyDefects } from './body-defects.ts';
import { fillPath, type Operation } from './openapi.ts';
import { type Defects, pathDefects, queryDefects } from './url-defects.ts';
import type { Base } from './world.ts';

export const CATEGORIES = [
  'wrong-type',
  'unknown-field',
  'nul',
  'out-of-range',
  'constraint',
  'deep-value',
  'not-an-object',
  'missing-required',
  'malformed-json',
  'content-type',
  'deep-body',
  'oversized',
  'body-where-none',
  'bad-path',
  'bad-query',
  'framing',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** Raw framing defects: the request's head or body is not valid HTTP/1.1. */
export type Framing =
  | 'content-length-not-a-number'
  | 'content-length-and-chunked'
  | 'bad-chunk-size'
  | 'two-content-lengths'
  | 'header-over-16k'
  | 'nul-in-header'
  | 'space-in-target';

export interface BadRequest {
  category: Category;
  defect: string;
  method: string;
  /** Request target: path and query, already percent-encoded (or deliberately mis-encoded). */
  target: string;
  /** `null`: no content-type header although there is a body. */
  contentType?: string | null;
  body?: Buffer;
  framing?: { kind: Framing; size?: number };
  /** Statuses docs/reference/errors.md gives this request. */
  expect: number[];
}

const MiB = 1024 * 1024;
/** Made once, not per operation (see body-defects.ts, SHORT_KEY). */
const SHORT_KEY = fc.stringMatching(/^[a-z]{1,8}$/);
/**
 * Oversized bodies go up to 4 MiB (4 times the limit): on loopback the kernel's socket buffers
 * swallow about 3.5 MiB, so a smaller body cannot show a server that closes without reading the
 * rest (the writer then gets EPIPE/ECONNRESET instead of the 413). The "read and
 * discarded, up to a bound" needs a bound of at least this.
 */
const OVERSIZE_MAX = 4 * MiB;
const FRAMINGS: Framing[] = [
  'content-length-not-a-number',
  'content-length-and-chunked',
  'bad-chunk-size',
  'two-content-lengths',
  'header-over-16k',
  'nul-in-header',
  'space-in-target',
];

const queryString = (query: Array<[string, string]>) =>
  query.length === 0 ? '' : `?${query.map(([name, value]) => `${name}=${value}`).join('&')}`;

/** A category's cases: what every operation gets, and an arbitrary for the rest. */
export type Source = Defects<BadRequest>;

/** The sources of one operation, for the categories that apply to it. */
export function badRequests(op: Operation, base: Base): Partial<Record<Category, Source>> {
  const target = (path: Record<string, string>, query: Array<[string, string]>) =>
    fillPath(op.path, path) + queryString(query);
  const baseTarget = target(base.path, base.query);
  const exampleText = op.body === undefined ? undefined : JSON.stringify(base.body);
  const request = (
    category: Category,
    defect: string,
    expect: number[],
    fields: Partial<BadRequest> = {},
  ) => ({
    category,
    defect,
    method: op.method,
    target: baseTarget,
    expect,
    ...fields,
  });
  const json = (category: Category, defect: string, text: string, expect: number[]): BadRequest =>
    request(category, defect, expect, { contentType: 'application/json', body: Buffer.from(text, 'utf8') });
  /** The example body unchanged, so that only the target is wrong. */
  const example: Partial<BadRequest> =
    exampleText === undefined
      ? {}
      : { contentType: 'application/json', body: Buffer.from(exampleText, 'utf8') };
  const sources: Partial<Record<Category, Source>> = {};
  const from = <T>(must: T[], arbitrary: fc.Arbitrary<T>, make: (item: T) => BadRequest): Source => ({
    must: must.map(make),
    arbitrary: arbitrary.map(make),
  });

  if (op.body !== undefined && exampleText !== undefined) {
    const defects = bodyDefects(op.body, base.body);
    const bodyCategories: Array<[Category, keyof typeof defects]> = [
      ['wrong-type', 'wrongType'],
      ['unknown-field', 'unknownField'],
      ['nul', 'nul'],
      ['out-of-range', 'outOfRange'],
      ['constraint', 'constraint'],
      ['deep-value', 'deepValue'],
      ['not-an-object', 'notObject'],
      ['missing-required', 'missingRequired'],
      ['malformed-json', 'malformedJson'],
    ];
    for (const [category, name] of bodyCategories) {
      const arbitrary = defects[name];
      if (arbitrary === undefined) continue;
      const must =
        category === 'not-an-object' ? [{ defect: 'a body that is not an object: null', text: 'null' }] : [];
      sources[category] = from(must, arbitrary, (bad) => json(category, bad.defect, bad.text, [400]));
    }

    type Typed = [contentType: string | null, payload: string];
    const mustTypes: Typed[] = [
      ['text/plain', exampleText],
      ['application/x-www-form-urlencoded', new URLSearchParams({ json: exampleText }).toString()],
      [null, exampleText],
    ];
    const moreTypes: Typed[] = [
      ['application/xml', '<body/>'],
      [
        'multipart/form-data; boundary=fuzz',
        `--fuzz\r\ncontent-disposition: form-data; name="a"\r\n\r\n${exampleText}\r\n--fuzz--\r\n`,
      ],
      ['application/octet-stream', exampleText],
      ['application/jsonx', exampleText],
    ];
    sources['content-type'] = from(
      mustTypes,
      fc.constantFrom(...mustTypes, ...moreTypes),
      ([contentType, payload]) => ({
        ...json('content-type', `content-type ${contentType ?? 'missing'}`, payload, [415]),
        contentType,
      }),
    );

    type Deep = [shape: 'array' | 'object', depth: number];
    sources['deep-body'] = from<Deep>(
      [['array', 10_000]],
      fc.tuple(
        fc.constantFrom('array' as const, 'object' as const),
        fc.integer({ min: 10_000, max: 150_000 }),
      ),
      ([shape, depth]) =>
        json(
          'deep-body',
          `a body ${depth} levels deep (${shape}s)`,
          shape === 'array'
            ? `${'['.repeat(depth)}${']'.repeat(depth)}`
            : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
          [400],
        ),
    );

    sources.oversized = from([OVERSIZE_MAX], fc.integer({ min: MiB + 1, max: OVERSIZE_MAX }), (size) => {
      const prefix = '{"name":"';
      const filler = 'x'.repeat(Math.max(0, size - prefix.length - 2));
      return json('oversized', `a ${size}-byte body, written at once`, `${prefix}${filler}"}`, [413]);
    });
  } else {
    type Typed = [contentType: string, payload: string];
    const must: Typed[] = [
      ['application/json', '{"x":1}'],
      ['application/json', '[1]'],
      ['application/json', '"s"'],
      ['application/json', 'null'],
      ['text/plain', 'hello'],
    ];
    const arbitrary = fc.oneof(
      fc.constantFrom(
        ...must,
        ['application/json', '0'],
        ['application/json', 'true'],
        ['application/json', '[]'],
      ),
      fc
        .dictionary(SHORT_KEY, fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.boolean()), {
          minKeys: 1,
          maxKeys: 3,
        })
        .map((value): Typed => ['application/json', JSON.stringify(value)]),
      fc.string({ minLength: 1, maxLength: 40 }).map((text): Typed => ['text/plain', text]),
      fc.constant<Typed>(['application/x-www-form-urlencoded', 'a=1']),
    );
    sources['body-where-none'] = from(must, arbitrary, ([contentType, text]) => ({
      ...json('body-where-none', `a ${contentType} body where none belongs: ${text.slice(0, 30)}`, text, [
        contentType === 'application/json' ? 400 : 415,
      ]),
      contentType,
    }));
  }

  if (op.pathParams.length > 0) {
    const perParameter = op.pathParams.map((parameter) => {
      const defects = pathDefects(op, parameter);
      return from(defects.must, defects.arbitrary, ([value, expect, label]) =>
        request('bad-path', `{${parameter.name}} ${label}`, expect, {
          ...example,
          target: target({ ...base.path, [parameter.name]: value }, base.query),
        }),
      );
    });
    sources['bad-path'] = {
      must: perParameter.flatMap((source) => source.must),
      arbitrary: fc.oneof(...perParameter.map((source) => source.arbitrary)),
    };
  }

  const queries = queryDefects(op, base.query);
  sources['bad-query'] = from(queries.must, queries.arbitrary, ([query, defect, expect]) =>
    request('bad-query', defect, expect, { ...example, target: target(base.path, query) }),
  );

  sources.framing = from(
    [],
    fc.tuple(fc.constantFrom(...FRAMINGS), fc.integer({ min: 17 * 1024, max: 64 * 1024 })),
    ([kind, size]) => {
      const framing = { kind, ...(kind === 'header-over-16k' ? { size } : {}) };
      return request(
        'framing',
        kind === 'header-over-16k' ? `${kind} (${size} bytes)` : kind,
        [kind === 'header-over-16k' ? 431 : 400],
        { framing },
      );
    },
  );
  return sources;
}
