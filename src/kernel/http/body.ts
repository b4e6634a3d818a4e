/**
 * The only body parser: JSON. Anything else with a body is 415. Beyond JSON.parse it refuses what
 * the contract forbids in any body and what a schema cannot see: NUL characters in strings, numbers
 * beyond ±2^53 (JSON.parse would silently round them) and prototype-poisoning keys.
 */
import type { FastifyInstance } from 'fastify';
import { AppError, type FieldError, validationError } from './errors.ts';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export function registerJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    /^application\/([\w.-]+\+)?json(\s*;.*)?$/i,
    { parseAs: 'string' },
    (_request, body, done) => {
      const text = (body as string).trim();
      // An empty body with a JSON content type is treated as no body: routes that need one
      // answer VALIDATION_ERROR through their schema.
      if (text === '') return done(null, undefined);
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
    },
  );
}

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
