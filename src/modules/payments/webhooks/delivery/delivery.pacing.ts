/**
 * Claim pacing. Under load every commit wakes the worker; claiming at most once per interval turns
 * a stream of one-row claims into batches (the benchmark found claims of one or two rows each to
 * be half of PostgreSQL's work). It adds at most one interval to a delivery's latency.
 */
export class ClaimPacer {
  private lastClaimAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly intervalMs: number) {}

  /**
   * Whether a claim must wait: true while a deferred wake-up is already scheduled (this one shares
   * it) or the last claim is more recent than the interval (then `retry` runs when it ends).
   */
  defer(retry: () => void): boolean {
    if (this.timer !== undefined) return true;
    const wait = this.lastClaimAt + this.intervalMs - performance.now();
    if (wait <= 0) return false;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      retry();
    }, wait);
    this.timer.unref();
    return true;
  }

  /** A claim starts now. */
  claimed(): void {
    this.lastClaimAt = performance.now();
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
