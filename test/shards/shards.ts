/**
 * `npm test` runs the test files in a few processes ("shards"), several files per process, instead
 * of one process per file: a process pays about 5 s of CPU to load the app's modules through tsx
 * (every import crosses tsx's loader thread) and compiles PGlite's WebAssembly once, and on this
 * two-core machine those costs, paid by ~100 files, were most of the suite's time.
 *
 * Each `<n>.shard.ts` imports its share of the test files, one after the other; node:test runs a
 * process's top-level suites one at a time, in the order the files registered them, so a file's
 * suites still run alone, as they did in a process of their own. What the files share is the
 * process: its module instances (the harness's key pair, `test/processes.ts`'s children) and its
 * event loop. A file must therefore close what it opens (apps, servers, children) in its `after`
 * hooks, which every file does.
 *
 * The files are spread over the shards by weight (longest first, each to the lightest shard so
 * far), the weights being each file's seconds in `weights.json`, measured by the timings reporter
 * (`node scripts/test-timings.ts --weights` rewrites the file); a file not listed weighs the median,
 * and the files measured at 0 s (skipped where measured) are dealt to the shards in turn.
 * The same file list as before: every `*.test.ts` under `src/` and `test/`, sorted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EMBEDDED_PASS_ONLY, isServerPass } from '../passes.ts';

/**
 * How many `<n>.shard.ts` files there are; npm test runs them all at once. Two, like the two files
 * at a time before: four on two cores made each test's waits (provider and webhook timeouts, ready
 * deadlines) longer under load, and timing-bound tests failed.
 */
export const SHARD_COUNT = 2;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every `*.test.ts` under src/ and test/, relative to the repository, sorted. */
export function testFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (entry.name.endsWith('.test.ts')) found.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, 'src'));
  walk(join(ROOT, 'test'));
  return found.sort();
}

function weights(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(new URL('weights.json', import.meta.url), 'utf8')) as Record<
      string,
      number
    >;
  } catch {
    return {};
  }
}

/** The files of each shard: longest first, each to the shard with the least weight so far. */
export function assignShards(files: string[], count: number, weightOf: Record<string, number>): string[][] {
  const known = files.map((f) => weightOf[f]).filter((w): w is number => w !== undefined);
  const median = known.length === 0 ? 1 : known.sort((a, b) => a - b)[Math.floor(known.length / 2)]!;
  const weighted = files
    .map((file) => ({ file, weight: weightOf[file] ?? median }))
    .sort((a, b) => b.weight - a.weight || a.file.localeCompare(b.file));
  const shards = Array.from({ length: count }, () => ({ files: [] as string[], weight: 0 }));
  let turn = 0;
  for (const { file, weight } of weighted) {
    // A file measured at 0 s skipped where it was measured: the PostgreSQL-only files (reliability
    // and concurrency suites, real processes among them) on PGlite. Given to the lightest shard,
    // adding nothing, they all went to the same one and made it the longest on PostgreSQL; they are
    // dealt in turn instead.
    const shard =
      weight === 0
        ? shards[turn++ % count]!
        : shards.reduce((min, next) => (next.weight < min.weight ? next : min));
    shard.files.push(file);
    shard.weight += weight;
  }
  // In the repository's order within a shard, as `sort` gave them before.
  return shards.map((shard) => shard.files.sort());
}

/**
 * Imports the test files of shard `index` (1-based). A file that fails to load becomes a failing
 * test of its own, and the shard goes on with the next file.
 */
export async function runShard(index: number): Promise<void> {
  // The PostgreSQL pass leaves out what the database cannot change (test/passes.ts), each said
  // once (by the first shard) as a skipped test with its reason.
  const all = testFiles();
  const skipped = isServerPass() ? all.filter((file) => file in EMBEDDED_PASS_ONLY) : [];
  if (index === 1) {
    // A renamed or deleted file would otherwise leave its entry behind, silently.
    const stale = Object.keys(EMBEDDED_PASS_ONLY).filter((file) => !all.includes(file));
    if (stale.length > 0) {
      test('test/passes.ts lists only test files', () => {
        throw new Error(`not a test file any more: ${stale.join(', ')}`);
      });
    }
    for (const file of skipped) {
      test(file, { skip: `runs in the embedded pass only: ${EMBEDDED_PASS_ONLY[file]}` }, () => {});
    }
  }
  const run = all.filter((file) => !skipped.includes(file));
  const files = assignShards(run, SHARD_COUNT, weights())[index - 1] ?? [];
  for (const file of files) {
    try {
      await import(pathToFileURL(join(ROOT, file)).href);
    } catch (error) {
      test(`${file} loads`, () => {
        throw error;
      });
    }
  }
}
