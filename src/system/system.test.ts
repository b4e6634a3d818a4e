import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectOk } from '../../test/assertions.ts';
import { createTestApp, type OpenApiDocument, type TestApp } from '../../test/harness.ts';
import { resolve } from './openapi-components.ts';
import type { Status } from './system.routes.ts';

interface OpenApiOperation {
  summary?: string;
  description?: string;
  requestBody?: { content?: Record<string, { example?: unknown; examples?: unknown }> };
  responses?: Record<string, { content?: Record<string, { example?: unknown; examples?: unknown }> }>;
}

describe('system routes', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('answers /health with the status and version', async () => {
    const data = expectOk(await t.get<Status>('/health'), 200, 'system');
    assert.equal(data.status, 'ok');
    assert.match(data.version, /^\d+\.\d+\.\d+/);
  });

  it('answers /ready when the database answers', async () => {
    assert.equal(expectOk(await t.get<Status>('/ready'), 200, 'system').status, 'ready');
  });

  it('serves Prometheus metrics with per-route request counts', async () => {
    await t.get('/health');
    const response = await t.get('/metrics');
    assert.equal(response.status, 200);
    assert.match(String(response.headers['content-type']), /text\/plain/);
    assert.match(response.text, /http_requests_total\{method="GET",route="\/health",status="200"\} \d+/);
    assert.match(response.text, /http_request_duration_seconds_bucket/);
    // The webhook queue: its depth and how long its oldest due delivery has waited (none: 0).
    assert.match(response.text, /^webhook_deliveries_due 0$/m);
    assert.match(response.text, /^webhook_queue_oldest_due_age_seconds 0$/m);
  });

  it('serves the docs page and the OpenAPI document', async () => {
    const page = await t.get('/docs');
    assert.equal(page.status, 200);
    const doc = JSON.parse((await t.get('/docs/openapi.json')).text) as OpenApiDocument;
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.paths['/health'].get);
  });

  it('documents every route with a description, an example and its security', async () => {
    const doc = JSON.parse((await t.get('/docs/openapi.json')).text) as OpenApiDocument;
    let operations = 0;
    for (const [path, methods] of Object.entries<Record<string, OpenApiOperation>>(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        operations++;
        const name = `${method.toUpperCase()} ${path}`;
        assert.ok(operation.summary && operation.description, `${name} has a summary and a description`);
        const media = [
          ...Object.values(operation.requestBody?.content ?? {}),
          // A shared answer (`components.responses`) shows its example for each operation using it.
          ...Object.values(operation.responses ?? {}).flatMap((response) =>
            Object.values((resolve(doc, response) as typeof response).content ?? {}),
          ),
        ];
        assert.ok(
          media.some((entry) => entry.example !== undefined || entry.examples !== undefined),
          `${name} has an example`,
        );
        assert.ok(!path.includes(':event_id') && !path.includes('('), `${name} uses OpenAPI path templates`);
      }
    }
    assert.ok(operations >= 22, `${operations} operations documented`);
    assert.deepEqual(doc.paths['/events'].post.security, [{ bearerAuth: [] }]);
    assert.ok(doc.paths['/events/{event_slug}:by-slug/editions/{edition_slug}:by-slug'].get);
  });

  it('echoes a caller x-request-id and makes one otherwise', async () => {
    const given = await t.get('/health', { headers: { 'x-request-id': 'trace-123' } });
    assert.equal(given.headers['x-request-id'], 'trace-123');
    const made = await t.get('/health');
    assert.match(String(made.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  it('answers an unknown route 404 and a known path with another method 405', async () => {
    expectError(await t.get('/nowhere'), 404, 'NOT_FOUND');
    const response = await t.delete('/health');
    expectError(response, 405, 'METHOD_NOT_ALLOWED');
    assert.match(String(response.headers.allow), /GET/);
  });
});
