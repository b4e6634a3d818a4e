/**
 * How the finished document shares what it repeats (openapi-components.ts), on small documents
 * written here: titled schemas become components, a title never stands for two schemas, error
 * answers become shared answers or narrow the shared envelope, and the reasons stay readable.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { documentedReasons, resolve, shareComponents } from './openapi-components.ts';

const uuid = { type: 'string', format: 'uuid', title: 'Uuid' };
const thing = (extra: object = {}) => ({
  type: 'object',
  title: 'Thing',
  properties: { id: uuid, owner_id: { ...uuid, description: 'who owns it' } },
  ...extra,
});

function errorAnswer(status: number, reasons?: string[]) {
  const reason = { type: 'string', description: 'why', ...(reasons === undefined ? {} : { enum: reasons }) };
  return {
    description: `status ${status}`,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          description: `status ${status}`,
          properties: {
            code: { type: 'integer' },
            error: {
              type: 'object',
              title: 'ErrorDetail',
              required: reasons === undefined ? ['code'] : ['code', 'reason'],
              properties: { code: { type: 'string' }, reason },
            },
          },
        },
        example: { code: status, error: { code: 'X', reason: reasons?.[0] }, module: 'events' },
      },
    },
  };
}

const json = (answer: unknown) =>
  (answer as { content: Record<string, { schema: Record<string, unknown> }> }).content['application/json']!
    .schema;

describe('the shared parts of the OpenAPI document', () => {
  it('writes a titled schema once under components.schemas, a description staying beside its reference', () => {
    const document = {
      paths: {
        '/a': {
          get: {
            responses: { 200: { description: 'OK', content: { 'application/json': { schema: thing() } } } },
          },
        },
        '/b': {
          get: {
            responses: { 200: { description: 'OK', content: { 'application/json': { schema: thing() } } } },
          },
        },
      },
    };
    shareComponents(document);
    const shared = document as unknown as {
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    assert.deepEqual(json(document.paths['/a'].get.responses[200]), { $ref: '#/components/schemas/Thing' });
    assert.deepEqual(shared.components.schemas.Thing?.properties, {
      id: { $ref: '#/components/schemas/Uuid' },
      owner_id: { $ref: '#/components/schemas/Uuid', description: 'who owns it' },
    });
    assert.deepEqual(shared.components.schemas.Uuid, { type: 'string', format: 'uuid', title: 'Uuid' });
  });

  it('refuses two different schemas under one title', () => {
    const document = {
      paths: {
        '/a': {
          get: {
            responses: { 200: { description: 'OK', content: { 'application/json': { schema: thing() } } } },
          },
        },
        '/b': {
          get: {
            responses: {
              200: {
                description: 'OK',
                content: { 'application/json': { schema: thing({ required: ['id'] }) } },
              },
            },
          },
        },
      },
    };
    assert.throws(
      () => shareComponents(document),
      /two different schemas would be the OpenAPI component Thing/,
    );
  });

  it('shares an error answer without reasons, and narrows the envelope for one with reasons', () => {
    const document = {
      paths: {
        '/a': { post: { responses: { 404: errorAnswer(404), 409: errorAnswer(409, ['slug_taken']) } } },
        '/b': {
          post: { responses: { 404: errorAnswer(404), 409: errorAnswer(409, ['sold_out', 'slug_taken']) } },
        },
      },
    };
    shareComponents(document);
    const { a, b } = { a: document.paths['/a'].post.responses, b: document.paths['/b'].post.responses };
    assert.deepEqual(a[404], { $ref: '#/components/responses/events.NotFound' });
    assert.deepEqual(b[404], a[404]);
    assert.deepEqual(documentedReasons(document, a[404]), []);
    assert.deepEqual(documentedReasons(document, a[409]), ['slug_taken']);
    assert.deepEqual(documentedReasons(document, b[409]), ['sold_out', 'slug_taken']);
    // The envelope without what one operation adds: no enum, `reason` not required, no description.
    const envelope = resolve(document, { $ref: '#/components/schemas/ErrorEnvelope' });
    assert.deepEqual(envelope, {
      type: 'object',
      properties: { code: { type: 'integer' }, error: { $ref: '#/components/schemas/ErrorDetail' } },
    });
    assert.deepEqual(resolve(document, { $ref: '#/components/schemas/ErrorDetail' }), {
      type: 'object',
      title: 'ErrorDetail',
      required: ['code'],
      properties: { code: { type: 'string' }, reason: { type: 'string', description: 'why' } },
    });
    // A 409's reason is required where the operation said so.
    const narrowing = (json(a[409]).allOf as Array<{ properties?: { error?: { required?: string[] } } }>)[1];
    assert.deepEqual(narrowing?.properties?.error?.required, ['reason']);
  });
});
