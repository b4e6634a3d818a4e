/**
 * Rewrites test/shards/weights.json, the seconds by which `npm test` spreads the test files over its
 * shard processes (test/shards/shards.ts), from the last run's timings (test-timings-reporter.mjs).
 * Run it after a full `npm test` when files were added or got much slower or faster.
 */
import { readFileSync, writeFileSync } from 'node:fs';

// Where test-timings-reporter.mjs writes them.
const TIMINGS_FILE = new URL('../node_modules/.cache/convene-test/timings.json', import.meta.url);

const timings = JSON.parse(readFileSync(TIMINGS_FILE, 'utf8')) as Record<string, number>;
const sorted = Object.fromEntries(Object.entries(timings).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(
  new URL('../test/shards/weights.json', import.meta.url),
  `${JSON.stringify(sorted, null, 2)}\n`,
);
console.log(`test/shards/weights.json: ${Object.keys(sorted).length} files`);
