/**
 * The retry decision (docs/reference/webhooks.md): what an attempt's answer makes of its delivery. A 2xx is
 * `delivered`; a 410 is `failed` and disables the endpoint; anything else is another attempt
 * after the schedule's delay (or the subscriber's `Retry-After`), or `failed` after the last.
 * Pure: the worker applies the decision (records it, logs it, counts it, wakes for the retry).
 */

import { nextAttemptDelay } from './delivery.schedule.ts';
import type { AttemptResult } from './delivery.sender.ts';
import type { AttemptOutcome, ClaimedDelivery } from './delivery-queue.repository.ts';

export interface Decision {
  /** `outcome.succeeded`: the subscriber answered 2xx. */
  outcome: AttemptOutcome;
  /** The subscriber answered 410 Gone: its endpoint is disabled. */
  endpointGone: boolean;
  /** Why the attempt failed and what happens next, for the log; absent on success. */
  log?: { level: 'info' | 'warn'; message: string; context: Record<string, unknown> };
}

export function decide(
  delivery: ClaimedDelivery,
  claimId: string,
  result: AttemptResult,
  retryScheduleSeconds: readonly number[],
): Decision {
  const status = result.responseStatus;
  const succeeded = status !== undefined && status >= 200 && status <= 299;
  const base = {
    deliveryId: delivery.id,
    endpointId: delivery.endpoint_id,
    claimId,
    succeeded,
    startedAt: result.startedAt,
    durationMs: result.durationMs,
    responseStatus: status ?? null,
    responseBody: result.responseBody ?? null,
    error: result.error ?? null,
  };
  if (succeeded) {
    return {
      outcome: { ...base, status: 'delivered', retryInSeconds: null },
      endpointGone: false,
    };
  }
  const attemptsMade = delivery.attempts + 1;
  const context = {
    delivery_id: delivery.id,
    endpoint_id: delivery.endpoint_id,
    attempt: attemptsMade,
    response_status: status,
    error: result.error,
  };
  const failed = { ...base, status: 'failed', retryInSeconds: null } as const;
  if (status === 410) {
    return {
      outcome: failed,
      endpointGone: true,
      log: {
        level: 'warn',
        message: 'subscriber answered 410 Gone: delivery failed, endpoint disabled',
        context,
      },
    };
  }
  const delay = nextAttemptDelay(retryScheduleSeconds, attemptsMade, result.retryAfterSeconds);
  if (delay === undefined) {
    return {
      outcome: failed,
      endpointGone: false,
      log: { level: 'warn', message: 'webhook delivery failed: last attempt of the schedule', context },
    };
  }
  return {
    outcome: { ...base, status: 'pending', retryInSeconds: delay },
    endpointGone: false,
    log: {
      level: 'info',
      message: 'webhook attempt failed',
      context: { ...context, retry_in_s: Math.round(delay * 10) / 10 },
    },
  };
}
