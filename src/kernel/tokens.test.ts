import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { generateToken, hashToken, sameHash, TOKEN_LENGTH } from './tokens.ts';

describe('opaque tokens', () => {
  it('are 32 random bytes as base64url (43 characters)', () => {
    const token = generateToken();
    assert.equal(token.length, TOKEN_LENGTH);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(token, 'base64url').length, 32);
  });

  it('do not repeat', () => {
    const tokens = new Set(Array.from({ length: 1000 }, generateToken));
    assert.equal(tokens.size, 1000);
  });

  it('hash to SHA-256 in lower-case hex', () => {
    const token = generateToken();
    assert.equal(hashToken(token), createHash('sha256').update(token).digest('hex'));
    assert.match(hashToken(token), /^[0-9a-f]{64}$/);
    assert.equal(hashToken('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('compare hashes in constant time, unequal on any difference or length', () => {
    const hash = hashToken('a');
    assert.equal(sameHash(hash, hashToken('a')), true);
    assert.equal(sameHash(hash, hashToken('b')), false);
    assert.equal(sameHash(hash, hash.slice(0, 63)), false);
    assert.equal(sameHash('', ''), true);
    assert.equal(sameHash(hash, `${hash.slice(0, 63)}${hash[63] === '0' ? '1' : '0'}`), false);
  });
});
