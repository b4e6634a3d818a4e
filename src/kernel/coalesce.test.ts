/** Request coalescing (coalesce.ts): one computation per key at a time, each answer begun after its caller arrived. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Coalescer } from './coalesce.ts';

/** A computation the test ends by hand, counting its starts. */
function gate() {
  const ends: Array<(value: number) => void> = [];
  let starts = 0;
  return {
    compute: () =>
      new Promise<number>((resolve) => {
        starts++;
        ends.push(resolve);
      }),
    end: (index: number, value: number) => ends[index]?.(value),
    starts: () => starts,
  };
}

describe('Coalescer', () => {
  it('runs one computation per key at a time; callers who came meanwhile share the next', async () => {
    const runs = new Coalescer<number>();
    const g = gate();
    const first = runs.run('a', g.compute);
    // These arrive while the first runs: they may not take its answer (it began before them).
    const second = runs.run('a', g.compute);
    const third = runs.run('a', g.compute);
    assert.equal(g.starts(), 1);
    g.end(0, 1);
    assert.equal(await first, 1);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(g.starts(), 2);
    g.end(1, 2);
    assert.deepEqual(await Promise.all([second, third]), [2, 2]);
    // Nothing running: a new caller starts afresh.
    const fourth = runs.run('a', g.compute);
    assert.equal(g.starts(), 3);
    g.end(2, 3);
    assert.equal(await fourth, 3);
  });

  it('keeps keys apart, and a failure reaches only the callers who shared it', async () => {
    const runs = new Coalescer<number>();
    let calls = 0;
    const failing = runs.run('x', async () => {
      calls++;
      throw new Error('database gone');
    });
    const other = runs.run('y', async () => 7);
    const after = runs.run('x', async () => {
      calls++;
      return 8;
    });
    await assert.rejects(failing, /database gone/);
    assert.equal(await other, 7);
    assert.equal(await after, 8);
    assert.equal(calls, 2);
  });
});
