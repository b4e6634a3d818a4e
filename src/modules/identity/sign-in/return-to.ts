/**
 * Where a sign-in lands (`return_to`, docs/reference/sign-in.md): a path of this service only, so the
 * sign-in can never be used to send someone elsewhere (an open redirect). A path starts with one `/`;
 * `//host` and `/\host` are read by browsers as another host, so they, any backslash, control
 * characters and anything that resolves to another origin are refused.
 */
import { validationError } from '../../../kernel/http/errors.ts';

export const RETURN_TO_MAX = 2000;

export function isSameOriginPath(value: string): boolean {
  if (value.length === 0 || value.length > RETURN_TO_MAX) return false;
  if (!value.startsWith('/') || value.startsWith('//')) return false;
  // Control characters: URL parsers drop tabs and newlines, which would turn `/\t/evil` into `//evil`.
  if (/[\\\p{Cc}]/u.test(value)) return false;
  const base = new URL('http://return-to.invalid');
  try {
    return new URL(value, base).origin === base.origin;
  } catch {
    return false;
  }
}

/** `return_to` checked (`/` when absent), or a 400 naming the field. */
export function parseReturnTo(value: string | undefined, field = 'query.return_to'): string {
  if (value === undefined) return '/';
  if (!isSameOriginPath(value)) {
    throw validationError([{ field, message: 'must be a path of this service (starting with a single /)' }]);
  }
  return value;
}
