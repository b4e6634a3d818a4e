/**
 * A bounded memory of bearer tokens that one verifier has already accepted, so a client that sends
 * the same token on every request pays for the Ed25519 signature check (about 0.3 ms of CPU) once
 * rather than per request.
 *
 * Invariants:
 * - Only successes are stored. A refused token (bad signature, expired, wrong issuer, JWKS down)
 *   is checked again every time it is presented, so a forged token is always a 401.
 * - The key is the SHA-256 of the whole compact token: a different signature, header or claim is a
 *   different key, entries have a fixed size however long the token, and the token text itself is
 *   not kept in long-lived memory.
 * - An entry never outlives the token's `exp` (the instant from which the verifier refuses it:
 *   `exp <= now` in whole seconds, without clock skew), and never outlives `maxAgeMs` after it was
 *   stored. The cap bounds how long a token keeps working after its signing key is rotated out or
 *   removed. Every token has an `exp`: the verifier refuses one without (contract 2).
 * - The cache belongs to one verifier, whose issuer, audience and keys were applied when the entry
 *   was stored; `nbf` and `iat` were then at most the allowed skew ahead, and time only moves
 *   forward.
 * - Size is bounded: past `maxEntries` the oldest stored entry is dropped (a Map iterates in
 *   insertion order). Hits do not reorder entries, so a hit costs a hash and a lookup, not a
 *   delete and re-insert. Expired entries are dropped lazily, when looked up or evicted; no timers.
 */
import { hashToken } from '../tokens.ts';
import type { Identity } from './identity.ts';

export interface VerifiedTokenCacheOptions {
  /** Upper bound on the number of remembered tokens. */
  maxEntries: number;
  /** Longest time an entry is trusted, whatever the token's `exp`. */
  maxAgeMs: number;
  /** Current time in epoch milliseconds. */
  now: () => number;
}

interface Entry {
  identity: Identity;
  /** Epoch milliseconds from which the entry no longer counts. */
  expiresAt: number;
}

export class VerifiedTokenCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: VerifiedTokenCacheOptions) {}

  get size(): number {
    return this.entries.size;
  }

  /** The identity of a token accepted before and still within its lifetime here, else undefined. */
  get(token: string): Identity | undefined {
    const key = hashToken(token);
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.options.now() < entry.expiresAt) return entry.identity;
    this.entries.delete(key);
    return undefined;
  }

  /**
   * Remembers a token that was just verified. `exp` is the token's claim in epoch seconds.
   * `verifiedAt` is the instant the claims were checked against.
   */
  set(token: string, identity: Identity, exp: number, verifiedAt: number): void {
    const expiresAt = Math.min(exp * 1000, verifiedAt + this.options.maxAgeMs);
    if (expiresAt <= this.options.now()) return;
    const key = hashToken(token);
    // Delete first so a re-stored key moves to the end of the insertion order.
    this.entries.delete(key);
    this.entries.set(key, { identity, expiresAt });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
