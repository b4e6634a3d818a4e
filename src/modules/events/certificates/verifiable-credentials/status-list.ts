/**
 * Bitstring Status List v1.0 (W3C Recommendation, 15 May 2025): where each certificate's revocation
 * bit sits, and the `encodedList` of a list.
 */
import { gzipSync } from 'node:zlib';

/**
 * Entries per list: the specification's minimum, 131,072 bits = 16 KiB uncompressed (§2.2
 * "credentialSubject.encodedList": "The uncompressed bitstring MUST be at least 16KB in size"),
 * which is also what gives holders herd privacy (§6.1 "Revocation Bitstring Length").
 */
export const STATUS_LIST_SIZE = 131_072;

/*
 * §2.1 "statusListIndex": implementations SHOULD assign indexes randomly, so that neither the recency
 * of a credential nor the size of the group can be read from its position. A pseudo-random
 * permutation of [0, 2^17) keeps the allocation a plain counter (no collisions to retry, no table of
 * used slots): multiplying by an odd number is a bijection modulo a power of two, and so is XOR with
 * a constant below it. The multiplier is ~2^17 / golden ratio, which spreads consecutive serials far
 * apart. Changing either constant would move the bit of every credential already issued.
 */
const MULTIPLIER = 81_005;
const MASK = 0x1_d2c5;

/** The list position of the `serial`-th credential of a list (serial in [0, STATUS_LIST_SIZE)). */
export function statusListIndex(serial: number): number {
  if (!Number.isInteger(serial) || serial < 0 || serial >= STATUS_LIST_SIZE) {
    throw new RangeError(`status list serial ${serial} is outside [0, ${STATUS_LIST_SIZE})`);
  }
  // serial * MULTIPLIER < 2^34, exact in a double.
  return ((serial * MULTIPLIER) % STATUS_LIST_SIZE) ^ MASK;
}

/**
 * The `encodedList` of a list whose set bits are `setIndices` (revoked credentials), per §2.2
 * "credentialSubject.encodedList", §3.3 "Bitstring Generation Algorithm" and §7.1 "Bitstring
 * Encoding": index 0 is the left-most bit of the first byte (its most significant bit); the bitstring
 * is GZIP-compressed (RFC 1952) and then "Multibase-encoded base64url (with no padding)", i.e. the
 * Multibase prefix `u` followed by unpadded base64url (RFC 4648 §5). The Recommendation's own
 * examples have that shape: `"uH4sIAAAAAAAAA-3BMQEAAADCoPVPbQwfoAAAAAAAAAAAAAAAAAAAAIC3AYbSVKsAQAAA"`.
 */
export function encodeStatusList(setIndices: Iterable<number>, size = STATUS_LIST_SIZE): string {
  if (!Number.isInteger(size) || size < STATUS_LIST_SIZE || size % 8 !== 0) {
    throw new RangeError(
      `a status list holds a multiple of 8 bits, at least ${STATUS_LIST_SIZE}; got ${size}`,
    );
  }
  const bits = new Uint8Array(size / 8);
  for (const index of setIndices) {
    if (!Number.isInteger(index) || index < 0 || index >= size) {
      throw new RangeError(`status list index ${index} is outside [0, ${size})`);
    }
    bits[index >> 3]! |= 0x80 >> (index & 7);
  }
  return `u${gzipSync(bits).toString('base64url')}`;
}
