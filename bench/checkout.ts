/**
 * The checkout suite of `npm run bench` (`BENCH_SUITES=checkout`): paid registrations created at a
 * steady rate, each one a Mercado Pago preference (the simulator, in this process, answering after
 * BENCH_CHECKOUT_PROVIDER_MS, 20 ms by default) plus the registration, held seat, intent, event and
 * jobs in one transaction. Target (issue 13): p99 < 150 ms at 50 checkouts/s, only 2xx. A bare
 * Fastify POST route answering the same body at the same rate is measured beside it.
 *
 * Steps:
 *   1. a fresh database (`<BENCH_DATABASE_NAME>_checkout`); the simulator; the service on the
 *      database as a child process, pointed at the simulator;
 *   2. seed through the API: a wallet with a seller connected through the real OAuth flow, an
 *      event and a published edition linked to it, an unlimited paid ticket type;
 *   3. one token per payer, signed beforehand (a person holds one registration per edition);
 *   4. the bare route at the rate, then the service: warm-up, then BENCH_CHECKOUT_DURATION s;
 *   5. the table and the verdict; stop the children, drop the database; 1 if the target failed.
 *
 * Environment (all optional): BENCH_CHECKOUT_RATE (checkouts/s, 50), BENCH_CHECKOUT_DURATION
 * (seconds, 20), BENCH_CHECKOUT_WARMUP (seconds, 3), BENCH_CHECKOUT_PROVIDER_MS (20), and
 * BENCH_DATABASE_URL, BENCH_DATABASE_NAME, BENCH_PORT, BENCH_PROFILE as for the other suites.
 */
import type { ChildProcess } from 'node:child_process';
import { startMercadoPagoSimulator } from '../test/mercadopago-simulator.ts';
import {
  beginSuite,
  callApi,
  cleanUp,
  common,
  freePort,
  log,
  logLoad,
  positiveInteger,
  postAtRate,
  printTable,
  publishedEdition,
  type RateMeasurement,
  startBareServer,
  startService,
} from './lib.ts';

const TARGET = { rate: 50, maxP99Ms: 150 };

const settings = {
  rate: positiveInteger('BENCH_CHECKOUT_RATE', TARGET.rate),
  durationS: positiveInteger('BENCH_CHECKOUT_DURATION', 20),
  warmupS: positiveInteger('BENCH_CHECKOUT_WARMUP', 3),
  providerMs: positiveInteger('BENCH_CHECKOUT_PROVIDER_MS', 20),
  databaseName: `${common.databaseName}_checkout`,
};

const CLIENT = { clientId: 'bench-client', clientSecret: 'bench-secret' };

const call = callApi;

/** The organiser's set-up; answers the edition and the paid ticket type. */
async function seed(base: string, token: string) {
  const wallet = (await call(base, 'POST', '/wallets', token, { name: 'Bench box office' })).data;
  await call(base, 'PATCH', `/wallets/${wallet.id}/fee`, token, { fee_bps: 500 });
  const consent = (
    await call(base, 'POST', '/providers/mercadopago/connect', token, {
      flow: 'seller',
      wallet_id: wallet.id,
      final_redirect_url: 'https://bench.example/done',
    })
  ).data.url!;
  const callback = (await fetch(consent, { redirect: 'manual' })).headers.get('location')!;
  const done = (await fetch(callback, { redirect: 'manual' })).headers.get('location')!;
  const sellerId = new URL(done).searchParams.get('credential_id');
  if (sellerId === null) throw new Error(`the seller connection failed: ${done}`);
  const { eventId, editionId } = await publishedEdition(base, token, 'Paid Bench Conf', 'paid-bench-conf');
  await call(base, 'PUT', `/events/${eventId}/payments`, token, {
    wallet_id: wallet.id,
    seller_id: sellerId,
  });
  const ticket = (
    await call(base, 'POST', `/editions/${editionId}/ticket-types`, token, {
      name: 'Conference pass',
      price_cents: 15000,
      currency: 'BRL',
      access_level: 1,
    })
  ).data;
  return { editionId, ticketId: ticket.id! };
}

/** `settings.rate` requests a second for `durationS` seconds, each with the next of `tokens` when given. */
const atRate = (url: string, body: string, durationS: number, measured: ChildProcess, tokens?: string[]) =>
  postAtRate({
    url,
    body,
    rate: settings.rate,
    durationS,
    measured,
    ...(tokens === undefined ? {} : { tokens }),
  });

