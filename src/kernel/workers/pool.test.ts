/**
 * The worker pool's threads belong to the process (pool.ts): apps built one after the other reuse
 * them, a closed pool refuses work, and closing leaves nothing that keeps the process alive.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { threadId } from 'node:worker_threads';
import { runScript } from '../../../test/processes.ts';
import { AppError } from '../http/errors.ts';
import { WorkerPool } from './pool.ts';

type Tasks = typeof import('./pool.fixtures.ts');

const options = { tasks: new URL('./pool.fixtures.ts', import.meta.url), threads: 1, maxQueue: 4 };

/** A thread's port is held (keeps the process alive) while it has a task, and let go after. */
const heldPorts = () => process.getActiveResourcesInfo().filter((kind) => kind === 'MessagePort');

describe('the worker pool', () => {
  it("runs a task in a thread, which the next app's pool reuses once the first is closed", async () => {
    const first = new WorkerPool<Tasks>(options);
    const ran = await first.run('whichThread', 'first');
    assert.equal(ran.label, 'first');
    assert.notEqual(ran.threadId, threadId, 'not on the main thread');
    await first.close();

    const second = new WorkerPool<Tasks>(options);
    assert.equal((await second.run('whichThread', 'second')).threadId, ran.threadId, 'the same thread');
    await second.close();
  });

  it('refuses a task once closed, and waits for its own tasks to end when closing', async () => {
    const pool = new WorkerPool<Tasks>(options);
    const running = pool.run('whichThread', 'in flight');
    await pool.close();
    assert.equal((await running).label, 'in flight', 'the task in flight ended before close resolved');
    await assert.rejects(
      pool.run('whichThread', 'late'),
      (error: unknown) => error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE',
    );
  });

  it('leaves no thread keeping the process alive once its pools are closed', async () => {
    // Counted against what the process held before: in a shard (test/shards/), files before this one
    // may hold ports of their own; this pool must add none once closed.
    const before = heldPorts().length;
    const pool = new WorkerPool<Tasks>(options);
    await pool.run('whichThread', 'one');
    await pool.close();
    assert.equal(heldPorts().length, before);
    // A process that closed its pool with the thread still up ends by itself (runScript kills it
    // and fails after its timeout otherwise).
    const { code, stdout, stderr } = await runScript('src/kernel/workers/pool-exit.fixtures.ts', [], {
      PATH: process.env.PATH ?? '',
    });
    assert.equal(code, 0, stderr);
    assert.equal(stdout.trim(), 'ran');
  });
});
