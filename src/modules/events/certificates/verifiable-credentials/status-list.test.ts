/**
 * The encoding is checked with Digital Bazaar's decoders (the authors of the specification), not
 * with our own code read backwards.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { Bitstring } from '@digitalbazaar/bitstring';
import { decodeList } from '@digitalbazaar/vc-bitstring-status-list';
import { encodeStatusList, STATUS_LIST_SIZE, statusListIndex } from './status-list.ts';

/** Example 3 of the Recommendation: an empty 131,072-bit revocation list. */
const SPEC_EXAMPLE = 'uH4sIAAAAAAAAA-3BMQEAAADCoPVPbQwfoAAAAAAAAAAAAAAAAAAAAIC3AYbSVKsAQAAA';

describe('statusListIndex', () => {
  it('is a bijection of [0, 131072)', () => {
    const seen = new Uint8Array(STATUS_LIST_SIZE);
    for (let serial = 0; serial < STATUS_LIST_SIZE; serial++) {
      const index = statusListIndex(serial);
      assert.ok(Number.isInteger(index) && index >= 0 && index < STATUS_LIST_SIZE, `index of ${serial}`);
      assert.equal(seen[index], 0, `index ${index} given twice`);
      seen[index] = 1;
    }
  });

  it('scatters consecutive certificates: never the same byte, let alone adjacent bits', () => {
    for (let serial = 1; serial < STATUS_LIST_SIZE; serial++) {
      const gap = Math.abs(statusListIndex(serial) - statusListIndex(serial - 1));
      assert.ok(gap >= 8, `serials ${serial - 1} and ${serial} land ${gap} bits apart`);
    }
    assert.notEqual(statusListIndex(0), 0);
  });

  it('refuses a serial outside the list', () => {
    for (const serial of [-1, STATUS_LIST_SIZE, 1.5, Number.NaN]) {
      assert.throws(() => statusListIndex(serial), RangeError);
    }
  });
});

describe('encodeStatusList', () => {
  const revoked = [0, 7, 8, 12_345, 94_567, STATUS_LIST_SIZE - 1];

  it('is a Multibase base64url (u, no padding) of a GZIP bitstring of 16 KiB', () => {
    const encoded = encodeStatusList(revoked);
    assert.match(encoded, /^u[A-Za-z0-9_-]+$/);
    const bytes = gunzipSync(Buffer.from(encoded.slice(1), 'base64url'));
    assert.equal(bytes.length, STATUS_LIST_SIZE / 8);
    assert.equal(bytes[0], 0b1000_0001, 'index 0 is the left-most (most significant) bit of the first byte');
    assert.equal(bytes[1], 0b1000_0000);
    assert.equal(bytes[bytes.length - 1], 0b0000_0001, 'the last index is the right-most bit');
  });

  it('decodes with @digitalbazaar/bitstring to exactly the bits that were set', async () => {
    const encoded = encodeStatusList(revoked);
    // Bitstring works on the base64url text; the Multibase `u` header is the caller's to strip.
    const bitstring = new Bitstring({ buffer: await Bitstring.decodeBits({ encoded: encoded.slice(1) }) });
    assert.ok(bitstring.length >= 131_072);
    const expected = new Set(revoked);
    for (let index = 0; index < bitstring.length; index++) {
      assert.equal(bitstring.get(index), expected.has(index), `bit ${index}`);
    }
  });

  it('decodes with @digitalbazaar/vc-bitstring-status-list, which insists on the u prefix', async () => {
    const list = await decodeList({ encodedList: encodeStatusList(revoked) });
    assert.equal(list.length, STATUS_LIST_SIZE);
    for (const index of revoked) assert.equal(list.getStatus(index), true);
    for (const index of [1, 6, 9, 12_344, 94_568]) assert.equal(list.getStatus(index), false);
    await assert.rejects(decodeList({ encodedList: encodeStatusList(revoked).slice(1) }), /"u"/);
  });

  it('encodes an empty list as the bitstring of the specification example', async () => {
    const ours = await Bitstring.decodeBits({ encoded: encodeStatusList([]).slice(1) });
    const theirs = await Bitstring.decodeBits({ encoded: SPEC_EXAMPLE.slice(1) });
    assert.deepEqual(ours, theirs);
  });

  it('takes a larger list in whole bytes, never a smaller one', async () => {
    const size = 2 * STATUS_LIST_SIZE;
    const list = await decodeList({ encodedList: encodeStatusList([size - 1], size) });
    assert.equal(list.length, size);
    assert.equal(list.getStatus(size - 1), true);
    assert.throws(() => encodeStatusList([], STATUS_LIST_SIZE / 2), RangeError);
    assert.throws(() => encodeStatusList([], STATUS_LIST_SIZE + 4), RangeError);
  });

  it('refuses an index outside the list', () => {
    for (const index of [-1, STATUS_LIST_SIZE, 0.5]) {
      assert.throws(() => encodeStatusList([3, index]), RangeError);
    }
  });
});