export async function runCheckout(): Promise<number> {
  const started = Date.now();
  const simulator = await startMercadoPagoSimulator({ ...CLIENT, delayMs: settings.providerMs });
  try {
    // 1. database, simulator, service
    const { databaseUrl, signer, servicePort } = await beginSuite(
      settings.databaseName,
      `checkout: ${settings.rate} paid registrations/s, provider answering in ${settings.providerMs} ms, ` +
        `${settings.warmupS} s warm-up + ${settings.durationS} s`,
    );
    const service = await startService(databaseUrl, servicePort, signer.publicJwks, {
      MERCADOPAGO_CLIENT_ID: CLIENT.clientId,
      MERCADOPAGO_CLIENT_SECRET: CLIENT.clientSecret,
      MERCADOPAGO_WEBHOOK_SECRET: 'bench-webhook-secret',
      MERCADOPAGO_AUTH_URL: simulator.url,
      MERCADOPAGO_API_URL: simulator.url,
    });
    const base = `http://127.0.0.1:${servicePort}`;
    log('service ready');

    // 2. seed
    const organiser = await signer.token('organiser@bench.example');
    const { editionId, ticketId } = await seed(base, organiser);
    const body = JSON.stringify({ ticket_type_id: ticketId });

    // 3. one token per payer
    const needed = settings.rate * (settings.warmupS + settings.durationS) + 1;
    const tokens: string[] = [];
    for (let index = 0; index < needed; index++)
      tokens.push(await signer.token(`payer${index}@bench.example`));
    const sample = await fetch(`${base}/editions/${editionId}/registrations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.pop()}`, 'content-type': 'application/json' },
      body,
    });
    const sampleText = await sample.text();
    if (sample.status !== 201) throw new Error(`a checkout answered ${sample.status}: ${sampleText}`);
    log(`seeded; ${tokens.length} payers`);

    // 4. bare route, then the service
    const barePort = await freePort(servicePort + 1);
    const bare = await startBareServer(
      [{ method: 'POST', path: '/bare/checkout', status: 201, body: sampleText }],
      barePort,
    );
    const bareUrl = `http://127.0.0.1:${barePort}/bare/checkout`;
    await atRate(bareUrl, body, settings.warmupS, bare);
    const bareResult = await atRate(bareUrl, body, settings.durationS, bare);
    logLoad('before the service run');
    const url = `${base}/editions/${editionId}/registrations`;
    const warm = tokens.splice(0, settings.rate * settings.warmupS);
    await atRate(url, body, settings.warmupS, service, warm);
    const serviceResult = await atRate(url, body, settings.durationS, service, tokens);

    // 5. report
    const failures: string[] = [];
    if (serviceResult.p99 >= TARGET.maxP99Ms)
      failures.push(`p99 ${serviceResult.p99} ms >= ${TARGET.maxP99Ms} ms`);
    if (serviceResult.non2xx > 0 || serviceResult.errors > 0) {
      failures.push(`${serviceResult.non2xx} non-2xx answers, ${serviceResult.errors} errors`);
    }
    if (settings.rate < TARGET.rate)
      failures.push(`rate ${settings.rate}/s is below the target's ${TARGET.rate}/s`);
    const row = (name: string, m: RateMeasurement, calls: string) => [
      name,
      String(settings.rate),
      String(m.sent),
      `${m.p50} / ${m.p99} / ${m.max}`,
      `${m.non2xx} / ${m.errors}`,
      m.cpuPercent.toFixed(0),
      calls,
    ];
    printTable(
      ['route', 'rate/s', 'requests', 'p50 / p99 / max ms', 'non-2xx / errors', 'CPU %', 'provider calls'],
      [
        row('bare POST (same answer)', bareResult, '-'),
        row('POST /editions/{id}/registrations (paid)', serviceResult, String(simulator.calls.preference)),
      ],
    );
    process.stdout.write(
      `\ntarget: p99 < ${TARGET.maxP99Ms} ms at ${TARGET.rate} checkouts/s with the provider answering in ` +
        `${settings.providerMs} ms, only 2xx; p99 ratio service/bare ${(serviceResult.p99 / Math.max(1, bareResult.p99)).toFixed(1)}\n`,
    );
    for (const failure of failures) process.stdout.write(`FAIL checkout: ${failure}\n`);
    log(`${failures.length === 0 ? 'PASS' : 'FAIL'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return failures.length === 0 ? 0 : 1;
  } finally {
    await cleanUp();
    await simulator.close();
  }
}
