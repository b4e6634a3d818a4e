/**
 * Pacing of the worker's statements (and of the outbox's notifications to other processes). Under load every commit wakes the worker and every answer
 * finishes an attempt; starting a claim, or a record of finished attempts, at most once per
 * interval turns a stream of one-row statements into batches (the benchmark found claims of one or
 * two rows each to be half of PostgreSQL's work, and records of two or three the worker's largest
 * cost). It adds at most one interval to when a delivery is claimed or its attempt recorded.
 */
export class Pacer {
  private lastStartedAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly intervalMs: number) {}

  /**
   * Whether a statement must wait: true while a deferred run is already scheduled (this one shares
   * it) or the last statement started less than the interval ago (then `retry` runs when it ends).
   */
  defer(retry: () => void): boolean {
    if (this.timer !== undefined) return true;
    const wait = this.lastStartedAt + this.intervalMs - performance.now();
    if (wait <= 0) return false;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      retry();
    }, wait);
    this.timer.unref();
    return true;
  }

  /** A statement starts now. */
  started(): void {
    this.lastStartedAt = performance.now();
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
