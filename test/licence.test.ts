/**
 * Convene is open software under the Apache License 2.0, and says so in the three places a person
 * or a tool looks: the LICENSE file, package.json's `license`, and the OpenAPI document's
 * `info.license` (shown by the reference at /docs).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from './harness.ts';

const ROOT = new URL('..', import.meta.url);

describe('the licence', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('is the Apache License 2.0 in LICENSE, package.json and the OpenAPI document', async () => {
    const text = readFileSync(new URL('LICENSE', ROOT), 'utf8');
    assert.match(text, /^\s*Apache License\s+Version 2\.0, January 2004/);
    assert.match(text, /TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION/);
    const manifest = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { license: string };
    assert.equal(manifest.license, 'Apache-2.0');
    const document = await t.get<never>('/docs/openapi.json');
    assert.equal(document.status, 200);
    const info = (JSON.parse(document.text) as { info: { license: unknown } }).info;
    assert.deepEqual(info.license, { name: 'Apache-2.0', identifier: 'Apache-2.0' });
  });
});
