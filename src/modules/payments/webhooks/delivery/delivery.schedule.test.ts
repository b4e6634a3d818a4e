import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_RETRY_AFTER_SECONDS, nextAttemptDelay, parseRetryAfter } from './delivery.schedule.ts';

const SCHEDULE = [0, 5, 300, 1800];

describe('delivery schedule', () => {
  it('follows the schedule, spread by at most ±10%', () => {
    assert.equal(nextAttemptDelay(SCHEDULE, 1, undefined, 0.5), 5);
    assert.equal(nextAttemptDelay(SCHEDULE, 2, undefined, 0), 270);
    assert.ok(Math.abs((nextAttemptDelay(SCHEDULE, 3, undefined, 0.999_999) ?? 0) - 1980) < 0.01);
    assert.equal(nextAttemptDelay(SCHEDULE, 0, undefined, 0.9), 0);
  });

  it('ends after the last entry', () => {
    assert.equal(nextAttemptDelay(SCHEDULE, 4, undefined), undefined);
    assert.equal(nextAttemptDelay([0], 1, undefined), undefined);
  });

  it('waits longer when Retry-After asks for it, up to an hour', () => {
    assert.equal(nextAttemptDelay(SCHEDULE, 1, 120, 0.5), 120);
    assert.equal(nextAttemptDelay(SCHEDULE, 2, 1, 0.5), 300);
    assert.equal(nextAttemptDelay(SCHEDULE, 1, 86_400, 0.5), MAX_RETRY_AFTER_SECONDS);
    assert.equal(nextAttemptDelay(SCHEDULE, 4, 10), undefined);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    assert.equal(parseRetryAfter('30', now), 30);
    assert.equal(parseRetryAfter(['7'], now), 7);
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 10:01:00 GMT', now), 60);
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now), undefined);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter('-5', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });
});
