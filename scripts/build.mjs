/**
 * `npm run build`: compiles src/ into dist/ once, so `npm start` and `npm run worker` run plain
 * JavaScript instead of compiling every module through tsx on every start (ARCHITECTURE.md,
 * "Start-up and shutdown"). `--if-stale` (the `prestart` and `preworker` scripts) builds only when
 * dist/ is missing or older than its inputs, so a fresh clone needs no separate command and an up-to-date
 * build costs a walk of src/ (tens of milliseconds).
 *
 * One output file per source file, at the same depth (src/kernel/db/types.ts becomes
 * dist/kernel/db/types.js): paths the code computes from `import.meta.url` (the migrations folder,
 * package.json, page scripts, the worker-thread entry) then resolve from dist/ exactly as from
 * src/. Files that are not TypeScript (page scripts, the worker-thread entry) are copied.
 *
 * Plain JavaScript on purpose: it runs before anything is compiled, without loading tsx. esbuild is
 * the one tsx already depends on (resolved through tsx, so the lock file needs no entry of its
 * own, and `npm ci --omit=dev` still has it).
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
/** Written last: its time is the build's, and its absence means no complete build. */
const STAMP = join(DIST, '.built');
/** Besides src/, what changes the output. */
const OTHER_INPUTS = [join(ROOT, 'tsconfig.json'), fileURLToPath(import.meta.url)];

/** Test files and their fixtures stay out of dist/: tests run from the sources through tsx. */
const isTestOnly = (name) => /\.(test|fixtures)\.ts$/.test(name);

/** Every file under `dir`, and the newest modification time of the files and folders seen. */
function walk(dir, files = [], newest = { ms: statSync(dir).mtimeMs }) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // A folder's time changes when a file is added, removed or renamed in it.
    newest.ms = Math.max(newest.ms, statSync(path).mtimeMs);
    if (entry.isDirectory()) walk(path, files, newest);
    else if (!isTestOnly(entry.name)) files.push(path);
  }
  return { files, newest: newest.ms };
}

function isStale(newestInput) {
  if (!existsSync(STAMP)) return true;
  const built = statSync(STAMP).mtimeMs;
  return newestInput > built || OTHER_INPUTS.some((file) => statSync(file).mtimeMs > built);
}

async function build(files) {
  const started = performance.now();
  // tsx's own esbuild: tsx is a dependency (tests and the CLIs run through it), esbuild is its.
  const requireFromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  const esbuild = requireFromTsx('esbuild');

  // Built beside dist/ and renamed into place: a start running now never sees half a build, and
  // two starts building at once each produce a whole one (the last rename wins).
  const next = `${DIST}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  const sources = files.filter((file) => file.endsWith('.ts'));
  await esbuild.build({
    entryPoints: sources,
    outdir: next,
    outbase: SRC,
    // Bundling with every import external is how esbuild rewrites a relative `./x.ts` import to
    // `./x.js` (plain transpiling keeps specifiers as written): each file still becomes one
    // output holding only its own code.
    bundle: true,
    packages: 'external',
    plugins: [
      {
        name: 'relative-imports-stay-files',
        setup(build) {
          build.onResolve({ filter: /^\.\.?\// }, (args) => {
            if (args.kind === 'entry-point') return undefined;
            return { path: args.path.replace(/\.ts$/, '.js'), external: true };
          });
        },
      },
    ],
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'warning',
  });
  for (const file of files.filter((path) => !path.endsWith('.ts'))) {
    const target = join(next, relative(SRC, file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
  writeFileSync(join(next, '.built'), `${new Date().toISOString()}\n`);
  rmSync(DIST, { recursive: true, force: true });
  try {
    renameSync(next, DIST);
  } catch (error) {
    // Another build renamed its own into place between the two lines above: it is as good.
    rmSync(next, { recursive: true, force: true });
    if (!existsSync(STAMP)) throw error;
  }
  return { count: sources.length, ms: performance.now() - started };
}

const { files, newest } = walk(SRC);
if (process.argv.includes('--if-stale') && !isStale(newest)) process.exit(0);
process.stderr.write('convene: compiling src/ into dist/ (once, and again after a change to src/)\n');
try {
  const { count, ms } = await build(files);
  process.stderr.write(`convene: compiled ${count} files in ${(ms / 1000).toFixed(1)} s\n`);
} catch (error) {
  process.stderr.write(
    `convene: the build failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
