import { customType, timestamp } from 'drizzle-orm/pg-core';

/** Millisecond precision, so a value round-trips exactly through a JavaScript Date and back. */
export const timestamptz = (name: string) =>
  timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

export const createdAt = () => timestamptz('created_at').notNull().defaultNow();
export const updatedAt = () => timestamptz('updated_at').notNull().defaultNow();

/**
 * `bytea` as a Buffer. node-postgres reads it as a Buffer, PGlite as a Uint8Array: both become a
 * Buffer over the same memory.
 */
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});
