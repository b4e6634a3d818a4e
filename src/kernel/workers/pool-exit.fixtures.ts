/**
 * A process for pool.test.ts: runs a task on the worker pool, closes the pool and does nothing
 * else, so it ends by itself only if the idle thread kept after close does not hold it.
 */
import { WorkerPool } from './pool.ts';

const pool = new WorkerPool<typeof import('./pool.fixtures.ts')>({
  tasks: new URL('./pool.fixtures.ts', import.meta.url),
  threads: 1,
  maxQueue: 4,
});
const { label } = await pool.run('whichThread', 'ran');
await pool.close();
console.log(label);
