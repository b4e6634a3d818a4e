/**
 * The console's built files (docs/console.md, "Build"), as the service serves them: read from
 * `build/console/` (written by `scripts/build-console.mjs`, outside git) once, on the first request
 * that needs them, and kept in memory with their brotli and gzip forms and a strong ETag. Vite
 * names every script and stylesheet after its content (`assets/index-<hash>.js`), so those are
 * immutable; `index.html` keeps its name and is revalidated on every load.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildForms, type Forms } from '../../kernel/http/precomputed.ts';

/** Where the build lands: the repository's `build/console/`, from src/ and from dist/ alike (same depth). */
export const CONSOLE_BUILD_DIR = fileURLToPath(new URL('../../../build/console/', import.meta.url));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

export interface ConsoleFile {
  type: string;
  forms: Forms;
}

export interface ConsoleBuild {
  index: ConsoleFile;
  /** By name under `assets/` (`index-<hash>.js`). */
  assets: Map<string, ConsoleFile>;
  /** The service worker and the web app manifest, at addresses that never change (web/console/public/). */
  worker?: ConsoleFile;
  manifest?: ConsoleFile;
}

/** A file of the build's root, or undefined when this build has none. */
async function rootFile(path: string, type: string): Promise<ConsoleFile | undefined> {
  return existsSync(path) ? { type, forms: await buildForms(readFileSync(path)) } : undefined;
}

/** The build in `dir`, or undefined when there is none (no `index.html`). */
export async function readConsoleBuild(dir: string = CONSOLE_BUILD_DIR): Promise<ConsoleBuild | undefined> {
  const indexPath = `${dir}/index.html`;
  if (!existsSync(indexPath)) return undefined;
  const index = { type: 'text/html; charset=utf-8', forms: await buildForms(readFileSync(indexPath)) };
  const assets = new Map<string, ConsoleFile>();
  const assetsDir = `${dir}/assets`;
  if (existsSync(assetsDir)) {
    for (const name of readdirSync(assetsDir)) {
      const type = TYPES[extname(name)];
      if (type === undefined) continue;
      assets.set(name, { type, forms: await buildForms(readFileSync(`${assetsDir}/${name}`)) });
    }
  }
  const worker = await rootFile(`${dir}/sw.js`, 'text/javascript; charset=utf-8');
  const manifest = await rootFile(`${dir}/manifest.webmanifest`, 'application/manifest+json; charset=utf-8');
  return { index, assets, ...(worker && { worker }), ...(manifest && { manifest }) };
}

/**
 * The build, read once per app on first use. A missing build is asked for again on the next
 * request (a start that raced the build, a test that builds it first), a present one never again.
 */
export function consoleBuildOnce(dir?: string): () => Promise<ConsoleBuild | undefined> {
  let read: Promise<ConsoleBuild | undefined> | undefined;
  return async () => {
    read ??= readConsoleBuild(dir);
    const build = await read;
    if (build === undefined) read = undefined;
    return build;
  };
}
