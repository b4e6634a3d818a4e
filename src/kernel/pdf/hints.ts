/**
 * Reading `design_data` hints (a JSON column that templates fill freely) without ever letting
 * them break a render: a hint of the wrong type or shape reads as absent, and the caller uses its
 * default. Only own data properties are read, so no getter runs and no prototype key (`toString`,
 * `__proto__`) is taken for a hint.
 */
import { normalizeHex } from './colors.ts';
import { cleanText } from './text.ts';

/** The hints object, or null when design_data is not a plain object (null, an array, a string). */
export function hintRecord(designData: unknown): object | null {
  return typeof designData === 'object' && designData !== null && !Array.isArray(designData)
    ? designData
    : null;
}

/** An own data property only: no getters run, no prototype lookups. */
export function ownValue(target: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
}

/** A `#RGB`/`#RRGGBB` hint as `#rrggbb`, or null. */
export function colorHint(hints: object | null, key: string): string | null {
  const value = hints === null ? undefined : ownValue(hints, key);
  return typeof value === 'string' ? normalizeHex(value) : null;
}

/** A text hint cleaned for drawing (see `cleanText`), at most `maxChars`; null when absent or blank. */
export function textHint(hints: object | null, key: string, maxChars: number): string | null {
  const value = hints === null ? undefined : ownValue(hints, key);
  const cleaned = cleanText(value, maxChars);
  return cleaned === '' ? null : cleaned;
}

/** A boolean hint, or null when absent or not a boolean ("false" the string is not false). */
export function booleanHint(hints: object | null, key: string): boolean | null {
  const value = hints === null ? undefined : ownValue(hints, key);
  return typeof value === 'boolean' ? value : null;
}
