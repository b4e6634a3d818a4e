/**
 * Hostile requests, sent the way an attacker or a careless client sends them: over a real socket
 * where framing matters. Every answer is the error envelope of docs/reference/errors.md, none is a 5xx,
 * and no connection is closed without one.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { expectError, expectFields, expectOk } from '../../../test/assertions.ts';
import { type ApiResponse, createTestApp, type TestApp, type TestUser } from '../../../test/harness.ts';
import { exchange, requestBytes, type WireResult } from '../../../test/wire.ts';
import type { Event, MyEvent } from '../../modules/events/events/events.schemas.ts';
import type { NotificationReceipt } from '../../modules/payments/webhooks/inbound/notifications.schemas.ts';
import type { EmailTemplate } from '../../modules/projects/email-templates/email-templates.schemas.ts';
import type { Project } from '../../modules/projects/projects/projects.schemas.ts';

/**
 * A wire answer as the envelope assertions read it. A reset, a close without an answer, or an
 * answer whose connection broke while the request was still being written (a client that writes
 * before it reads never sees that answer) fails them.
 */
function asResponse(result: WireResult): ApiResponse {
  // No JSON answer: `body` is what createTestApp gives then (see ApiResponse).
  const none = undefined as unknown as ApiResponse['body'];
  if (result.kind !== 'answer') {
    return { status: 0, headers: {}, body: none, text: `[${result.kind}: ${result.detail}]` };
  }
  const text = result.body.toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (result.writeFailed !== undefined) {
    return { status: 0, headers: {}, body: none, text: `[answer lost: ${result.writeFailed}] ${text}` };
  }
  return { status: result.status, headers: result.headers, body: body as ApiResponse['body'], text };
}

const head = (method: string, path: string, headers: Record<string, string> = {}) =>
  requestBytes(method, path, [['host', '127.0.0.1'], ...Object.entries(headers)]);

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;

