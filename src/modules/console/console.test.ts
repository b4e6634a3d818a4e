/**
 * How the console is served (docs/reference/console.md): its page at every address under `/console`
 * with the pages' CSP and `same-origin` referrers, revalidated; its hashed files immutable and
 * compressed; an unknown file a 404 envelope of the module; and the first screen's script within
 * its budget of 200 KB compressed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expectError } from '../../../test/assertions.ts';
import { ensureConsoleBuilt } from '../../../test/console-build.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { PAGE_CSP } from '../../kernel/pages/layout.ts';
import { readConsoleBuild } from './console.files.ts';
import { IMMUTABLE } from './console.routes.ts';

/** The first screen's budget of compressed script (docs/console.md, "Size"). */
const SCRIPT_BUDGET = 200 * 1024;

describe('the console as served', () => {
  let t: TestApp;
  before(async () => {
    ensureConsoleBuilt();
    t = await createTestApp();
  });
  after(() => t.close());

  const scriptsOf = (page: string) =>
    [...page.matchAll(/<script[^>]* src="([^"]+)"/g)].map((match) => match[1]!);

  it('serves its page under the pages’ CSP, revalidated, with same-origin referrers', async () => {
    const answer = await t.get('/console');
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers['content-type']), /^text\/html/);
    // The pages' CSP, with the console's own manifest and service worker, and frames of its own PDFs.
    assert.equal(
      answer.headers['content-security-policy'],
      `${PAGE_CSP}; manifest-src 'self'; worker-src 'self'; frame-src blob:`,
    );
    assert.equal(answer.headers['referrer-policy'], 'same-origin');
    assert.equal(answer.headers['cache-control'], 'no-cache');
    assert.doesNotMatch(answer.text, /<script(?![^>]* src=)[^>]*>/, 'no inline script');
    assert.doesNotMatch(answer.text, /<style|style="/, 'no inline style');
    const scripts = scriptsOf(answer.text);
    assert.ok(
      scripts.length >= 1 && scripts.every((src) => src.startsWith('/console/assets/')),
      scripts.join(),
    );

    const again = await t.get('/console', { headers: { 'if-none-match': String(answer.headers.etag) } });
    assert.equal(again.status, 304);
  });

  it('answers the same page at any screen’s address, so a reload lands where it was', async () => {
    const page = (await t.get('/console')).text;
    const id = '0193a0c4-7a1e-7d2b-9c1a-3e5f7a9b1c2d';
    for (const path of [`/console/events/${id}`, `/console/events/${id}/editions/${id}`]) {
      const answer = await t.get(path);
      assert.equal(answer.status, 200, path);
      assert.equal(answer.text, page, path);
    }
    // An address the console has no screen for is no page of it.
    expectError(await t.get('/console/nowhere'), 404, 'NOT_FOUND');
  });

  it('serves its hashed files immutable, brotli or gzip compressed', async () => {
    const script = scriptsOf((await t.get('/console')).text)[0]!;
    const plain = await t.get(script);
    assert.equal(plain.status, 200);
    assert.match(String(plain.headers['content-type']), /^text\/javascript/);
    assert.equal(plain.headers['cache-control'], IMMUTABLE);
    const br = await t.request('GET', script, { headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(br.headers['content-encoding'], 'br');
    const gz = await t.request('GET', script, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    const raw = await t.app.inject({ method: 'GET', url: script, headers: { 'accept-encoding': 'br' } });
    assert.equal(brotliDecompressSync(raw.rawPayload).toString(), plain.text);
    const rawGz = await t.app.inject({ method: 'GET', url: script, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gunzipSync(rawGz.rawPayload).toString(), plain.text);
  });

  it('loads the first screen with at most 200 KB of compressed script', async () => {
    const page = (await t.get('/console')).text;
    let total = 0;
    for (const src of scriptsOf(page)) {
      const answer = await t.app.inject({ method: 'GET', url: src, headers: { 'accept-encoding': 'gzip' } });
      total += answer.rawPayload.length;
    }
    assert.ok(total > 0 && total <= SCRIPT_BUDGET, `${total} bytes of gzip-compressed script`);
  });

  it('is installable: a manifest it links, and a service worker for /console that asks only its origin', async () => {
    const page = (await t.get('/console')).text;
    assert.match(page, /<link rel="manifest" href="\/console\/manifest\.webmanifest">/);
    const manifest = await t.get('/console/manifest.webmanifest');
    assert.equal(manifest.status, 200);
    assert.match(String(manifest.headers['content-type']), /^application\/manifest\+json/);
    assert.equal(manifest.headers['cache-control'], 'no-cache');
    const read = JSON.parse(manifest.text) as Record<string, unknown>;
    assert.deepEqual(
      { start_url: read.start_url, scope: read.scope, display: read.display },
      { start_url: '/console', scope: '/console', display: 'standalone' },
    );
    const icon = await t.get(((read.icons as Array<{ src: string }>)[0] ?? { src: '' }).src);
    assert.equal(icon.status, 200, 'the manifest’s icon is served');

    const worker = await t.get('/console/sw.js');
    assert.equal(worker.status, 200);
    assert.match(String(worker.headers['content-type']), /^text\/javascript/);
    assert.equal(worker.headers['cache-control'], 'no-cache');
    assert.equal(worker.headers['service-worker-allowed'], '/console');
    assert.equal(worker.headers['content-security-policy'], "default-src 'none'; connect-src 'self'");
    assert.match(worker.text, /addEventListener\('fetch'/);
  });

  it('answers 404 for a file the build does not have', async () => {
    const answer = await t.get('/console/assets/index-missing.js');
    expectError(answer, 404, 'NOT_FOUND');
    assert.equal(answer.body.module, 'console');
  });

  it('finds no build in a folder without one', async () => {
    assert.equal(await readConsoleBuild(mkdtempSync(join(tmpdir(), 'console-'))), undefined);
  });
});
