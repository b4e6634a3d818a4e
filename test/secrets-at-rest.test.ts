/**
 * No secret at rest in clear: every kind of secret the service shows once is issued here, each
 * also through an idempotent replay (the same `Idempotency-Key` twice) where the route takes one:
 * webhook endpoint secrets (created, rotated twice, so one sits in `previous_secret`), signature
 * request tokens (and their links), revoke tokens, OAuth states and codes, browser session ids, and
 * the Mercado Pago access and refresh tokens of a collector and a seller connected through the
 * simulator's real OAuth flow. A test event is delivered, signed with an endpoint secret. Then the
 * whole database is dumped, and neither a secret nor an obvious encoding of it (base64, base64url,
 * hex, and the random bytes inside it) may appear:
 *
 * - on both databases, every row of every table of every schema that is not the system's, as text;
 * - on a PostgreSQL server, also `pg_dump`'s output, when the binary is installed;
 * - on the embedded database, also its data directory as files (dead rows and the WAL included).
 *
 * The service's logs, at `trace`, are scanned the same way. Mail goes out over SMTP to a server on
 * loopback, as in production: a signature request's link reaches its signatory there, while the
 * outbox keeps its token sealed. (Without `MAIL_URL`, the development mailbox keeps the mail as sent,
 * link included: it is the development stand-in for the recipient's inbox, closed in production.)
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import {
  createEdition,
  createEvent,
  PNG_DATA_URL,
} from '../src/modules/events/signatures/signatures.fixtures.ts';
import type {
  CreatedSignatureRequest,
  FulfilledSignature,
} from '../src/modules/events/signatures/signatures.schemas.ts';
import type { ConnectResult } from '../src/modules/payments/connections/connections.schemas.ts';
import type { Wallet } from '../src/modules/payments/wallets/wallets.schemas.ts';
import type { WebhookEndpointWithSecret } from '../src/modules/payments/webhooks/endpoints/endpoints.schemas.ts';
import { expectOk } from './assertions.ts';
import { type ApiResponse, createTestApp, type TestApp, type TestUser } from './harness.ts';
import { type MercadoPagoSimulator, startMercadoPagoSimulator } from './mercadopago-simulator.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';
import { eventually, type Subscriber, startSubscriber } from './subscriber.ts';

const CLIENT = { clientId: 'dump-client', clientSecret: 'dump-client-secret' };

/** The spellings of a secret worth looking for: itself, its text encoded, the bytes inside it. */
function spellings(secret: string): string[] {
  const text = Buffer.from(secret, 'utf8');
  const forms = new Set([secret, text.toString('base64'), text.toString('base64url'), text.toString('hex')]);
  // `whsec_` + base64 of 32 bytes; tokens are base64url of 32 bytes. Their bytes, spelled otherwise.
  const inner = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const bytes = /^[A-Za-z0-9+/]+=*$/.test(inner)
    ? Buffer.from(inner, 'base64')
    : /^[A-Za-z0-9_-]+$/.test(inner)
      ? Buffer.from(inner, 'base64url')
      : undefined;
  forms.add(inner);
  if (bytes !== undefined && bytes.length >= 16) {
    for (const encoding of ['hex', 'base64', 'base64url'] as const) {
      forms.add(bytes.toString(encoding).replace(/=+$/, ''));
    }
  }
  return [...forms];
}

/**
 * Each secret (named by what it is) found in `text`, with the spelling found. Hex is looked for in
 * lower case, as PostgreSQL writes it (`bytea`) and Node's `toString('hex')` does.
 */
function secretsIn(text: string, secrets: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [secret, what] of secrets) {
    for (const form of spellings(secret)) {
      if (text.includes(form)) {
        found.push(`${what} (as ${form === secret ? 'itself' : form})`);
        break;
      }
    }
  }
  return found;
}

/** Every row of every table of every schema but the system's, as text, on either database. */
async function dumpRows(t: TestApp): Promise<{ text: string; tables: string[] }> {
  const listed = (await t.db.execute(sql`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_type = 'BASE TABLE'
      and table_schema not in ('pg_catalog', 'information_schema')
      and table_schema not like 'pg\\_%'
    order by 1, 2`)) as unknown as { rows: Array<{ schema: string; name: string }> };
  const parts: string[] = [];
  for (const { schema, name } of listed.rows) {
    const rows = (await t.db.execute(
      sql`select t::text as row from ${sql.identifier(schema)}.${sql.identifier(name)} t`,
    )) as unknown as { rows: Array<{ row: string }> };
    parts.push(`-- ${schema}.${name}`, ...rows.rows.map((row) => row.row));
  }
  return { text: parts.join('\n'), tables: listed.rows.map(({ schema, name }) => `${schema}.${name}`) };
}

