/**
 * CPU work off the event loop: a bounded pool of worker threads (piscina) that runs the functions
 * a task module exports (the events module's documents.worker.ts: PDFs and signature images).
 *
 * Why: one certificate PDF is 100+ ms of CPU (more with large images), and a badge sheet grows
 * with its pages; on the event loop, every other request waits that long. In a worker thread the
 * loop stays free: `/health` and the API answer while documents render.
 *
 * Bounds, both configurable (docs/configuration.md):
 * - `threads` (RENDER_THREADS): threads at most. They start on the first task, not with the
 *   app (most processes and tests never render), and end after IDLE_MS without work.
 * - `maxQueue` (RENDER_QUEUE): tasks waiting for a thread. One more is refused at once with 503
 *   SERVICE_UNAVAILABLE and `Retry-After`, rather than waiting: a queue that only grows under a
 *   flood of renders would hold every caller's connection and memory until they time out.
 * - each thread's heap is capped (HEAP_MB): a document that would need more fails alone (500)
 *   and the thread is replaced; the process lives on.
 *
 * Threads run what the process runs. From the sources (tests), worker-entry.mjs registers tsx in
 * each thread (on Node 20 the `--import tsx` of the process does not reach worker threads) and
 * then imports the task module, about a second of CPU per thread before its first task; from
 * dist/ (`npm start`) it imports the compiled task module (`taskModule`) without tsx.
 *
 * So the threads belong to the process, not to one app: every WorkerPool with the same task module
 * and bounds runs on one piscina pool (`shared` below). A process holds one app in production; the
 * test files of a shard process build an app each, one after the other, and with a pool per app
 * each of them paid that start again. `close()` (the app's onClose) refuses new tasks, waits for
 * this pool's own tasks to end and lets go of the threads, which stay for the next app until
 * IDLE_MS pass without work. An idle thread does not keep the process alive: piscina unrefs each
 * thread, and its port while it has no task, so a process whose apps are closed ends as before.
 */
import { Piscina } from 'piscina';
import { AppError } from '../http/errors.ts';

const ENTRY = new URL('./worker-entry.mjs', import.meta.url);

/**
 * The task module `file` (its source name, `./x.worker.ts`) beside the module whose
 * `import.meta.url` is `from`: the source when the process runs src/ through tsx (tests), the
 * compiled `.js` when it runs dist/ (`npm start`, scripts/build.mjs), where no `.ts` file exists.
 */
export function taskModule(file: string, from: string): URL {
  return new URL(from.endsWith('.ts') ? file : file.replace(/\.ts$/, '.js'), from);
}
/** A thread without work for this long ends; the next task starts one again. */
const IDLE_MS = 60_000;
/** Heap of each thread: a hostile document fails alone. Like the process's own cap (npm start). */
const HEAP_MB = 512;
/** Seconds a refused caller is told to wait: about what a few renders take. */
const RETRY_AFTER_S = 2;

/** The names of a task module's functions that take one argument. */
type TaskName<M> = {
  [K in keyof M]: M[K] extends (input: never) => unknown ? K : never;
}[keyof M] &
  string;
type TaskInput<M, K extends TaskName<M>> = M[K] extends (input: infer I) => unknown ? I : never;
type TaskOutput<M, K extends TaskName<M>> = M[K] extends (input: never) => infer O ? Awaited<O> : never;

export interface WorkerPoolOptions {
  /** The module whose exported functions are the tasks. */
  tasks: URL;
  threads: number;
  maxQueue: number;
  /**
   * Tasks one thread runs at once (default 1). More only for tasks that mostly wait (the mail
   * threads' SMTP sends): a thread waiting on a server would otherwise hold its turn meanwhile.
   */
  tasksPerThread?: number;
}

/**
 * The piscina pools of this process, one per task module and bounds, made on the first task and
 * kept (see the header): their threads end after IDLE_MS idle, and a pool without threads holds
 * nothing.
 */
const shared = new Map<string, Piscina>();

const keyOf = (options: WorkerPoolOptions) =>
  `${options.tasks.href} ${options.threads} ${options.maxQueue} ${options.tasksPerThread ?? 1}`;

function sharedPiscina(options: WorkerPoolOptions): Piscina {
  const key = keyOf(options);
  let pool = shared.get(key);
  if (pool === undefined) {
    pool = new Piscina({
      filename: ENTRY.href,
      workerData: { tasks: options.tasks.href },
      minThreads: 0,
      maxThreads: options.threads,
      maxQueue: options.maxQueue,
      concurrentTasksPerWorker: options.tasksPerThread ?? 1,
      idleTimeout: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
    });
    shared.set(key, pool);
  }
  return pool;
}

export class WorkerPool<M> {
  #isClosed = false;
  /** This pool's tasks not yet settled: close() waits for them. */
  readonly #running = new Set<Promise<unknown>>();

  constructor(private readonly options: WorkerPoolOptions) {}

  /**
   * Runs `task` of the task module in a thread with `input` (copied by structured clone: plain
   * data, Dates and Buffers, which arrive as Uint8Array). A full queue is a 503.
   */
  async run<K extends TaskName<M>>(task: K, input: TaskInput<M, K>): Promise<TaskOutput<M, K>> {
    if (this.#isClosed) throw new AppError('SERVICE_UNAVAILABLE', 'The service is shutting down');
    const pool = sharedPiscina(this.options);
    if (pool.queueSize >= this.options.maxQueue) throw busy();
    const running = pool.run({ task, input }, { name: 'run' }) as Promise<TaskOutput<M, K>>;
    const settled = running.then(
      () => undefined,
      () => undefined,
    );
    this.#running.add(settled);
    void settled.then(() => this.#running.delete(settled));
    return running;
  }

  /** Tasks waiting for a thread (for metrics and tests). */
  get queued(): number {
    return shared.get(keyOf(this.options))?.queueSize ?? 0;
  }

  /** Refuses new tasks and resolves once this pool's tasks have ended; the threads stay (header). */
  async close(): Promise<void> {
    this.#isClosed = true;
    await Promise.all(this.#running);
  }
}

const busy = () =>
  new AppError('SERVICE_UNAVAILABLE', 'Too many documents are being prepared; retry shortly', {
    headers: { 'retry-after': String(RETRY_AFTER_S) },
  });

/** A Uint8Array that crossed from a thread, as a Buffer over the same memory (no copy). */
export const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
