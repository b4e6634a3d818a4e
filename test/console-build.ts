/**
 * The organiser console built before a test reads it (docs/console.md, "Build"): tests run from
 * the sources through tsx, but the console is served from its Vite build in build/console/. The
 * first call in a process runs `scripts/build-console.mjs --if-stale` (a build only when
 * web/console/ changed since the last one, otherwise a walk of its files); later calls return at once.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../scripts/build-console.mjs', import.meta.url));
let built = false;

export function ensureConsoleBuilt(): void {
  if (built) return;
  execFileSync(process.execPath, [SCRIPT, '--if-stale'], { stdio: ['ignore', 'inherit', 'inherit'] });
  built = true;
}