/** `pg_dump` of a server database; undefined when the binary is not installed. */
function pgDump(url: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    execFile(
      'pg_dump',
      ['--no-owner', '--dbname', url],
      { maxBuffer: 256 * 1024 * 1024 },
      (error, stdout) => {
        if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') resolve(undefined);
        else if (error !== null) reject(error);
        else resolve(stdout);
      },
    );
  });
}

describe('secrets at rest', () => {
  let sim: MercadoPagoSimulator;
  let subscriber: Subscriber;
  let sink: SmtpSink;
  let t: TestApp;
  let owner: TestUser;
  const logs: string[] = [];

  before(async () => {
    sim = await startMercadoPagoSimulator(CLIENT);
    subscriber = await startSubscriber();
    sink = await startSmtpSink();
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString('utf8'));
        done();
      },
    });
    t = await createTestApp(
      {
        MERCADOPAGO_CLIENT_ID: CLIENT.clientId,
        MERCADOPAGO_CLIENT_SECRET: CLIENT.clientSecret,
        MERCADOPAGO_AUTH_URL: sim.url,
        MERCADOPAGO_API_URL: sim.url,
        MAIL_URL: sink.url,
        JOBS_POLL_MS: '50',
        LOG_LEVEL: 'trace',
      },
      { logStream },
    );
    owner = await t.actor('owner');
  });
  after(async () => {
    await t?.close();
    await subscriber?.close();
    await sink?.close();
    await sim?.close();
  });

  /** Sends a request twice with one key: the second is the first answer, replayed. */
  async function twice<T>(key: string, send: (headers: Record<string, string>) => Promise<ApiResponse<T>>) {
    const headers = { 'idempotency-key': key };
    const first = await send(headers);
    assert.ok(first.status < 400, `${key}: ${first.status} ${first.text}`);
    const replay = await send(headers);
    assert.equal(replay.headers['idempotent-replayed'], 'true', `${key} replayed`);
    assert.equal(replay.text, first.text, `${key}: the replay is the first answer`);
    return first.body.data;
  }

  it('keeps none of the secrets it showed once in clear, in any table or in the logs', async (context) => {
    const issued = new Map<string, string>();
    const remember = (what: string, secret: string | null | undefined) => {
      assert.ok(typeof secret === 'string' && secret.length >= 20, `${what} was issued`);
      issued.set(secret, what);
    };
    const by = { token: owner.token };

    // 1. Webhook endpoint secrets: at creation, and rotated twice (the first rotation then signs
    //    alongside as the previous secret); a test event is delivered signed with them.
    const wallet = expectOk(await t.post<Wallet>('/wallets', { ...by, body: { name: 'Dump shop' } }), 201);
    const endpoint = await twice('dump-endpoint', (headers) =>
      t.post<WebhookEndpointWithSecret>(`/wallets/${wallet.id}/webhooks/endpoints`, {
        ...by,
        headers,
        body: { name: 'Dump hook', url: subscriber.url },
      }),
    );
    remember('an endpoint secret', endpoint.secret);
    const rotate = (headers: Record<string, string> = {}) =>
      t.post<WebhookEndpointWithSecret>(`/webhooks/endpoints/${endpoint.id}/rotate-secret`, {
        ...by,
        headers,
      });
    remember('a rotated endpoint secret', (await twice('dump-rotate', rotate)).secret);
    remember('a second rotated endpoint secret', expectOk(await rotate(), 200).secret);
    expectOk(await t.post(`/webhooks/endpoints/${endpoint.id}/test`, by), 202);
    await subscriber.waitFor(1);
    await eventually(async () => {
      const rows = (await t.db.execute(
        sql`select 1 from webhook_deliveries where endpoint_id = ${endpoint.id} and status = 'delivered'`,
      )) as unknown as { rows: unknown[] };
      return rows.rows.length > 0 ? true : undefined;
    }, 'the test delivery recorded');

    // 2. Signature tokens and links, revoke tokens (one of them used).
    const event = await createEvent(t, owner);
    const edition = await createEdition(t, owner, event.id, { publish: true });
    const requestSignature = (key: string) =>
      twice(key, (headers) =>
        t.post<CreatedSignatureRequest>(`/editions/${edition.id}/signature-requests`, {
          ...by,
          headers,
          body: { signatory_name: 'Marta Ferreira', signatory_email: 'marta@example.com' },
        }),
      );
    for (const key of ['dump-signature-1', 'dump-signature-2']) {
      const request = await requestSignature(key);
      remember('a signature request token', request.token);
      remember('a signature request link', request.fulfill_url);
      // Its mail took the link to the signatory, the one place it goes.
      await eventually(
        async () => sink.mails.find((mail) => (mail.html || '').includes(request.fulfill_url)),
        "the signatory's mail",
      );
      // A token route has no caller to keep a key for: the header is ignored there.
      const signed = expectOk(
        await t.post<FulfilledSignature>(`/signature-requests/fulfill?token=${request.token}`, {
          headers: { 'idempotency-key': `${key}-fulfil` },
          body: { image_url: PNG_DATA_URL },
        }),
        201,
      );
      remember('a revoke token', signed.revoke_token);
      if (key.endsWith('2')) expectOk(await t.post(`/signatures/revoke?token=${signed.revoke_token}`));
    }

    // 3. Provider tokens: a collector and a seller connected through the OAuth flow.
    for (const [key, body] of [
      ['dump-connect-collector', { flow: 'collector', final_redirect_url: 'https://app.example.com/done' }],
      [
        'dump-connect-seller',
        { flow: 'seller', wallet_id: wallet.id, final_redirect_url: 'https://app.example.com/done' },
      ],
    ] as const) {
      const { url } = await twice(key, (headers) =>
        t.post<ConnectResult>('/providers/mercadopago/connect', { ...by, headers, body }),
      );
      remember('an OAuth state', new URL(url).searchParams.get('state'));
      const consent = await fetch(url, { redirect: 'manual' });
      const callback = new URL(consent.headers.get('location') ?? '');
      remember('an OAuth code', callback.searchParams.get('code'));
      const answer = await t.get(`${callback.pathname}${callback.search}`);
      assert.equal(answer.status, 302, answer.text);
      assert.match(String(answer.headers.location), /status=connected/);
    }
    assert.equal(sim.issuedTokens.length, 2);
    for (const token of sim.issuedTokens) remember('a provider access token', token);
    for (const token of sim.issuedRefreshTokens) remember('a provider refresh token', token);

    // 3b. Browser session ids (docs/reference/sign-in.md): two sessions, one of them signed out.
    const origin = new URL(t.baseUrl).origin;
    for (const email of ['dump-stays@example.com', 'dump-leaves@example.com']) {
      const signedIn = await t.post('/auth/dev-sign-in', { body: { email }, headers: { origin } });
      const cookie = String(signedIn.headers['set-cookie']).split(';')[0] ?? '';
      remember('a session id', cookie.split('=')[1]);
      if (email.includes('leaves')) {
        const out = await t.post('/auth/sign-out', { headers: { cookie, origin, 'x-convene-csrf': '1' } });
        assert.equal(out.status, 303);
      } else {
        expectOk(await t.get('/auth/session', { headers: { cookie } }));
      }
    }

    // 4. The dumps: what was issued is there, sealed or hashed, and none of it in clear. Every
    //    place is scanned before judging, so a failure names each one that shows a secret.
    const found: Record<string, string[]> = {};
    const { text, tables } = await dumpRows(t);
    for (const table of ['public.idempotency_keys', 'public.webhook_endpoints', 'public.sellers']) {
      assert.ok(tables.includes(table), `the dump covers ${table}`);
    }
    for (const key of ['dump-endpoint', 'dump-rotate', 'dump-signature-1', 'dump-connect-seller']) {
      assert.ok(text.includes(key), `the dump holds the answer kept for ${key}`);
    }
    assert.ok(text.includes(endpoint.id), 'the dump holds the endpoint');
    found['rows of every table'] = secretsIn(text, issued);

    if (t.database.url !== undefined) {
      const dumped = await pgDump(t.database.url);
      if (dumped === undefined) {
        context.diagnostic('pg_dump is not installed: only the rows read through SQL were scanned');
      } else {
        assert.ok(dumped.includes(endpoint.id), 'pg_dump holds the endpoint');
        found.pg_dump = secretsIn(dumped, issued);
      }
    } else {
      const files = await t.database.handle.pglite!.dumpDataDir('none');
      const bytes = Buffer.from(await files.arrayBuffer()).toString('latin1');
      assert.ok(bytes.includes(endpoint.id), 'the data directory holds the endpoint');
      found['the data directory'] = secretsIn(bytes, issued);
    }

    const logged = logs.join('');
    assert.ok(logged.includes('/rotate-secret'), 'the requests were logged');
    found.logs = secretsIn(logged, issued);

    const inClear = Object.entries(found).filter(([, secrets]) => secrets.length > 0);
    assert.deepEqual(Object.fromEntries(inClear), {}, 'secrets in clear, by where they were found');
  });
});
