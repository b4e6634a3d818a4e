import { timestamp } from 'drizzle-orm/pg-core';

/** Millisecond precision, so a value round-trips exactly through a JavaScript Date and back. */
export const timestamptz = (name: string) =>
  timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

export const createdAt = () => timestamptz('created_at').notNull().defaultNow();
export const updatedAt = () => timestamptz('updated_at').notNull().defaultNow();
