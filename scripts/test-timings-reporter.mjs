/**
 * A node:test reporter (JavaScript: node loads reporters before tsx's hooks) that `npm test` runs beside the TAP one: it sums the seconds of each test
 * file's top-level suites and tests, prints the slowest files when the run ends (CI shows them), and
 * writes every file's seconds to `node_modules/.cache/convene-test/timings.json`, from which
 * `node --import tsx scripts/test-weights.ts` refreshes the shards' weights (test/shards/shards.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TIMINGS_FILE = join(ROOT, 'node_modules', '.cache', 'convene-test', 'timings.json');
const SLOWEST = 10;

/**
 * @param {AsyncIterable<{ type: string, data: { nesting?: number, file?: string, details?: { duration_ms?: number } } }>} source
 * @returns {AsyncGenerator<string>}
 */
export default async function* timingsReporter(source) {
  const started = performance.now();
  /** @type {Map<string, number>} */
  const seconds = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { nesting, file, details } = event.data;
    if (nesting !== 0 || file === undefined) continue;
    const key = relative(ROOT, file.startsWith('file:') ? fileURLToPath(file) : file);
    seconds.set(key, (seconds.get(key) ?? 0) + (details?.duration_ms ?? 0) / 1000);
  }
  const rows = [...seconds].sort((a, b) => b[1] - a[1]);
  mkdirSync(join(TIMINGS_FILE, '..'), { recursive: true });
  writeFileSync(
    TIMINGS_FILE,
    `${JSON.stringify(Object.fromEntries(rows.map(([file, s]) => [file, Math.round(s * 10) / 10])), null, 2)}\n`,
  );
  const wall = (performance.now() - started) / 1000;
  yield `# ${rows.length} test files in ${wall.toFixed(0)} s; the ${SLOWEST} slowest (seconds of their top-level tests):\n`;
  for (const [file, s] of rows.slice(0, SLOWEST)) yield `#   ${s.toFixed(1).padStart(6)}  ${file}\n`;
}
