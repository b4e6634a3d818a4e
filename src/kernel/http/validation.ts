/**
 * Two Ajv instances: bodies are never coerced ("100" is not an integer), while querystring and
 * path parameters, strings by nature, are parsed into the types their schema declares.
 * `allErrors` so that one response names every offending field.
 */

import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

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

export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const strict = createAjv(false);
  const coercing = createAjv('array');
  return ({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema as object) as ReturnType<
      FastifySchemaCompiler<unknown>
    >;
}
