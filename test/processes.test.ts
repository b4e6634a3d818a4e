/**
 * test/processes.ts never leaves a child behind (a service that started slowly once kept `npm test`
 * waiting for 20 minutes): a start that times out kills the child, and so does the end of the test
 * process, however it ends. Children are found by a marker in their environment
 * (/proc/<pid>/environ), so what is checked is what runs on the machine, not the helper's word.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Child, childEnv, killAllChildren, spawnScript, startService, whenReady } from './processes.ts';

const MARK = 'CONVENE_TEST_MARK';

/** Live processes whose environment carries `MARK=marker` (a zombie's environment reads empty). */
function pidsMarked(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(`${MARK}=${marker}`)) {
        pids.push(Number(name));
      }
    } catch {
      // gone, or not ours
    }
  }
  return pids;
}

/** Resolves once `text` appears in the child's output. */
async function said(child: Child, text: string): Promise<void> {
  while (!child.output().includes(text)) {
    if (child.process.exitCode !== null) throw new Error(`exited before saying ${text}: ${child.output()}`);
    await sleep(20);
  }
}

/** Polls until no process carries `marker`; resolves with those still there after `ms`. */
async function goneWithin(marker: string, ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  while (pidsMarked(marker).length > 0 && Date.now() < deadline) await sleep(50);
  return pidsMarked(marker);
}

const skip = process.platform === 'linux' ? false : 'reads /proc (Linux)';

describe('child processes of the tests', { skip }, () => {
  /** A "database" that accepts connections and never answers: the service never becomes ready. */
  let stall: Server;
  let stallUrl: string;
  const sockets: Socket[] = [];
  const markers: string[] = [];
  const newMarker = () => {
    const marker = randomUUID();
    markers.push(marker);
    return marker;
  };

  before(async () => {
    stall = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => stall.listen(0, '127.0.0.1', resolve));
    stallUrl = `postgres://postgres@127.0.0.1:${(stall.address() as { port: number }).port}/never`;
  });
  after(async () => {
    await killAllChildren();
    // Whatever a test that failed left behind outside the helper's reach.
    for (const pid of markers.flatMap(pidsMarked)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => stall.close(() => resolve()));
  });

  it('kills a service that never becomes ready when its start times out', { timeout: 20_000 }, async () => {
    const marker = newMarker();
    const env = await childEnv(stallUrl, { PORT: '0', [MARK]: marker });
    const started = Date.now();
    const starting = startService(env, { readyTimeoutMs: 3_000 });
    assert.ok(pidsMarked(marker).length > 0, 'the service is running');
    await assert.rejects(starting, /service not ready within 3000 ms/);
    assert.ok(Date.now() - started < 10_000, 'the small ready timeout was used');
    assert.deepEqual(pidsMarked(marker), []);
  });

  it('kills the whole process group of a child that never becomes ready', async () => {
    const marker = newMarker();
    const child = spawnScript('test/process-fixtures/never-ready.ts', {
      PATH: process.env.PATH ?? '',
      [MARK]: marker,
    });
    await said(child, 'started');
    // The fixture, the process it started and tsx's esbuild process.
    assert.ok(pidsMarked(marker).length >= 2, 'the child and the processes it started');
    await assert.rejects(
      whenReady(child, new Promise<never>(() => {}), 'never-ready', { readyTimeoutMs: 300 }),
      /never-ready not ready within 300 ms/,
    );
    assert.deepEqual(await goneWithin(marker, 2_000), []);
  });

  for (const how of ['exit', 'throw', 'SIGTERM', 'SIGINT'] as const) {
    it(`kills the children of a test process that ends by ${how}`, { timeout: 20_000 }, async () => {
      const marker = newMarker();
      const serviceEnv = await childEnv(stallUrl, { PORT: '0', [MARK]: marker });
      const parent = spawnScript(
        'test/process-fixtures/leaves-a-service.ts',
        {
          PATH: process.env.PATH ?? '',
          SERVICE_ENV: JSON.stringify(serviceEnv),
        },
        [how],
      );
      await said(parent, 'spawned');
      // The service, and soon tsx's esbuild process in its group.
      assert.ok(pidsMarked(marker).length > 0, 'the service is running');

      // To the parent alone, not its group: its own exit must take the service with it.
      process.kill(parent.process.pid!, how === 'exit' || how === 'throw' ? 'SIGUSR2' : how);
      await parent.exited;
      assert.deepEqual(await goneWithin(marker, 3_000), []);
    });
  }
});
