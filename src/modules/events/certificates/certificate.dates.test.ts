/** Dates as certificates print them: English, UTC, ranges naming only what changes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatDate, formatDateRange } from './certificate.dates.ts';

const at = (iso: string) => new Date(iso);

describe('certificate dates', () => {
  it('writes a day in English, in UTC', () => {
    assert.equal(formatDate(at('2026-03-14T10:00:00Z')), '14 March 2026');
    // 23:30 in São Paulo is already the next day in UTC: the UTC day is printed.
    assert.equal(formatDate(at('2026-03-14T23:30:00-03:00')), '15 March 2026');
  });

  it('names only what changes across a range', () => {
    const range = (start: string, end: string) => formatDateRange(at(start), at(end));
    assert.equal(range('2026-03-12T09:00:00Z', '2026-03-14T18:00:00Z'), '12–14 March 2026');
    assert.equal(range('2026-03-30T09:00:00Z', '2026-04-02T18:00:00Z'), '30 March – 2 April 2026');
    assert.equal(range('2025-12-30T09:00:00Z', '2026-01-02T18:00:00Z'), '30 December 2025 – 2 January 2026');
    assert.equal(range('2026-03-14T09:00:00Z', '2026-03-14T18:00:00Z'), '14 March 2026');
  });

  it('falls back to the start, or to nothing, for dates that make no range', () => {
    assert.equal(formatDateRange(at('2026-03-14T09:00:00Z'), at('2026-03-10T09:00:00Z')), '14 March 2026');
    assert.equal(formatDateRange(at('2026-03-14T09:00:00Z'), new Date(Number.NaN)), '14 March 2026');
    assert.equal(formatDateRange(at('2026-03-14T09:00:00Z'), '2026-03-20'), '14 March 2026');
    assert.equal(formatDateRange(new Date(Number.NaN), at('2026-03-14T09:00:00Z')), '');
    assert.equal(formatDate(null), '');
  });
});
