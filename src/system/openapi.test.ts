/**
 * What code generators and linters read in the document: an `operationId` on every operation,
 * unique; every tag declared and in a group; public operations saying so (`security: []`); each
 * error response's example matching its status, its code and the operation's module; the
 * statuses every operation can answer (400, 429, 500; 413 and 415 but on GET); optional bodies
 * not marked required; one typed webhook per event type; and every 409 listing its reasons.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { ERROR_STATUS } from '../kernel/http/errors.ts';
import { ERROR_REASON_NAMES } from '../kernel/http/reasons.ts';
import { WEBHOOK_EVENT_TYPES } from '../modules/payments/webhooks/endpoints/endpoints.schemas.ts';
import { TAG_GROUPS } from './openapi.ts';
import { resolve } from './openapi-components.ts';

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: { required?: boolean };
  responses: Record<
    string,
    { description?: string; content?: Record<string, { example?: ErrorExample; schema?: ErrorSchema }> }
  >;
}
interface ErrorSchema {
  $ref?: string;
  allOf?: ErrorSchema[];
  properties?: { error?: { required?: string[]; properties?: { reason?: { enum?: string[] } } } };
}
interface ErrorExample {
  code: number;
  error: { code: keyof typeof ERROR_STATUS; reason?: string };
  module: string;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<
    string,
    { post: Operation & { requestBody: { content: Record<string, { schema: object }> } } }
  >;
  tags: Array<{ name: string }>;
  'x-tagGroups': Array<{ name: string; tags: string[] }>;
}

const MODULE_OF_TAG = new Map(
  TAG_GROUPS.flatMap((group) => group.tags.map((tag) => [tag.name, group.module] as const)),
);
/** Routes the rate limit does not count (docs/reference/running.md: health, readiness, metrics; and the pages' assets, `/favicon.ico` among them). */
const UNLIMITED = /^(\/health|\/ready|\/metrics|\/assets\/.*|\/favicon\.ico)$/;

describe('the OpenAPI document for generators', () => {
  let t: TestApp;
  let document: Document;
  let operations: Array<{ key: string; path: string; operation: Operation }>;
  before(async () => {
    t = await createTestApp();
    document = JSON.parse((await t.get('/docs/openapi.json')).text) as Document;
    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        path,
        operation,
      })),
    );
  });
  after(() => t.close());

  it('names every operation, once', () => {
    const ids = operations.map(({ key, operation }) => operation.operationId ?? `(none on ${key})`);
    assert.ok(ids.length > 100);
    assert.deepEqual(
      ids.filter((id) => !/^[a-z][A-Za-z]+$/.test(id)),
      [],
    );
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  });

  it('declares every tag, each in one group', () => {
    const declared = new Set(document.tags.map((tag) => tag.name));
    const grouped = document['x-tagGroups'].flatMap((group) => group.tags);
    assert.deepEqual([...declared].sort(), [...grouped].sort());
    for (const { key, operation } of operations) {
      assert.equal(operation.tags?.length, 1, `${key}: one tag`);
      assert.ok(declared.has(operation.tags?.[0] ?? ''), `${key}: tag ${operation.tags?.[0]} declared`);
    }
  });

  it('says which operations are public, and documents the statuses each can answer', () => {
    for (const { key, path, operation } of operations) {
      assert.ok(Array.isArray(operation.security), `${key}: security stated`);
      const statuses = Object.keys(operation.responses);
      for (const status of ['400', '500']) assert.ok(statuses.includes(status), `${key}: ${status}`);
      if (!UNLIMITED.test(path)) assert.ok(statuses.includes('429'), `${key}: 429`);
      // Every method but GET reads a body, declared or not, and refuses one too large or not JSON.
      if (!key.startsWith('GET ')) {
        for (const status of ['413', '415']) assert.ok(statuses.includes(status), `${key}: ${status}`);
      }
    }
  });

  it('shows each error with an example of its own status, code and module', () => {
    let checked = 0;
    for (const { key, operation } of operations) {
      const module = MODULE_OF_TAG.get(operation.tags?.[0] ?? '');
      for (const [status, answer] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        // A shared answer (`components.responses`) is shown for the operation as it is written there.
        const response = resolve(document, answer) as (typeof operation.responses)[string];
        const example = response.content?.['application/json']?.example;
        if (example === undefined) continue; // an HTML answer (the signing page's 410)
        assert.equal(example.code, Number(status), `${key} ${status}: envelope code`);
        assert.equal(
          ERROR_STATUS[example.error.code],
          Number(status),
          `${key} ${status}: ${example.error.code}`,
        );
        assert.equal(example.module, module, `${key} ${status}: module`);
        checked++;
      }
    }
    assert.ok(checked > 500, `${checked} error examples`);
  });

  it('lists the reasons of every 409 (required, known, each described) and shows one in its example', () => {
    const known = new Set<string>(ERROR_REASON_NAMES);
    let checked = 0;
    for (const { key, operation } of operations) {
      const conflict = resolve(document, operation.responses['409']) as Operation['responses'][string];
      if (conflict === undefined) continue;
      const content = conflict.content?.['application/json'];
      // The error envelope narrowed for the operation: `allOf: [ErrorEnvelope, {error: {reason}}]`.
      const parts = (content?.schema?.allOf ?? []).map((part) => resolve(document, part) as ErrorSchema);
      assert.ok(
        content?.schema?.allOf?.some((part) => part.$ref === '#/components/schemas/ErrorEnvelope'),
        `${key}: a 409 is the error envelope`,
      );
      const errors = parts.map((part) => part.properties?.error);
      const reasons = errors.find((error) => error?.properties?.reason?.enum)?.properties?.reason?.enum ?? [];
      assert.ok(reasons.length > 0, `${key}: 409 lists its reasons`);
      assert.ok(
        errors.some((error) => error?.required?.includes('reason')),
        `${key}: a 409 always has a reason`,
      );
      assert.deepEqual(
        reasons.filter((reason) => !known.has(reason)),
        [],
        `${key}: reasons of kernel/http/reasons.ts`,
      );
      for (const reason of reasons) {
        assert.ok(conflict.description?.includes(`\`${reason}\``), `${key}: ${reason} described`);
      }
      assert.ok(reasons.includes(content?.example?.error.reason ?? ''), `${key}: the example's reason`);
      checked++;
    }
    assert.ok(checked > 40, `${checked} operations with a 409`);
  });

  it('marks a body required only where the operation needs one', () => {
    const optional = operations.filter(({ operation }) => operation.requestBody?.required === false);
    const keys = optional.map(({ key }) => key).sort();
    assert.ok(keys.includes('POST /signature-requests/deny'), keys.join(', '));
    assert.ok(keys.includes('POST /signature-requests/{request_id}/cancel'), keys.join(', '));
  });

  it('types the body of every outbound event in the webhooks section', () => {
    assert.deepEqual(Object.keys(document.webhooks).sort(), [...WEBHOOK_EVENT_TYPES, 'webhook.test'].sort());
    for (const [type, { post }] of Object.entries(document.webhooks)) {
      assert.ok(post.operationId, `${type}: operationId`);
      assert.ok(post.requestBody.content['application/json']?.schema, `${type}: schema`);
    }
  });
});
