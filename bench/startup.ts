/**
 * `npm run bench:startup`: how long Convene takes from `node` to the first 200 on `/health`, on a
 * fresh DATA_DIR (the embedded database created and migrated) and on a restart (the same DATA_DIR
 * again), against the floor measured in the same run: PGlite opening the same kind of data
 * directory plus a bare Fastify server answering `/health` (bench/startup-floor.mjs). Target
 * (issue 29): Convene ≤ 2.5 × floor + 1 s, fresh and on restart.
 *
 * Each figure is the median of BENCH_STARTUP_ROUNDS rounds (default 3); a round starts the floor
 * and Convene one after the other, so both see the same load. Convene runs its compiled build
 * (dist/, as `npm start` does; built first when stale, outside the timing). A third row shows the
 * same start through tsx from the sources, how `npm start` ran before dist/ (no target: for
 * comparison). `npm` itself adds its own start (about 0.3 s) to `npm start`; no row counts it.
 *
 * Exit code 0 when both targets hold, 1 when one does not.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signalGroup, spawnInGroup } from '../test/processes.ts';
import {
  baseEnv,
  freePort,
  log,
  logLoad,
  positiveInteger,
  printTable,
  ROOT,
  serviceArgs,
  sleep,
} from './lib.ts';

const ROUNDS = positiveInteger('BENCH_STARTUP_ROUNDS', 3);
const MAX_WAIT_MS = 120_000;

type Kind = 'floor' | 'convene' | 'tsx';

const ARGS: Record<Kind, (dataDir: string, port: number) => string[]> = {
  floor: (dataDir, port) => ['bench/startup-floor.mjs', dataDir, String(port)],
  // `npm start`'s node flags (package.json), on the build and on the sources.
  convene: () => [...serviceArgs(), 'dist/main.js'],
  tsx: () => [...serviceArgs(), '--import', 'tsx', 'src/main.ts'],
};

/** Milliseconds from spawning `kind` on `dataDir` to its first 200 on /health; then SIGTERM. */
async function timeToHealth(kind: Kind, dataDir: string): Promise<number> {
  const port = await freePort(18560);
  const started = performance.now();
  const child = spawnInGroup(process.execPath, ARGS[kind](dataDir, port), {
    cwd: ROOT,
    env: { ...baseEnv(), DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    while (performance.now() - started < MAX_WAIT_MS) {
      if (child.exitCode !== null) throw new Error(`${kind} exited (${child.exitCode}): ${stderr}`);
      const answer = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
      if (answer?.status === 200) return performance.now() - started;
      await answer?.arrayBuffer();
      // Polling every 20 ms costs the starting process little and bounds the error to 20 ms.
      await sleep(20);
    }
    throw new Error(`${kind} did not answer /health within ${MAX_WAIT_MS / 1000} s: ${stderr}`);
  } finally {
    // SIGTERM, so the embedded database closes cleanly: the next start is a plain restart.
    signalGroup(child, 'SIGTERM');
    await exited;
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const seconds = (ms: number) => (ms / 1000).toFixed(2);

async function main(): Promise<number> {
  log(`node ${process.version}, ${ROUNDS} round(s), medians`);
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  logLoad('before the run');
  const times: Record<Kind, { fresh: number[]; restart: number[] }> = {
    floor: { fresh: [], restart: [] },
    convene: { fresh: [], restart: [] },
    tsx: { fresh: [], restart: [] },
  };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const kind of ['floor', 'convene', 'tsx'] as const) {
      const dataDir = mkdtempSync(join(tmpdir(), `convene-startup-${kind}-`));
      try {
        times[kind].fresh.push(await timeToHealth(kind, dataDir));
        times[kind].restart.push(await timeToHealth(kind, dataDir));
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    log(
      `round ${round}: floor ${seconds(times.floor.fresh.at(-1)!)} / ${seconds(times.floor.restart.at(-1)!)} s, ` +
        `convene ${seconds(times.convene.fresh.at(-1)!)} / ${seconds(times.convene.restart.at(-1)!)} s, ` +
        `through tsx ${seconds(times.tsx.fresh.at(-1)!)} / ${seconds(times.tsx.restart.at(-1)!)} s (fresh / restart)`,
    );
  }
  logLoad('after the run');

  let failed = false;
  const rows: string[][] = [];
  for (const phase of ['fresh', 'restart'] as const) {
    const floor = median(times.floor[phase]);
    const target = 2.5 * floor + 1_000;
    for (const kind of ['floor', 'convene', 'tsx'] as const) {
      const value = median(times[kind][phase]);
      const isJudged = kind === 'convene';
      if (isJudged && value > target) failed = true;
      rows.push([
        `${phase}: ${kind === 'floor' ? 'floor (PGlite + bare Fastify)' : kind === 'convene' ? 'Convene (dist/)' : 'Convene through tsx (before)'}`,
        seconds(value),
        kind === 'floor' ? '1.00' : (value / floor).toFixed(2),
        isJudged ? `≤ ${seconds(target)} s` : '',
        isJudged ? (value <= target ? 'pass' : 'FAIL') : '',
      ]);
    }
  }
  printTable(['start to first 200 on /health', 'seconds', '× floor', 'target', ''], rows);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:startup: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
