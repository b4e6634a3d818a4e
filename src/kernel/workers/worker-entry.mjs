/**
 * The entry of every thread of kernel/workers/pool.ts. Plain JavaScript on purpose: it is what
 * makes the thread able to load TypeScript. On Node 20 the process's `--import tsx` does not reach
 * worker threads, so a task module written in TypeScript (tests, which run the sources) is loaded
 * after registering tsx here; the compiled one of `npm start` (dist/) is imported as it is.
 * Then `run` calls the function the task names, with its input.
 */
import { workerData } from 'piscina';

const { tasks } = workerData;
if (tasks.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
const module = await import(tasks);

/** Piscina calls this with what WorkerPool.run posted. */
export function run({ task, input }) {
  const fn = module[task];
  if (typeof fn !== 'function') throw new Error(`no task ${task} in ${tasks}`);
  return fn(input);
}
