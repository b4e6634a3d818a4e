/**
 * The only body parser: JSON. Anything else with a body is 415. Beyond JSON.parse it refuses what
 * docs/reference/errors.md forbids in any body and what a schema cannot see: nesting deeper than 64 levels
 * (decided by a scan of the text before parsing), NUL characters in strings, numbers beyond ±2^53
 * (JSON.parse would silently round them) and prototype-poisoning keys.
 */
import type { FastifyInstance } from 'fastify';
import { AppError, type FieldError, validationError } from './errors.ts';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** The content types parsed as JSON: `application/json` and `application/*+json`. */
export const JSON_CONTENT_TYPE = /^application\/([\w.-]+\+)?json(\s*;.*)?$/i;

/** docs/reference/errors.md: JSON nested deeper than this is a 400. */
export const MAX_JSON_DEPTH = 64;

export function registerJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_CONTENT_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    // An empty body with a JSON content type is treated as no body: routes that need one
    // answer VALIDATION_ERROR through their schema.
    if (text === '') return done(null, undefined);
    // Before parsing: the walk below recurses once per level, and 10,000 levels of `[` (20 KB)
    // overflowed the stack after blocking the event loop for seconds.
    if (isNestedDeeperThan(text, MAX_JSON_DEPTH)) {
      return done(
        new AppError('BAD_REQUEST', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`),
        undefined,
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return done(new AppError('BAD_REQUEST', 'The body is not valid JSON', { cause: error }), undefined);
    }
    const problems: FieldError[] = [];
    inspect(value, [], problems);
    if (problems.length > 0) return done(validationError(problems), undefined);
    done(null, value);
  });
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether arrays and objects nest deeper than `limit` in a JSON text: one pass over the characters,
 * no recursion, brackets inside strings skipped. It does not validate the JSON (JSON.parse does);
 * on malformed text it only has to stay linear, which it does.
 */
export function isNestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/** The checks a schema cannot make; recursion is bounded by MAX_JSON_DEPTH. */
function inspect(value: unknown, path: string[], problems: FieldError[]): void {
  if (problems.length >= 20) return;
  const field = () => (path.length === 0 ? 'body' : path.join('.'));
  if (typeof value === 'string') {
    if (value.includes('\u0000'))
      problems.push({ field: field(), message: 'must not contain NUL characters' });
  } else if (typeof value === 'number') {
    if (Math.abs(value) > MAX_SAFE) problems.push({ field: field(), message: 'is outside the range ±2^53' });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      inspect(item, [...path, String(index)], problems);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') {
        problems.push({ field: [...path, key].join('.'), message: 'is not an allowed field name' });
      } else if (key.includes('\u0000')) {
        problems.push({ field: field(), message: 'field names must not contain NUL characters' });
      } else {
        inspect(item, [...path, key], problems);
      }
    }
  }
}
