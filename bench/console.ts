/**
 * The console suite of `npm run bench` (`BENCH_SUITES=console`): what the organiser console's sales
 * screen asks of the API on a large edition (issue 31). Target: the registrations' search and the
 * sales summary answer p99 < 100 ms at 50 concurrent connections, only 2xx, each judged beside a
 * bare Fastify route answering the same body in the same run (their ratios printed).
 *
 * Steps:
 *   1. a fresh database (`<BENCH_DATABASE_NAME>_console`), the service on it as a child process;
 *   2. seed through the API: an event and a published edition, a paid and a free ticket type, a
 *      wallet with a test-mode seller; then, in SQL for speed, BENCH_CONSOLE_REGISTRATIONS people
 *      (10,000) in the actor directory with their registrations, mostly paid (with their checkout
 *      intents, fee recorded), some held, free, cancelled and refunded;
 *   3. one answer of each route captured; the bare server answering those bodies;
 *   4. for each of the search and the summary: the bare route, then the service, each warmed up
 *      then measured for BENCH_CONSOLE_DURATION s at BENCH_CONNECTIONS connections;
 *   5. the table, the ratios and the verdict; stop the children, drop the database; 1 if a target
 *      failed.
 *
 * The console's own part: the scripts its first screen (`/console`) loads, fetched from the service
 * as a browser asking for gzip gets them. Target ≤ 200 KB compressed.
 *
 * Environment (all optional): BENCH_CONSOLE_REGISTRATIONS (10000), BENCH_CONSOLE_DURATION (seconds,
 * 10), BENCH_CONSOLE_WARMUP (seconds, 2), BENCH_CONNECTIONS (50), and BENCH_DATABASE_URL,
 * BENCH_DATABASE_NAME, BENCH_PORT, BENCH_PROFILE as for the other suites.
 */
import type { ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import pg from 'pg';
import { ensureConsoleBuilt } from '../test/console-build.ts';
import {
  beginSuite,
  callApi,
  cleanUp,
  common,
  cpuSeconds,
  freePort,
  log,
  logLoad,
  positiveInteger,
  printTable,
  publishedEdition,
  startBareServer,
  startService,
} from './lib.ts';

const TARGET = { connections: 50, maxP99Ms: 100, scriptKb: 200 };

const settings = {
  registrations: positiveInteger('BENCH_CONSOLE_REGISTRATIONS', 10_000),
  durationS: positiveInteger('BENCH_CONSOLE_DURATION', 10),
  warmupS: positiveInteger('BENCH_CONSOLE_WARMUP', 2),
  connections: positiveInteger('BENCH_CONNECTIONS', TARGET.connections),
  databaseName: `${common.databaseName}_console`,
};

/** What an organiser types in the search box: a part of a name, 11 of the people match it. */
const SEARCH = 'person123';

/** The organiser's set-up through the API: the edition, its two ticket types, a wallet and its seller. */
async function seedApi(base: string, token: string) {
  const { editionId } = await publishedEdition(base, token, 'Console Bench Conf', 'console-bench-conf');
  const ticket = (name: string, price: number) =>
    callApi(base, 'POST', `/editions/${editionId}/ticket-types`, token, {
      name,
      price_cents: price,
      access_level: 1,
      ...(price > 0 ? { currency: 'BRL' } : {}),
    });
  const paid = (await ticket('Conference pass', 15000)).data.id!;
  const free = (await ticket('Community', 0)).data.id!;
  const wallet = (await callApi(base, 'POST', '/wallets', token, { name: 'Console bench box office' })).data;
  const seller = (
    await callApi(base, 'POST', '/testmode/sellers', token, { wallet_id: wallet.id, provider: 'mercadopago' })
  ).data;
  return { editionId, paid, free, walletId: wallet.id!, sellerId: seller.id! };
}

/**
 * The people and their registrations, in SQL (through the API this alone would take minutes). Of
 * every 20: 14 paid and confirmed, 2 held, 2 free, 1 cancelled, 1 refunded; each paid one with its
 * checkout's intent as a checkout writes it (`fee_bps` 500, `metadata` naming the edition).
 */
async function seedSql(databaseUrl: string, ids: Awaited<ReturnType<typeof seedApi>>, count: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `with people as (
         insert into actors (user_id, email, name)
         select gen_random_uuid(), 'person' || i || '@bench.example', 'Person ' || i || ' Bench'
           from generate_series(1, $1::int) i
         returning user_id, (regexp_match(email, '[0-9]+'))[1]::int as i
       ), kinds as (
         select user_id, i,
                case when i % 20 < 14 then 'paid' when i % 20 < 16 then 'held' when i % 20 < 18 then 'free'
                     when i % 20 = 18 then 'cancelled' else 'refunded' end as kind,
                gen_random_uuid() as registration_id, gen_random_uuid() as intent_id
           from people
       ), paid_intents as (
         insert into intents (id, wallet_id, seller_id, amount_cents, refunded_cents, currency, sandbox,
                              provider, status, fee_bps, provider_data, metadata)
         select intent_id, $2::uuid, $3::uuid, 15000, case when kind = 'refunded' then 15000 else 0 end, 'BRL', true,
                'mercadopago',
                case kind when 'paid' then 'succeeded' when 'held' then 'pending' else 'refunded' end,
                500, '{}'::jsonb,
                jsonb_build_object('registration_id', registration_id, 'edition_id', $4::text,
                                   'ticket_type_id', $5::text)
           from kinds where kind in ('paid', 'held', 'refunded')
       )
       insert into registrations (id, edition_id, ticket_type_id, user_id, status, status_reason, intent_id,
                                  hold_expires_at, created_by, created_at, cancelled_at)
       select registration_id, $4::uuid, case when kind in ('free', 'cancelled') then $6::uuid else $5::uuid end, user_id,
              case kind when 'paid' then 'confirmed' when 'held' then 'pending_payment' when 'free' then 'confirmed'
                        when 'cancelled' then 'cancelled' else 'refunded' end,
              case when kind = 'refunded' then 'refunded' end,
              case when kind in ('paid', 'held', 'refunded') then intent_id end,
              case when kind = 'held' then now() + interval '2 hours' end,
              user_id, now() - make_interval(secs => i),
              case when kind in ('cancelled', 'refunded') then now() end
         from kinds`,
      [count, ids.walletId, ids.sellerId, ids.editionId, ids.paid, ids.free],
    );
    // What autovacuum does to a table loaded over days, done at once after this bulk load: the
    // statistics, the visibility map, and the trigram indexes' pending lists merged (GIN's
    // fastupdate queues new entries there, and a search reads the whole queue until they are).
    await client.query('vacuum analyze actors, registrations, intents');
  } finally {
    await client.end();
  }
}

interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  cpuPercent: number;
}

/** GETs `url` from `settings.connections` connections for `durationS` seconds. */
async function load(
  url: string,
  token: string,
  durationS: number,
  measured: ChildProcess,
): Promise<Measurement> {
  const cpuBefore = cpuSeconds(measured.pid);
  const result = await autocannon({
    url,
    headers: { authorization: `Bearer ${token}` },
    connections: settings.connections,
    duration: durationS,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuPercent: ((cpuSeconds(measured.pid) - cpuBefore) / durationS) * 100,
  };
}

async function warmAndMeasure(url: string, token: string, measured: ChildProcess) {
  await load(url, token, settings.warmupS, measured);
  return load(url, token, settings.durationS, measured);
}

/** One answer of the service, to check it and to have the bare route send the same body. */
async function capture(url: string, token: string): Promise<string> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${text}`);
  return text;
}

/** The scripts `/console` loads (its module scripts and preloaded chunks): files, bytes, gzip bytes. */
async function firstScreenScript(base: string): Promise<{ files: number; raw: number; gzip: number }> {
  const page = await (await fetch(`${base}/console`)).text();
  const sources = [
    ...page.matchAll(/<script[^>]* src="([^"]+)"/g),
    ...page.matchAll(/<link[^>]* rel="modulepreload"[^>]* href="([^"]+)"/g),
  ].map((match) => match[1]!);
  let raw = 0;
  let gzip = 0;
  for (const source of sources) {
    // node:http, not fetch: fetch inflates the body, and the bytes sent are what is measured.
    const { status, encoding, body } = await new Promise<{ status: number; encoding: string; body: Buffer }>(
      (resolve, reject) => {
        get(new URL(source, base), { headers: { 'accept-encoding': 'gzip' } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              encoding: String(response.headers['content-encoding'] ?? 'identity'),
              body: Buffer.concat(chunks),
            }),
          );
        }).on('error', reject);
      },
    );
    if (status !== 200) throw new Error(`${source}: ${status}`);
    gzip += encoding === 'gzip' ? body.length : gzipSync(body).length;
    raw += encoding === 'gzip' ? gunzipSync(body).length : body.length;
  }
  return { files: sources.length, raw, gzip };
}

export async function runConsole(): Promise<number> {
  const started = Date.now();
  // The service serves the console from its build (build/console/, outside git), as `npm start` does.
  ensureConsoleBuilt();
  try {
    // 1. database, service
    const { databaseUrl, signer, servicePort } = await beginSuite(
      settings.databaseName,
      `console: ${settings.registrations} registrations, ${settings.connections} connections, ` +
        `${settings.warmupS} s warm-up + ${settings.durationS} s per route`,
    );
    // Test mode only for the seed's seller (a wallet's sellers are made by OAuth otherwise); the
    // measured routes do not look at it.
    const service = await startService(databaseUrl, servicePort, signer.publicJwks, { TEST_MODE: 'true' });
    const base = `http://127.0.0.1:${servicePort}`;
    log('service ready');

    // 2. seed
    const organiser = await signer.token('organiser@bench.example');
    const ids = await seedApi(base, organiser);
    const seedStarted = Date.now();
    await seedSql(databaseUrl, ids, settings.registrations);
    log(`seeded ${settings.registrations} registrations in SQL in ${Date.now() - seedStarted} ms`);

    // 3. the answers, and the bare server sending them
    const routes = [
      {
        name: 'search',
        label: `GET /editions/{id}/registrations?q=${SEARCH}`,
        url: `${base}/editions/${ids.editionId}/registrations?q=${SEARCH}`,
      },
      { name: 'sales', label: 'GET /editions/{id}/sales', url: `${base}/editions/${ids.editionId}/sales` },
    ];
    // Not judged: an existing, simple route of the same edition (the public ticket types, one
    // indexed statement), measured the same way, shows what this machine gives any route now.
    const reference = {
      name: 'reference',
      label: 'GET /editions/{id}/ticket-types (reference)',
      url: `${base}/editions/${ids.editionId}/ticket-types`,
    };
    const bodies = new Map<string, string>();
    for (const route of routes) bodies.set(route.name, await capture(route.url, organiser));
    const search = JSON.parse(bodies.get('search')!) as { pagination: { total: number } };
    const sales = JSON.parse(bodies.get('sales')!) as { data: { counts: { sold: number } } };
    log(`search finds ${search.pagination.total}; the summary counts ${sales.data.counts.sold} sold`);
    const barePort = await freePort(servicePort + 1);
    const bare = await startBareServer(
      routes.map((route) => ({ path: `/bare/${route.name}`, body: bodies.get(route.name)! })),
      barePort,
    );

    // 4. each route: bare, then the service; then the reference
    const rows: string[][] = [];
    const failures: string[] = [];
    const ratios: string[] = [];
    const row = (name: string, m: Measurement) => [
      name,
      m.rps.toFixed(0),
      `${m.p50} / ${m.p99}`,
      `${m.non2xx} / ${m.errors}`,
      m.cpuPercent.toFixed(0),
    ];
    for (const route of routes) {
      const bareResult = await warmAndMeasure(
        `http://127.0.0.1:${barePort}/bare/${route.name}`,
        organiser,
        bare,
      );
      logLoad(`before ${route.name}`);
      const serviceResult = await warmAndMeasure(route.url, organiser, service);
      rows.push(row(`bare (same body as ${route.name})`, bareResult), row(route.label, serviceResult));
      ratios.push(
        `${route.name}: req/s service/bare ${(serviceResult.rps / Math.max(1, bareResult.rps)).toFixed(3)}, ` +
          `p99 service/bare ${(serviceResult.p99 / Math.max(1, bareResult.p99)).toFixed(1)}`,
      );
      if (serviceResult.p99 >= TARGET.maxP99Ms)
        failures.push(`${route.name}: p99 ${serviceResult.p99} ms >= ${TARGET.maxP99Ms} ms`);
      if (serviceResult.non2xx > 0 || serviceResult.errors > 0)
        failures.push(`${route.name}: ${serviceResult.non2xx} non-2xx, ${serviceResult.errors} errors`);
    }
    logLoad('before the reference');
    rows.push(row(reference.label, await warmAndMeasure(reference.url, organiser, service)));
    if (settings.connections < TARGET.connections)
      failures.push(`${settings.connections} connections is below the target's ${TARGET.connections}`);

    // The console's first screen: the scripts its page loads (entry and preloaded chunks), as the
    // service sends them to a browser asking for gzip (brotli, which browsers prefer, is smaller).
    const script = await firstScreenScript(base);
    log(
      `the console's first screen loads ${script.files} script file(s): ${(script.raw / 1024).toFixed(1)} KB, ` +
        `${(script.gzip / 1024).toFixed(1)} KB gzip (target ≤ ${TARGET.scriptKb} KB)`,
    );
    if (script.files === 0 || script.gzip > TARGET.scriptKb * 1024)
      failures.push(`console script: ${script.files} file(s), ${(script.gzip / 1024).toFixed(1)} KB gzip`);

    // 5. report
    printTable(['route', 'req/s', 'p50 / p99 ms', 'non-2xx / errors', 'CPU %'], rows);
    process.stdout.write(
      `\ntarget: p99 < ${TARGET.maxP99Ms} ms at ${TARGET.connections} connections, only 2xx, on ` +
        `${settings.registrations} registrations\n${ratios.join('\n')}\n`,
    );
    for (const failure of failures) process.stdout.write(`FAIL console: ${failure}\n`);
    log(`${failures.length === 0 ? 'PASS' : 'FAIL'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return failures.length === 0 ? 0 : 1;
  } finally {
    await cleanUp();
  }
}
