/**
 * Request coalescing for an expensive read many callers ask at once (the sales summary of an
 * edition, docs/reference/tickets.md, "Sales"): at most one computation per key runs at a time, and
 * every caller still gets an answer computed after it arrived, so nothing it wrote before asking is
 * missed (no cache, no staleness). A caller arriving while a computation runs waits for it to end,
 * then shares the next one with every caller who arrived meanwhile: a burst of N callers costs two
 * computations, not N.
 */
export class Coalescer<T> {
  /** The computation running per key. */
  private readonly running = new Map<string, Promise<T>>();
  /** The computation queued per key, to start when the running one ends. */
  private readonly queued = new Map<string, Promise<T>>();

  run(key: string, compute: () => Promise<T>): Promise<T> {
    const queued = this.queued.get(key);
    if (queued !== undefined) return queued;
    const running = this.running.get(key);
    if (running === undefined) return this.start(key, compute);
    // The running computation started before this caller arrived: its answer may miss the
    // caller's own writes, so the caller takes the next one.
    const next = running
      .catch(() => undefined)
      .then(() => {
        this.queued.delete(key);
        return this.start(key, compute);
      });
    this.queued.set(key, next);
    return next;
  }

  private start(key: string, compute: () => Promise<T>): Promise<T> {
    const computation = compute().finally(() => {
      if (this.running.get(key) === computation) this.running.delete(key);
    });
    this.running.set(key, computation);
    return computation;
  }
}
