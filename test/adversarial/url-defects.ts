/**
 * Bad request targets: path parameters and query strings with one defect each. `must` lists the
 * values every operation gets (the ones the issue names: not a UUID, 300 characters, %00,
 * %E0%A4%A, a well-formed unknown id; page 0, -1, abc, 1e309, 2^60, limit 0 and 101, an unknown
 * parameter, NUL in a value); the arbitrary adds random ones around them.
 */
import fc from 'fast-check';
import type { Operation, Parameter } from './openapi.ts';

/** A bad value for one path parameter: the encoded value, the statuses it gets, a label. */
export type PathCase = [value: string, expect: number[], label: string];
/** A bad query: the parameters (encoded), a label, the statuses it gets. */
export type QueryCase = [query: Array<[string, string]>, label: string, expect: number[]];

export interface Defects<T> {
  must: T[];
  arbitrary: fc.Arbitrary<T>;
}

/** Path parameters that do not select a resource: a well-formed value may legitimately succeed. */
const NOT_SELECTING = new Set([
  'DELETE /events/{event_id}/members/{user_id} user_id',
  'GET /users/{user_id}/badges user_id',
  // The console's screens: the browser's script reads the ids; the page itself is the same for any.
  'GET /console/events/{event_id} event_id',
  'GET /console/events/{event_id}/editions/{edition_id} event_id',
  'GET /console/events/{event_id}/editions/{edition_id} edition_id',
  'GET /console/events/{event_id}/payments event_id',
  'GET /console/wallets/{wallet_id}/webhooks wallet_id',
  'GET /console/events/{event_id}/email-templates event_id',
  'GET /console/events/{event_id}/emails event_id',
  'GET /console/events/{event_id}/editions/{edition_id}/registrations event_id',
  'GET /console/events/{event_id}/editions/{edition_id}/registrations edition_id',
  'GET /console/events/{event_id}/editions/{edition_id}/sales event_id',
  'GET /console/events/{event_id}/editions/{edition_id}/sales edition_id',
  'GET /console/editions/{edition_id}/scan edition_id',
  'GET /console/events/{event_id}/editions/{edition_id}/attendance event_id',
  'GET /console/events/{event_id}/editions/{edition_id}/attendance edition_id',
  'GET /console/events/{event_id}/editions/{edition_id}/certificates event_id',
  'GET /console/events/{event_id}/editions/{edition_id}/certificates edition_id',
]);
/**
 * Operations whose query is open, because a provider writes it: unknown parameters are accepted
 * (the notification's legacy form; the OAuth callback, where RFC 6749 4.1.2 asks a client to ignore
 * parameters it does not know; the checkout return page, where Mercado Pago appends its own; all
 * documented).
 */
const OPEN_QUERY = new Set([
  'POST /webhooks/{provider}',
  'GET /providers/{provider}/callback',
  'GET /checkout/{intent_id}',
]);
/** Operations whose `?token=` is a credential (a missing or malformed one is 401, like a bad one). */
const TOKEN_ROUTES =
  /^(GET \/signature-requests\/by-token|POST \/signature-requests\/(fulfill|deny)|POST \/signatures\/revoke)$/;

const UNKNOWN_UUID = '01937a4e-0000-7000-8000-0000000000ff';
/** Made once, not per operation (see body-defects.ts, SHORT_KEY). */
const UNKNOWN_SLUG = fc.stringMatching(/^zz[a-z0-9-]{1,20}$/);
const PARAMETER_NAME = fc.stringMatching(/^[a-z][a-z_]{0,10}$/);

export function pathDefects(op: Operation, parameter: Parameter): Defects<PathCase> {
  const isUuid = parameter.schema.format === 'uuid';
  // A malformed UUID is a 400 (docs/reference/errors.md); a malformed slug, provider or kind may also be a
  // 404.
  const bad = isUuid ? [400] : [400, 404];
  const mayMatch = !NOT_SELECTING.has(`${op.key} ${parameter.name}`);
  const must: PathCase[] = [
    ['%00', bad, 'NUL'],
    ['%E0%A4%A', [400], 'malformed percent-encoding'],
    ['x'.repeat(300), [400], '300 characters'],
  ];
  if (isUuid) must.push(['not-a-uuid', [400], 'not a UUID']);
  if (mayMatch) must.push(isUuid ? [UNKNOWN_UUID, [404], 'unknown'] : ['zz-unknown', [400, 404], 'unknown']);
  const more: PathCase[] = [
    ['%C3%A9t%C3%A9', bad, 'non-ASCII'],
    ['a%20b', bad, 'with a space'],
    ['%2e%2e', bad, '".." encoded'],
  ];
  if (isUuid) {
    more.push(
      ['12345', [400], 'a number'],
      ['01937a4e-0000-7000-8000-00000000000g', [400], 'a non-hex digit'],
    );
  }
  const random: Array<fc.Arbitrary<PathCase>> = [fc.constantFrom(...must, ...more)];
  if (mayMatch && isUuid) random.push(fc.uuid().map((id): PathCase => [id, [404], `unknown ${id}`]));
  if (mayMatch && !isUuid) {
    random.push(UNKNOWN_SLUG.map((value): PathCase => [value, [400, 404], `unknown ${value}`]));
  }
  return { must, arbitrary: fc.oneof(...random) };
}

