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
 *   removed. Every token has an `exp`: the verifier refuses one without (docs/reference/auth.md).
 * - The cache belongs to one verifier, whose issuer, audience and keys were applied when the entry
 *   was stored; `nbf` and `iat` were then at most the allowed skew ahead, and time only moves
 *   forward.
 * - Size is bounded: past `maxEntries` the least recently used entry is dropped (`lru-cache`).
 *   Each entry carries its own TTL (the time left until the earlier of `exp` and the cap), checked
 *   against the injected clock on every lookup; an expired entry is dropped when looked up or
 *   evicted, with no timers.
 */
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.ts';
import { hashToken } from '../tokens.ts';
import type { Identity } from './identity.ts';

export interface VerifiedTokenCacheOptions {
  /** Upper bound on the number of remembered tokens. */
  maxEntries: number;
  /** Longest time an entry is trusted, whatever the token's `exp`. */
  maxAgeMs: number;
  /** Current time in epoch milliseconds. */
  now: Clock['now'];
}

export class VerifiedTokenCache {
  private readonly entries: LRUCache<string, Identity>;

  constructor(private readonly options: VerifiedTokenCacheOptions) {
    this.entries = new LRUCache<string, Identity>({
      max: options.maxEntries,
      // Per-entry TTLs; 0 makes every lookup read the clock (no cached "now", no timer).
      ttlResolution: 0,
      perf: { now: options.now },
    });
  }

  get size(): number {
    // lru-cache counts an expired entry until it is looked up; `purgeStale` makes the count exact.
    this.entries.purgeStale();
    return this.entries.size;
  }

  /** The identity of a token accepted before and still within its lifetime here, else undefined. */
  get(token: string): Identity | undefined {
    return this.entries.get(hashToken(token));
  }

  /**
   * Remembers a token that was just verified. `exp` is the token's claim in epoch seconds.
   * `verifiedAt` is the instant the claims were checked against.
   */
  set(token: string, identity: Identity, exp: number, verifiedAt: number): void {
    const expiresAt = Math.min(exp * 1000, verifiedAt + this.options.maxAgeMs);
    // lru-cache treats an entry as stale once `now - start > ttl`; ours ends at `now >= expiresAt`,
    // hence one millisecond less. A TTL of 0 would mean "forever", so nothing that short is stored.
    const ttl = expiresAt - this.options.now() - 1;
    if (ttl <= 0) return;
    this.entries.set(hashToken(token), identity, { ttl });
  }
}
