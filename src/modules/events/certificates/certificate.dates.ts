/**
 * Dates as a certificate prints them: English, day first, UTC (the calendar day a timestamp falls
 * on in UTC, so the same certificate reads the same wherever it is rendered). Ranges name only
 * what changes: "12–14 March 2026", "30 March – 2 April 2026", "30 December 2025 – 2 January 2026".
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function isValidDate(value: unknown): value is Date {
  return value instanceof Date && !Number.isNaN(value.getTime());
}

/** "14 March 2026"; '' for anything that is not a valid Date. */
export function formatDate(date: unknown): string {
  if (!isValidDate(date)) return '';
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/**
 * The days from `start` to `end`. One day when both fall on the same day, or when `end` is
 * missing, invalid or before `start` (the start is the one date that is surely right); '' when
 * `start` is not a valid Date.
 */
export function formatDateRange(start: unknown, end: unknown): string {
  if (!isValidDate(start)) return '';
  if (!isValidDate(end) || end.getTime() < start.getTime()) return formatDate(start);
  const [sd, sm, sy] = [start.getUTCDate(), start.getUTCMonth(), start.getUTCFullYear()];
  const [ed, em, ey] = [end.getUTCDate(), end.getUTCMonth(), end.getUTCFullYear()];
  if (sy !== ey) return `${formatDate(start)} – ${formatDate(end)}`;
  if (sm !== em) return `${sd} ${MONTHS[sm]} – ${ed} ${MONTHS[em]} ${ey}`;
  if (sd !== ed) return `${sd}–${ed} ${MONTHS[sm]} ${sy}`;
  return formatDate(start);
}