describe('hostile requests on the wire', () => {
  let t: TestApp;
  let ana: TestUser;
  const target = { host: '127.0.0.1', port: 0 };
  before(async () => {
    t = await createTestApp();
    ana = await t.actor('ana');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    target.port = (t.app.server.address() as { port: number }).port;
  });
  const send = async (bytes: Buffer) => asResponse(await exchange(target, bytes, 15_000));
  after(() => t.close());

  const post = (path: string, payload: string, headers: Record<string, string> = {}) =>
    t.post(path, { token: ana.token, payload, contentType: 'application/json', headers });

  it('refuses JSON nested deeper than 64 levels with 400, counting levels outside strings only', async () => {
    expectError(await post('/events', nested(10_000)), 400, 'BAD_REQUEST');
    expectError(await post('/events', nested(100_000, '{"a":', '}')), 400, 'BAD_REQUEST');
    // The public, unauthenticated notification route reads the same way.
    expectError(
      await t.post<NotificationReceipt>('/webhooks/mercadopago', {
        payload: nested(10_000),
        contentType: 'application/json',
      }),
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
    expectError(await send(head('GET', '/health', { 'x-filler': 'a'.repeat(20_000) })), 431, 'BAD_REQUEST');
  });

  it('answers malformed percent-encoding with a 400 BAD_REQUEST envelope', async () => {
    expectError(await send(head('GET', '/events/%E0%A4%A')), 400, 'BAD_REQUEST');
  });

  it('names a path parameter over its length as a validation error', async () => {
    expectFields(await t.get<Event>(`/events/${'a'.repeat(300)}`, { token: ana.token }), 'params.event_id');
    expectFields(await t.get(`/events/${'s'.repeat(300)}:by-slug/editions/x:by-slug`), 'params.event_slug');
  });

  it('answers bad framing with a 400 BAD_REQUEST envelope', async () => {
    const frames = [
      head('POST', '/events', { 'content-length': '5', 'transfer-encoding': 'chunked' }),
      head('POST', '/events', { 'content-length': 'abc' }),
      head('GET', '/health', { 'x-nul': 'a\u0000b' }),
      Buffer.from('GET /health HTTP/9.9\r\n\r\n'),
      Buffer.from('NOT-A-REQUEST\r\n\r\n'),
    ];
    for (const frame of frames) expectError(await send(frame), 400, 'BAD_REQUEST');
  });

  it('serves HTTP/1.0 and 1.1 only: a request line without a version, or another version, is a 400', async () => {
    const lines = [
      'GET /health\r\n\r\n',
      'GET /health HTTP/0.9\r\n\r\n',
      'GET /health HTTP/2.0\r\nhost: 127.0.0.1\r\n\r\n',
      'GET /events HTTP/2.0\r\nhost: 127.0.0.1\r\n\r\n',
    ];
    for (const line of lines) {
      const answer = await send(Buffer.from(line, 'latin1'));
      expectError(answer, 400, 'BAD_REQUEST');
      assert.equal(answer.headers.connection, 'close', line);
      assert.ok(answer.headers['x-request-id'], 'the answer carries the headers every answer has');
    }
    expectOk(await send(Buffer.from('GET /health HTTP/1.0\r\n\r\n', 'latin1')));
    expectOk(await send(head('GET', '/health')));
  });

  it('delivers the 413 to a client that writes a whole large body before reading', async () => {
    // Larger than what loopback socket buffers absorb (~3.5 MiB): the server must read it.
    const body = Buffer.alloc(4 * 1024 * 1024, 'a');
    const withToken = { authorization: `Bearer ${ana.token}`, 'content-type': 'application/json' };
    const announced = head('POST', '/events', { ...withToken, 'content-length': String(body.length) });
    for (let i = 0; i < 5; i++) {
      expectError(await send(Buffer.concat([announced, body])), 413, 'PAYLOAD_TOO_LARGE');
    }
    // Chunked, with no length announced: the limit is found while reading.
    const chunked = head('POST', '/events', { ...withToken, 'transfer-encoding': 'chunked' });
    const chunk = Buffer.concat([
      Buffer.from(`${body.length.toString(16)}\r\n`),
      body,
      Buffer.from('\r\n0\r\n\r\n'),
    ]);
    expectError(await send(Buffer.concat([chunked, chunk])), 413, 'PAYLOAD_TOO_LARGE');
    // A refusal before the body is read (no token) reaches the client as well.
    const anonymous = head('POST', '/events', {
      'content-type': 'application/json',
      'content-length': String(body.length),
    });
    expectError(await send(Buffer.concat([anonymous, body])), 401, 'UNAUTHORIZED');
  });

  it('refuses a body on a route that takes none: 400 for JSON, 415 for anything else', async () => {
    expectFields(
      await t.get<MyEvent[]>('/events/mine', {
        token: ana.token,
        payload: JSON.stringify({ x: 1 }),
        contentType: 'application/json',
      }),
      'body',
    );
    expectError(
      await t.get<MyEvent[]>('/events/mine', {
        token: ana.token,
        payload: 'hello',
        contentType: 'text/plain',
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectFields(
      await t.get('/health', { payload: JSON.stringify([1]), contentType: 'application/json' }),
      'body',
    );
    // No body, an empty one, or `{}` on a body-less POST, are no body at all.
    expectOk(
      await t.get<MyEvent[]>('/events/mine', {
        token: ana.token,
        payload: '',
        contentType: 'application/json',
      }),
    );
  });

  it('refuses null, arrays and scalars where the body is an object, even when the body is optional', async () => {
    for (const payload of ['null', '[]', '[{}]', '"text"', '42', 'true']) {
      expectFields(await post('/events', payload), 'body');
      expectFields(
        await t.post<NotificationReceipt>('/webhooks/mercadopago', {
          payload,
          contentType: 'application/json',
        }),
        'body',
      );
    }
  });

  it('refuses query values that coerce to no finite number, contain NUL or are badly encoded', async () => {
    for (const query of ['page=1e309', 'limit=1e309', 'page=Infinity']) {
      expectFields(await t.get<Event[]>(`/events?${query}`), `query.${query.split('=')[0]}`);
    }
    const project = expectOk(
      await t.post<Project>('/projects', {
        token: ana.token,
        body: { name: 'Query', slug: 'query-project' },
      }),
      201,
    );
    expectFields(
      await t.get<EmailTemplate[]>(`/projects/${project.id}/email-templates?page=1e309`, {
        token: ana.token,
      }),
      'query.page',
    );
    expectFields(
      await t.post<NotificationReceipt>('/webhooks/mercadopago?data.id=1&type=payment%00', { body: {} }),
      'query.type',
    );
    for (const query of ['type=%E0%A4%A', 'type=%ZZ', 'type=%E0%A4']) {
      expectError(
        await t.post<NotificationReceipt>(`/webhooks/mercadopago?${query}`, { body: {} }),
        400,
        'BAD_REQUEST',
      );
    }
    // Well-formed escapes are values like any other.
    expectOk(await t.get<Event[]>('/events?page=%31'));
  });

  it('reads integers in the query as plain decimal only: no hex, exponent, sign, space or leading zero', async () => {
    for (const value of ['0x10', '1e2', '0b1', '0o7', '+5', '%205', '5%20', '05', '-0', '1.0', '1_0', '']) {
      for (const name of ['page', 'limit']) {
        expectFields(await t.get<Event[]>(`/events?${name}=${value}`), `query.${name}`);
      }
    }
    // Every bad field is named at once, with any other bad field.
    expectFields(
      await t.get<Event[]>('/events?page=1e2&limit=0x10&x=1'),
      'query.page',
      'query.limit',
      'query.x',
    );
    const plain = await t.get<Event[]>('/events?page=10&limit=16');
    expectOk(plain);
    assert.deepEqual([plain.body.pagination.page, plain.body.pagination.limit], [10, 16]);
  });

  it('validates the path, the query and the body together and names every bad field', async () => {
    const response = await t.patch<Event>('/events/not-a-uuid?x=1', { token: ana.token, body: { name: 5 } });
    const error = expectError(response, 400, 'VALIDATION_ERROR');
    const fields = (error.fields ?? []).map((entry: { field: string }) => entry.field).sort();
    assert.deepEqual(fields, ['name', 'params.event_id', 'query.x']);
    // A route without a body schema: the query and the body are both named.
    expectFields(
      await t.get<MyEvent[]>('/events/mine?page=0', {
        token: ana.token,
        payload: JSON.stringify({ x: 1 }),
        contentType: 'application/json',
      }),
      'query.page',
      'body',
    );
  });
});

describe('a client slow to send its headers', () => {
  let t: TestApp;
  const target = { host: '127.0.0.1', port: 0 };
  before(async () => {
    // A short bound, so that the test waits a moment and not the default 10 s.
    t = await createTestApp({ HTTP_HEADERS_TIMEOUT_MS: '300' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    target.port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  // The timeout only keeps a broken server from hanging the run; what is judged is that the server
  // answered and closed the connection while the client was still sending.
  it('is answered 408 and closed however steadily it trickles, once the headers time is up', {
    timeout: 20_000,
  }, async (context) => {
    const socket = connect(target);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => {});
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    // One byte every 20 ms of headers that never end (a slowloris client keeps each connection
    // alive this way for as long as the server lets it).
    const bytes = Buffer.from(`GET /health HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: ${'a'.repeat(10_000)}`);
    let sent = 0;
    const drip = setInterval(() => {
      if (!socket.destroyed && sent < bytes.length) socket.write(bytes.subarray(sent, ++sent));
    }, 20);
    // Stopped on every path, the test's timeout included, or the app could not close.
    const stop = () => {
      clearInterval(drip);
      socket.destroy();
    };
    context.signal.addEventListener('abort', stop);
    try {
      await closed;
    } finally {
      stop();
    }
    assert.ok(sent < bytes.length, 'the server closed the connection before the client stopped');
    const answer = Buffer.concat(received).toString('utf8');
    assert.match(answer, /^HTTP\/1\.1 408 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: string } };
    assert.equal(body.error.code, 'BAD_REQUEST');
  });
});
