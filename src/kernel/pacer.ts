/**
 * A pacer for a statement or a notification that many callers ask for and one run can serve: at
 * most one run per interval, and a call inside the interval is not dropped but shares one run at
 * its end. Used for the webhook worker's claims and records, and for the wake-ups sent to other
 * processes by the webhook outbox and the mail module (they turn a stream of one-row statements
 * or notifications into one per interval).
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

/**
 * A best-effort notification to other processes, sent at most once per `intervalMs`: a call
 * inside the interval shares one notification at its end. A notification that fails is dropped;
 * the receivers' poll covers it.
 */
export function pacedNotifier(send: () => Promise<unknown>, intervalMs: number) {
  const pacer = new Pacer(intervalMs);
  const notify = () => {
    pacer.started();
    send().catch(() => {});
  };
  return {
    notify(): void {
      if (!pacer.defer(notify)) notify();
    },
    cancel(): void {
      pacer.cancel();
    },
  };
}
