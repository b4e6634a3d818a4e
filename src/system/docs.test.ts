/**
 * The OpenAPI document and the docs page under load and off loopback: the document is served from
 * memory (compressed, with an ETag), counted by the rate limit, and a connection that pipelines
 * requests without reading the answers is dropped instead of holding them all in memory. The
 * page's Content-Security-Policy works over plain HTTP on any address.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expectError, expectOk } from '../../test/assertions.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { eventually } from '../../test/subscriber.ts';
import { requestBytes } from '../../test/wire.ts';
import { resolve } from './openapi-components.ts';

describe('the OpenAPI document', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('is the generated document, with an ETag and a 304 for a client that has it', async () => {
    const response = await t.get('/docs/openapi.json');
    assert.equal(response.status, 200);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.deepEqual(response.body, JSON.parse(JSON.stringify(t.app.swagger())));
    const etag = String(response.headers.etag);
    assert.match(etag, /^"[\w-]+"$/);
    const again = await t.get('/docs/openapi.json', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    assert.equal(
      (await t.get('/docs/openapi.json', { headers: { 'if-none-match': '"other"' } })).status,
      200,
    );
  });

  it('is at most 490 KB, each repeated schema and answer written once under components', async () => {
    const text = (await t.get('/docs/openapi.json')).text;
    // At 1.9 MB, every schema inlined, the reference page showed nothing for 20 s and more. The bound
    // was 400 KB until browser sign-in (docs/reference/sign-in.md) added its six operations (~13 KB)
    // and the `csrf` reason of every cookie-authenticated write's 403 (~4 KB, shared per module), and
    // mail (docs/reference/mail.md) its log, an event's templates and invitations (~30 KB), and the
    // console (docs/reference/console.md) its four addresses and its module's error answers (~5 KB),
    // then its six other screens, and the sales (docs/reference/tickets.md: the registrations'
    // filters, the summary, the CSV, partial refunds, ~16 KB), then the door and certificates
    // (docs/console.md: the manifest, the service worker, two screens, a template's preview, the
    // certificates' search, ~7 KB), then the replay of an endpoint's webhook deliveries and its job's
    // view (docs/reference/webhooks.md, ~6 KB): what grows it is new routes, not inlining.
    assert.ok(Buffer.byteLength(text) <= 490_000, `${Buffer.byteLength(text)} bytes`);
    const document = JSON.parse(text) as {
      components: { schemas: Record<string, unknown>; responses: Record<string, unknown> };
    };
    for (const name of [
      'Event',
      'Edition',
      'Registration',
      'Intent',
      'Wallet',
      'Pagination',
      'ErrorEnvelope',
    ]) {
      assert.ok(document.components.schemas[name], `components.schemas.${name}`);
    }
    assert.ok(document.components.responses['events.NotFound'], 'components.responses["events.NotFound"]');
    // Every reference points at something.
    const refs = [...text.matchAll(/"\$ref":"([^"]+)"/g)].map((match) => match[1] as string);
    assert.ok(refs.length > 1000, `${refs.length} references`);
    for (const ref of new Set(refs)) assert.doesNotThrow(() => resolve(document, { $ref: ref }), ref);
  });

  it('is the same for a second app in the same process (finishing it changes no shared schema)', async () => {
    const second = await createTestApp();
    try {
      assert.equal(JSON.stringify(second.app.swagger()), JSON.stringify(t.app.swagger()));
    } finally {
      await second.close();
    }
  });

  it('is compressed for clients that accept it, with brotli preferred', async () => {
    const plain = (await t.get('/docs/openapi.json')).text;
    const br = await t.app.inject({ url: '/docs/openapi.json', headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain);
    assert.ok(br.rawPayload.length < plain.length / 5, `${br.rawPayload.length} bytes compressed`);
    const gzip = await t.app.inject({ url: '/docs/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gzip.rawPayload).toString(), plain);
    assert.match(String(gzip.headers.vary), /accept-encoding/i);
    const refused = await t.app.inject({
      url: '/docs/openapi.json',
      headers: { 'accept-encoding': 'br;q=0, gzip;q=0' },
    });
    assert.equal(refused.headers['content-encoding'], undefined);
    // The docs page's own copies are the same document.
    assert.deepEqual((await t.get('/docs/json')).body, JSON.parse(plain));
    assert.match((await t.get('/docs/yaml')).text, /^openapi: 3\.1\.0/m);
  });

  it('serves the page with a policy that works over plain HTTP on any address and fetches nothing third-party', async () => {
    const page = await t.get('/docs');
    assert.equal(page.status, 200);
    const policy = String(page.headers['content-security-policy']);
    assert.doesNotMatch(policy, /upgrade-insecure-requests/);
    assert.doesNotMatch(policy, /https:|validator\.swagger\.io/);
    assert.match(policy, /script-src 'self'/);
  });
});

describe('the OpenAPI document under the rate limit', () => {
  it('is counted and refused past the limit like any other route', async () => {
    const t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '2' });
    try {
      for (let i = 0; i < 2; i++) assert.equal((await t.get('/docs/openapi.json')).status, 200);
      expectError(await t.get('/docs/openapi.json'), 429, 'TOO_MANY_REQUESTS');
      expectOk(await t.get('/health'));
    } finally {
      await t.close();
    }
  });
});

describe('a connection that pipelines without reading', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  it('is dropped once too many answers wait on it, and the service keeps answering others', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.pause(); // never read
    socket.on('error', () => {});
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    try {
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(
        requestBytes('GET', '/docs/openapi.json', [['host', '127.0.0.1']])
          .toString('latin1')
          .repeat(200),
      );
      const openConnections = () =>
        new Promise<number>((resolve, reject) =>
          t.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
        );
      await eventually(
        async () => ((await openConnections()) === 0 ? true : undefined),
        'the server to drop the connection',
      );
      expectOk(await t.get('/health'));
    } finally {
      socket.destroy();
      await closed;
    }
  });
});
