import { sql } from 'drizzle-orm';
import type { Page } from '../http/respond.ts';

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
