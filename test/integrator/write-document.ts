/**
 * Writes the service's OpenAPI document to a file (`npm run openapi`), for the linters and the
 * type generator: the same document `GET /docs/openapi.json` serves, from an app on an embedded
 * database that is thrown away.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createTestApp } from '../harness.ts';

const target = process.argv[2];
if (target === undefined) throw new Error('usage: write-document.ts <file.json>');
const t = await createTestApp();
try {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, `${JSON.stringify(t.app.swagger(), null, 2)}\n`);
  console.log(`wrote ${target}`);
} finally {
  await t.close();
}
