/**
 * The console's build (docs/console.md): `scripts/build-console.mjs` runs it, never a person. Served
 * by the service under `/console/` (the `console` module), so every URL it writes starts there, and
 * its output goes outside git to `build/console/`, which the module reads at start-up.
 *
 * Preact's JSX through Vite's own transformer (no Babel preset): `jsxImportSource` is all it needs.
 * No module-preload polyfill: it would be one more script for browsers that all have the feature,
 * and the pages' CSP allows no inline script anyway.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  // sw.js and manifest.webmanifest, copied as they are: the service worker's address cannot change.
  publicDir: 'public',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../../build/console', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    modulePreload: { polyfill: false },
    // Every asset a file of its own: a data: URL would be inline content the CSP has to allow.
    assetsInlineLimit: 0,
    target: 'es2022',
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
