import { randomFillSync } from 'node:crypto';

// One system call fills randomness for 400 ids instead of one call per id (a hot path: every
// request without an x-request-id gets one).
const POOL = Buffer.alloc(4000);
let offset = POOL.length;

function randomTen(): Buffer {
  if (offset + 10 > POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  offset += 10;
  return POOL.subarray(offset - 10, offset);
}

/**
 * UUID version 7 (RFC 9562): 48-bit Unix milliseconds, then random bits. Generated in code because
 * PostgreSQL 15 has no `uuidv7()`; time-ordered ids keep B-tree inserts local and make
 * `ORDER BY id` follow creation order.
 */
export function uuidv7(now = Date.now()): string {
  const bytes = Buffer.allocUnsafe(16);
  bytes.writeUIntBE(now, 0, 6);
  randomTen().copy(bytes, 6);
  bytes[6] = 0x70 | ((bytes[6] ?? 0) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
