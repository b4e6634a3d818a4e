import { sql } from 'drizzle-orm';
import type { JsonPage, Page } from '../http/respond.ts';

export interface Window {
  page: number;
  limit: number;
  offset: number;
}

/**
 * Runs a page query and its count. `count(*) over ()` would save a round trip but returns nothing
 * on an empty page past the end, where the total is still wanted; two queries keep both right.
 */
export async function pageOf<T>(
  window: Window,
  items: Promise<T[]>,
  count: Promise<Array<{ total: number }>>,
): Promise<Page<T>> {
  const [rows, [counted]] = await Promise.all([items, count]);
  return { items: rows, total: counted?.total ?? 0, page: window.page, limit: window.limit };
}

export const countAll = sql<number>`count(*)::int`.as('total');

/** `count(*) over ()`: the total of the filtered rows, carried on every row of the page. */
export const totalOver = sql<number>`count(*) over ()`.mapWith(Number);

/**
 * A page of JSON-rendered rows (`{ total, json }`, see kernel/db/json.ts). Undefined for no rows:
 * an empty page cannot tell "past the end" from "nothing there", so the caller takes its general
 * path.
 */
export function jsonPageFromCounted(
  rows: Array<{ total: number; json: string }>,
  window: Window,
): JsonPage | undefined {
  if (rows.length === 0) return undefined;
  return {
    json: rows.map((row) => row.json),
    total: rows[0]?.total ?? 0,
    page: window.page,
    limit: window.limit,
  };
}
