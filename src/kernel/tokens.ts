/**
 * Opaque bearer secrets handed to people outside the service (signature links, revoke links,
 * later payment links). Only the SHA-256 hash of a token is ever stored: a database leak reveals no
 * usable token, and a lookup hashes the presented token and searches by hash, so the plaintext
 * needs no index and is never compared in the database. 32 random bytes is 256 bits of entropy,
 * which is why a fast hash (no salt, no stretching) is enough.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Length of `generateToken()`'s output: 32 bytes as base64url without padding. */
export const TOKEN_LENGTH = 43;

/** A new opaque token: 32 random bytes, base64url (43 characters, no padding). */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of a token: SHA-256 of its UTF-8 bytes, lower-case hex (64 characters). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Constant-time equality of two hashes (or any two strings): the time taken does not depend on
 * where they first differ. Strings of different lengths are unequal (lengths are not secret).
 */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
