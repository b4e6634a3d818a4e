/**
 * Hostile requests, sent the way an attacker or a careless client sends them: over a real socket
 * where framing matters. Every answer is the contract's error envelope (section 3), none is a 5xx,
 * and no connection is closed without one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectFields, expectOk } from '../../../test/assertions.ts';
import { type ApiResponse, createTestApp, type TestApp, type TestUser } from '../../../test/harness.ts';
import { requestHead, sendRaw, type WireAnswer } from '../../../test/wire.ts';

/** A wire answer as the envelope assertions read it; a reset or a missing answer fails them. */
const asResponse = (answer: WireAnswer): ApiResponse => ({
  status: answer.status ?? 0,
  headers: answer.headers,
  body: answer.body,
  text: `${answer.text}${answer.error === undefined ? '' : ` [socket: ${answer.error}]`}`,
});

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;

describe('hostile requests on the wire', () => {
  let t: TestApp;
  let ana: TestUser;
  let port: number;
  before(async () => {
    t = await createTestApp();
    ana = await t.actor('ana');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  const post = (path: string, payload: string, headers: Record<string, string> = {}) =>
    t.post(path, { token: ana.token, payload, contentType: 'application/json', headers });

  it('refuses JSON nested deeper than 64 levels with 400, counting levels outside strings only', async () => {
    expectError(await post('/events', nested(10_000)), 400, 'BAD_REQUEST');
    expectError(await post('/events', nested(100_000, '{"a":', '}')), 400, 'BAD_REQUEST');
    // The public, unauthenticated notification route reads the same way.
    expectError(
      await t.post('/webhooks/mercadopago', { payload: nested(10_000), contentType: 'application/json' }),
      400,
      'BAD_REQUEST',
    );
    // 64 levels (the object and 63 arrays) pass the depth check and reach validation: `x` is
    // unknown; 65 do not.
    const body = (arrays: number) => `{"name":"Deep","slug":"deep","x":${nested(arrays)}}`;
    expectFields(await post('/events', body(63)), 'x');
    expectError(await post('/events', body(64)), 400, 'BAD_REQUEST');
    // Brackets inside strings are text, not nesting.
    const inString = JSON.stringify({ name: '['.repeat(150), slug: 'brackets', x: '{'.repeat(100) });
    expectFields(await post('/events', inString), 'x');
  });

  it('answers headers over 16 KiB with a 431 envelope', async () => {
    const answer = await sendRaw(port, requestHead('GET', '/health', { 'x-filler': 'a'.repeat(20_000) }));
    expectError(asResponse(answer), 431, 'BAD_REQUEST');
  });

  it('answers malformed percent-encoding with a 400 BAD_REQUEST envelope', async () => {
    const answer = await sendRaw(port, requestHead('GET', '/events/%E0%A4%A'));
    expectError(asResponse(answer), 400, 'BAD_REQUEST');
  });

  it('names a path parameter over its length as a validation error', async () => {
    expectFields(await t.get(`/events/${'a'.repeat(300)}`, { token: ana.token }), 'params.event_id');
    expectFields(await t.get(`/events/${'s'.repeat(300)}:by-slug/editions/x:by-slug`), 'params.event_slug');
  });

  it('answers bad framing with a 400 BAD_REQUEST envelope', async () => {
    const frames = [
      requestHead('POST', '/events', { 'content-length': '5', 'transfer-encoding': 'chunked' }),
      requestHead('POST', '/events', { 'content-length': 'abc' }),
      'GET /health HTTP/1.1\r\nhost: 127.0.0.1\r\nx-nul: a\u0000b\r\n\r\n',
      'GET /health HTTP/9.9\r\n\r\n',
      'NOT-A-REQUEST\r\n\r\n',
    ];
    for (const frame of frames) {
      const answer = await sendRaw(port, frame);
      expectError(asResponse(answer), 400, 'BAD_REQUEST');
    }
  });

  it('delivers the 413 to a client that writes a whole large body before reading', async () => {
    const body = Buffer.alloc(2 * 1024 * 1024, 'a');
    const head = requestHead('POST', '/events', {
      authorization: `Bearer ${ana.token}`,
      'content-type': 'application/json',
      'content-length': String(body.length),
    });
    for (let i = 0; i < 10; i++) {
      expectError(asResponse(await sendRaw(port, head, { body })), 413, 'PAYLOAD_TOO_LARGE');
    }
    // Chunked, with no length announced: the limit is found while reading.
    const chunked = requestHead('POST', '/events', {
      authorization: `Bearer ${ana.token}`,
      'content-type': 'application/json',
      'transfer-encoding': 'chunked',
    });
    const chunk = `${body.length.toString(16)}\r\n${body.toString()}\r\n0\r\n\r\n`;
    expectError(asResponse(await sendRaw(port, chunked, { body: chunk })), 413, 'PAYLOAD_TOO_LARGE');
    // A refusal before the body is read (no token) reaches the client as well.
    const anonymous = requestHead('POST', '/events', {
      'content-type': 'application/json',
      'content-length': String(body.length),
    });
    expectError(asResponse(await sendRaw(port, anonymous, { body })), 401, 'UNAUTHORIZED');
  });

  it('refuses a body on a route that takes none: 400 for JSON, 415 for anything else', async () => {
    expectFields(await t.get('/events/mine', { token: ana.token, body: { x: 1 } }), 'body');
    expectError(
      await t.get('/events/mine', { token: ana.token, payload: 'hello', contentType: 'text/plain' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectFields(await t.get('/health', { body: [1] }), 'body');
    // No body, an empty one, or `{}` on a body-less POST, are no body at all.
    expectOk(await t.get('/events/mine', { token: ana.token, payload: '', contentType: 'application/json' }));
  });

  it('refuses null, arrays and scalars where the body is an object, even when the body is optional', async () => {
    for (const payload of ['null', '[]', '[{}]', '"text"', '42', 'true']) {
      expectFields(await post('/events', payload), 'body');
      expectFields(
        await t.post('/webhooks/mercadopago', { payload, contentType: 'application/json' }),
        'body',
      );
    }
  });

  it('validates the path, the query and the body together and names every bad field', async () => {
    const response = await t.patch('/events/not-a-uuid?x=1', { token: ana.token, body: { name: 5 } });
    const error = expectError(response, 400, 'VALIDATION_ERROR');
    const fields = error.fields.map((entry: { field: string }) => entry.field).sort();
    assert.deepEqual(fields, ['name', 'params.event_id', 'query.x']);
    // A route without a body schema: the query and the body are both named.
    expectFields(
      await t.get('/events/mine?page=0', { token: ana.token, body: { x: 1 } }),
      'query.page',
      'body',
    );
  });
});
