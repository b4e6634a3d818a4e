/**
 * Rows rendered as JSON by PostgreSQL, for hot public lists. Parsing every field of every row in
 * the driver, mapping it in Drizzle and serializing it again in Node is most of a long list's CPU;
 * `json_build_object` does the same work in C and the service splices the rows into the envelope
 * unparsed (`sendJsonPage` in kernel/http/respond.ts). The fields are the response schema's, so
 * the output matches the general path field for field (tests compare the two).
 */
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

// ISO 8601 in UTC with milliseconds and `Z`, as every timestamp the service answers
// (docs/reference/README.md).
const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

export function jsonObjectOf(table: PgTable, fields: readonly string[]): SQL<string> {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const selected = fields.map((field) => {
    const column = columns[field];
    // Field names come from our own schemas, never from input; the check keeps sql.raw safe.
    if (column === undefined || !/^[a-z_]+$/.test(field)) throw new Error(`${field} is not a column`);
    const value =
      column.columnType === 'PgTimestamp'
        ? sql`to_char(${column} at time zone 'UTC', ${sql.raw(ISO_UTC)})`
        : sql`${column}`;
    return sql`${value} as ${sql.raw(`"${field}"`)}`;
  });
  // row_to_json of a one-row subselect: compact output (json_build_object writes `"a" : 1`) with
  // the fields in the schema's order.
  return sql<string>`(select row_to_json(r)::text from (select ${sql.join(selected, sql`, `)}) r)`;
}
