/**
 * Builds the organiser console (web/console/, docs/console.md) with Vite into build/console/, which
 * the `console` module serves. `npm run build` runs it; `--if-stale` (the `prestart` script, and
 * the tests through test/console-build.ts) builds only when the output is missing or older than
 * its inputs: web/console/ (its generated `convene-api.d.ts` aside: types change no output) and
 * the lock file (a new version of Preact or Vite is a new output).
 *
 * Vite is a devDependency: `npm ci` installs it. An install without dev dependencies
 * (`npm ci --omit=dev`) keeps a console built before it (build, then prune: docs/console.md) and
 * otherwise says how to get one; the service starts either way, and `/console` answers 503 until
 * there is a build.
 *
 * Built beside the output and renamed into place, as scripts/build.mjs does for dist/: a service
 * reading the build never sees half of one, and two builds at once each produce a whole one.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCES = join(ROOT, 'web', 'console');
const OUTPUT = join(ROOT, 'build', 'console');
/** Written last, inside the output: its time is the build's. */
const STAMP = join(OUTPUT, '.built');
const OTHER_INPUTS = [join(ROOT, 'package-lock.json'), fileURLToPath(import.meta.url)];

/** The newest modification time under `dir` (files and folders), generated types left out. */
function newest(dir) {
  let ms = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'convene-api.d.ts' || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    ms = Math.max(ms, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return ms;
}

function isStale() {
  if (!existsSync(STAMP)) return true;
  const built = statSync(STAMP).mtimeMs;
  return newest(SOURCES) > built || OTHER_INPUTS.some((file) => statSync(file).mtimeMs > built);
}

async function loadVite() {
  try {
    return await import('vite');
  } catch {
    return undefined;
  }
}

if (process.argv.includes('--if-stale') && !isStale()) process.exit(0);
const vite = await loadVite();
if (vite === undefined) {
  const kept = existsSync(join(OUTPUT, 'index.html'));
  process.stderr.write(
    kept
      ? 'convene: vite is not installed (a production install): the console built before is served as it is\n'
      : 'convene: vite is not installed, so the console is not built: npm ci (with dev dependencies), then npm run build\n',
  );
  process.exit(0);
}

process.stderr.write(
  'convene: building the console into build/console/ (once, and again after a change to web/console/)\n',
);
const started = performance.now();
const next = `${OUTPUT}.next-${process.pid}`;
try {
  await vite.build({
    configFile: join(SOURCES, 'vite.config.ts'),
    build: { outDir: next, emptyOutDir: true },
    logLevel: 'warn',
  });
  writeFileSync(join(next, '.built'), `${new Date().toISOString()}\n`);
  rmSync(OUTPUT, { recursive: true, force: true });
  try {
    renameSync(next, OUTPUT);
  } catch (error) {
    // Another build renamed its own into place between the two lines above: it is as good.
    rmSync(next, { recursive: true, force: true });
    if (!existsSync(STAMP)) throw error;
  }
} catch (error) {
  rmSync(next, { recursive: true, force: true });
  process.stderr.write(
    `convene: the console build failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
process.stderr.write(
  `convene: built the console in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
);