export function queryDefects(op: Operation, base: Array<[string, string]>): Defects<QueryCase> {
  const declared = new Map(op.queryParams.map((parameter) => [parameter.name, parameter]));
  const isTokenRoute = TOKEN_ROUTES.test(op.key);
  const statusOf = (name: string) => (isTokenRoute && name === 'token' ? [400, 401] : [400]);
  const replace = (name: string, value: string | undefined): Array<[string, string]> => {
    const rest = base.filter(([key]) => key !== name);
    return value === undefined ? rest : [...rest, [name, value]];
  };
  const set = (name: string, value: string, label: string): QueryCase => [
    replace(name, value),
    `${name}: ${label}`,
    statusOf(name),
  ];
  const current = (name: string) => base.find(([key]) => key === name)?.[1];
  const isOpen = OPEN_QUERY.has(op.key);

  const must: QueryCase[] = [];
  if (declared.has('page')) {
    must.push(
      set('page', '0', 'zero'),
      set('page', '-1', 'negative'),
      set('page', 'abc', 'not a number'),
      set('page', '1e309', '1e309'),
      set('page', '1152921504606846976', '2^60'),
    );
  }
  if (declared.has('limit')) must.push(set('limit', '0', 'zero'), set('limit', '101', 'over 100'));
  if (!isOpen) must.push([[...base, ['zz_unknown', '1']], 'unknown parameter zz_unknown', [400]]);
  const first = op.queryParams[0];
  if (first !== undefined) must.push(set(first.name, `${current(first.name) ?? '1'}%00`, 'NUL in the value'));
  for (const parameter of op.queryParams) {
    if (parameter.required)
      must.push([replace(parameter.name, undefined), `${parameter.name} missing`, statusOf(parameter.name)]);
  }

  const random: Array<fc.Arbitrary<QueryCase>> = [];
  if (!isOpen) {
    const names = fc.oneof(
      fc.constantFrom('page', 'limit', 'sort', 'q', 'debug', 'fields', 'include', 'token', 'status'),
      PARAMETER_NAME,
    );
    random.push(
      fc
        .tuple(names, fc.string({ maxLength: 12 }))
        .filter(([name]) => !declared.has(name))
        .map(
          ([name, value]): QueryCase => [
            [...base, [name, encodeURIComponent(value)]],
            `unknown parameter ${name}`,
            [400],
          ],
        ),
    );
  }
  for (const { name, schema } of op.queryParams) {
    const values: Array<[string, string]> = [
      [`${current(name) ?? 'x'}%00`, 'NUL in the value'],
      ['%E0%A4%A', 'malformed percent-encoding'],
    ];
    if (schema.type === 'integer') {
      const above = schema.maximum === undefined ? '9007199254740993' : String(schema.maximum + 1);
      values.push(
        ['0', 'zero'],
        ['-1', 'negative'],
        ['abc', 'not a number'],
        ['1e309', '1e309'],
        ['1152921504606846976', '2^60'],
        [above, 'above the maximum'],
        ['1.5', 'a fraction'],
        ['true', 'a boolean'],
      );
    }
    const listed = schema.enum ?? schema.anyOf?.flatMap((branch) => branch.enum ?? []);
    if (listed !== undefined && listed.length > 0) values.push(['zz-not-listed', 'not one of the values']);
    if (schema.format === 'uuid') values.push(['not-a-uuid', 'not a UUID']);
    if (schema.maxLength !== undefined && schema.maxLength < 8000) {
      values.push(['x'.repeat(schema.maxLength + 1), 'too long']);
    }
    random.push(fc.constantFrom(...values).map(([value, label]) => set(name, value, label)));
  }
  if (must.length > 0) random.push(fc.constantFrom(...must));
  return { must, arbitrary: fc.oneof(...random) };
}
