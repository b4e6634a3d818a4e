/**
 * The time source of the in-process caches (public microcache, verified tokens, actor directory),
 * given to them rather than read from `Date.now()` so a test can move time forward instead of
 * sleeping through a TTL. Epoch milliseconds; `lru-cache` takes it as its `perf` clock.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
