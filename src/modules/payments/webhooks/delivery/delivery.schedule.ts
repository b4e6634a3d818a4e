/**
 * When the next attempt of a failed delivery is due (docs/reference/webhooks.md): `WEBHOOK_RETRY_SCHEDULE`
 * gives the seconds before each attempt (the first entry is the delay before the first), spread by
 * ±10% so subscribers recovering from an outage are not hit by every retry at the same instant.
 * A `Retry-After` from the subscriber is honoured when it asks for longer, up to an hour.
 */

/** The longest a subscriber's `Retry-After` may push the next attempt. */
export const MAX_RETRY_AFTER_SECONDS = 3600;
const JITTER = 0.1;

/**
 * Seconds until the next attempt after `attemptsMade` attempts have failed, or undefined when the
 * schedule is exhausted (the delivery is then `failed`). `random` is in [0, 1).
 */
export function nextAttemptDelay(
  schedule: readonly number[],
  attemptsMade: number,
  retryAfterSeconds: number | undefined,
  random: number = Math.random(),
): number | undefined {
  const scheduled = schedule[attemptsMade];
  if (scheduled === undefined) return undefined;
  const jittered = scheduled * (1 - JITTER + 2 * JITTER * random);
  if (retryAfterSeconds === undefined) return jittered;
  return Math.max(jittered, Math.min(retryAfterSeconds, MAX_RETRY_AFTER_SECONDS));
}

/**
 * A `Retry-After` header in seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). Anything
 * else, or a time in the past, is ignored.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  const seconds = (date - now) / 1000;
  return seconds > 0 ? seconds : undefined;
}
