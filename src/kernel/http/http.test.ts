/**
 * The HTTP kernel as a client meets it: every refusal is the error envelope of docs/reference/errors.md with
 * the right status and code, never a 5xx, and nothing is written by a refused request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectFields, expectOk } from '../../../test/assertions.ts';
import {
  createTestApp,
  credentialSigningKeyPem,
  type TestApp,
  type TestUser,
} from '../../../test/harness.ts';
import type { Edition } from '../../modules/events/editions/editions.schemas.ts';
import type { Event, MyEvent } from '../../modules/events/events/events.schemas.ts';

describe('HTTP kernel', () => {
  let t: TestApp;
  let ana: TestUser;
  before(async () => {
    t = await createTestApp();
    ana = await t.actor('ana');
  });
  after(() => t.close());

  const countMyEvents = async () =>
    (await t.get<MyEvent[]>('/events/mine', { token: ana.token })).body.pagination.total;

  it('answers malformed JSON with 400 BAD_REQUEST and writes nothing', async () => {
    const before = await countMyEvents();
    const response = await t.post<Event>('/events', {
      token: ana.token,
      payload: '{"name": "x", ',
      contentType: 'application/json',
    });
    expectError(response, 400, 'BAD_REQUEST');
    assert.equal(await countMyEvents(), before);
  });

  it('answers a non-JSON body with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    expectError(
      await t.post<Event>('/events', {
        token: ana.token,
        payload: 'name=x',
        contentType: 'application/x-www-form-urlencoded',
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectError(
      await t.post<Event>('/events', { token: ana.token, payload: 'hello', contentType: 'text/plain' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), slug: 'big' });
    expectError(
      await t.post<Event>('/events', { token: ana.token, payload: big, contentType: 'application/json' }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
  });

  it('names every offending field once: unknown fields, wrong types, patterns', async () => {
    const response = await t.post<Event>('/events', {
      token: ana.token,
      body: { name: 5, slug: 'Not A Slug', colour: 'red' },
    });
    const error = expectError(response, 400, 'VALIDATION_ERROR');
    const fields = (error.fields ?? []).map((entry: { field: string }) => entry.field).sort();
    assert.deepEqual(fields, ['colour', 'name', 'slug']);
  });

  it('never coerces body values ("100" is not accepted where a string is fine but a number is not)', async () => {
    expectFields(
      await t.post<Event>('/events', { token: ana.token, body: { name: 'Valid name', slug: 123 } }),
      'slug',
    );
    expectFields(
      await t.post<Event>('/events', { token: ana.token, body: { name: true, slug: 'ok-slug' } }),
      'name',
    );
  });

  it('refuses a body that is not an object', async () => {
    expectFields(await t.post<Event>('/events', { token: ana.token, body: ['name', 'slug'] }), 'body');
    expectFields(await t.post<Event>('/events', { token: ana.token, body: 'a string' }), 'body');
    expectFields(
      await t.post<Event>('/events', { token: ana.token, payload: 'null', contentType: 'application/json' }),
      'body',
    );
  });

  it('refuses NUL characters, unsafe numbers and prototype keys anywhere in a body', async () => {
    expectFields(
      await t.post<Event>('/events', { token: ana.token, body: { name: 'bad\u0000name', slug: 'nul-slug' } }),
      'name',
    );
    expectFields(
      await t.post<Event>('/events', {
        token: ana.token,
        payload: '{"name":"Big","slug":"big-n","description":"x","n":9007199254740993}',
        contentType: 'application/json',
      }),
      'n',
    );
    expectFields(
      await t.post<Event>('/events', {
        token: ana.token,
        payload: '{"name":"Proto","slug":"proto","__proto__":{"x":1}}',
        contentType: 'application/json',
      }),
      '__proto__',
    );
  });

  it('treats an empty JSON body as no body', async () => {
    expectFields(
      await t.post<Event>('/events', { token: ana.token, payload: '', contentType: 'application/json' }),
      'body',
    );
  });

  it('parses query parameters and refuses out-of-range paging and unknown parameters', async () => {
    expectOk(await t.get<Event[]>('/events?page=1&limit=100'));
    expectFields(await t.get<Event[]>('/events?page=0'), 'query.page');
    expectFields(await t.get<Event[]>('/events?limit=101'), 'query.limit');
    expectFields(await t.get<Event[]>('/events?limit=ten'), 'query.limit');
    expectFields(await t.get<Event[]>('/events?sort=name'), 'query.sort');
  });

  it('validates path ids as UUIDs', async () => {
    expectFields(await t.get<Event>('/events/12345'), 'params.event_id');
    expectFields(await t.get<Edition>("/editions/'%20or%201=1"), 'params.edition_id');
  });

  it('refuses a body on an operation that takes none, and unknown query parameters everywhere', async () => {
    const event = expectOk(
      await t.post<Event>('/events', { token: ana.token, body: { name: 'No body', slug: 'no-body' } }),
      201,
    );
    expectFields(
      await t.post<Event>(`/events/${event.id}/publish`, { token: ana.token, body: { force: true } }),
      'body',
    );
    expectFields(await t.get<Event>(`/events/${event.id}?expand=all`, { token: ana.token }), 'query.expand');
    // An empty object is no body at all.
    assert.equal(
      expectOk(await t.post<Event>(`/events/${event.id}/publish`, { token: ana.token, body: {} })).status,
      'active',
    );
  });

  it('replaces an x-request-id that is too long or carries unsafe characters', async () => {
    const long = await t.get('/health', { headers: { 'x-request-id': 'a'.repeat(200) } });
    assert.match(String(long.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const unsafe = await t.get('/health', { headers: { 'x-request-id': '<script>alert(1)</script>' } });
    assert.match(String(unsafe.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  it('includes debug details outside production only', async () => {
    const response = await t.post<Event>('/events', {
      token: ana.token,
      payload: '{',
      contentType: 'application/json',
    });
    assert.equal(typeof expectError(response, 400, 'BAD_REQUEST').debug?.raw_error, 'string');
  });
});

describe('HTTP kernel in production', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ NODE_ENV: 'production', CREDENTIAL_SIGNING_KEY: credentialSigningKeyPem() });
  });
  after(() => t.close());

  it('reveals nothing about a 500 and leaves out debug', async () => {
    const user = await t.user('prod');
    const malformed = await t.post<Event>('/events', {
      token: user.token,
      payload: '{',
      contentType: 'application/json',
    });
    assert.equal(expectError(malformed, 400, 'BAD_REQUEST').debug, undefined);
    // With the database gone, a database route fails unexpectedly.
    await t.database.handle.close();
    const response = await t.get<Event[]>('/events');
    assert.ok(response.status >= 500, `status ${response.status}`);
    const error = expectError(response, response.status, response.body.error?.code ?? '');
    assert.equal(error.debug, undefined);
    assert.ok(['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'].includes(error.code));
    assert.doesNotMatch(response.text, /stack|pglite|pool|at /i);
    expectError(await t.get('/ready'), 503, 'SERVICE_UNAVAILABLE');
  });
});

describe('rate limit', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
  });
  after(() => t.close());

  it('answers 429 TOO_MANY_REQUESTS with Retry-After past the limit, and never limits health, ready and metrics', async () => {
    for (let i = 0; i < 3; i++) expectOk(await t.get<Event[]>('/events'));
    const limited = await t.get<Event[]>('/events');
    expectError(limited, 429, 'TOO_MANY_REQUESTS');
    assert.match(String(limited.headers['retry-after']), /^\d+$/);
    // Bad credentials and unknown routes are counted and limited too.
    expectError(await t.get<MyEvent[]>('/events/mine', { token: 'forged' }), 429, 'TOO_MANY_REQUESTS');
    expectError(await t.get('/no-such-route'), 429, 'TOO_MANY_REQUESTS');
    for (let i = 0; i < 5; i++) {
      expectOk(await t.get('/health'));
      expectOk(await t.get('/ready'));
      assert.equal((await t.get('/metrics')).status, 200);
    }
  });
});
