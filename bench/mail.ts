/**
 * The mail suite of `npm run bench` (`BENCH_SUITES=mail`): mail through the outbox against nodemailer
 * alone, in the same run, to the same local SMTP server (test/smtp-sink.ts in a process of its own,
 * bench/smtp-sink-process.ts; it counts messages without parsing them). Target: the outbox delivers
 * ≥ 0.7 × the mails/s of nodemailer sending the same rendered messages straight to the server.
 *
 * Steps:
 *   1. a fresh database (`<BENCH_DATABASE_NAME>_mail`) and the SMTP server;
 *   2. BENCH_MAIL_COUNT (2,000) messages rendered by the tests' simple renderer, and a service
 *      process (test/process-fixtures/mail-sender.ts: the app as in production, with that renderer
 *      registered, JOBS_POLL_MS=50) on the database;
 *   3. a warm-up of BENCH_MAIL_WARMUP (2,000) mails of each path, not counted; then rounds of the two
 *      paths, alternated as nodemailer, outbox, outbox, nodemailer (a machine getting busier or
 *      quieter during the suite weighs on both sides alike):
 *      - nodemailer alone: the rendered messages handed at once to one pooled transport with the
 *        outbox's pool settings; mails/s from the first send to the server's last acceptance;
 *      - the outbox: the same number of mails queued in one transaction, as a burst of
 *        registrations would; mails/s from the commit to the server's last acceptance, and every
 *        mail recorded as sent;
 *   4. the table and the verdict (each side's mails over its seconds, summed over its rounds);
 *      stop the child;
 *   5. registrations with and without mail: the service (as `npm start` runs it) on the database,
 *      free registrations at BENCH_MAIL_RATE/s, evenly spaced, for BENCH_MAIL_DURATION s after a warm-up, each
 *      confirming a seat and queueing its `registration_confirmed` mail (QR code, `.ics`), in four
 *      rounds alternated as off, on, on, off: without MAIL_URL (mail off: the rows are written,
 *      nothing is sent) and with MAIL_URL at the same server (rendered and sent while the
 *      registrations go on); each round's p99, and the mean of each side's two side by side.
 *      With mail, the mail is sent by `npm run worker` beside a service started with
 *      MAIL_SENDER=false, as docs/mail.md advises where requests' tail latency matters
 *      (BENCH_MAIL_SENDER=service: by the service itself, as a service does by default).
 *      Target: the mean p99 with mail within 25 % (or 10 ms) of the mean p99 without;
 *   6. drop the database; 1 if a target failed.
 *
 * Environment (all optional): BENCH_MAIL_COUNT (2000), BENCH_MAIL_ROUNDS (2 of each path), BENCH_MAIL_WARMUP (2000),
 * BENCH_MAIL_PHASES (`throughput,registrations`: steps 2–4 and step 5), BENCH_MAIL_RATE (50),
 * BENCH_MAIL_DURATION (20), BENCH_MAIL_WARMUP_S (8), BENCH_MAIL_SENDER (`worker` or `service`), and BENCH_DATABASE_URL, BENCH_DATABASE_NAME, BENCH_PORT as for the other suites.
 */
import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { type Database, openDatabase } from '../src/kernel/db/client.ts';
import { queryRows } from '../src/kernel/db/raw.ts';
import { queueMail } from '../src/modules/mail/index.ts';
import { simpleRenderer } from '../src/modules/mail/mail.fixtures.ts';
import { type WrittenMail, writeMail } from '../src/modules/mail/sending/mail.worker.ts';
import {
  beginSuite,
  builtEntry,
  callApi,
  cleanUp,
  common,
  cpuSeconds,
  log,
  logLoad,
  positiveInteger,
  printTable,
  publishedEdition,
  type RateMeasurement,
  type Signer,
  serviceArgs,
  serviceEnv,
  sleep,
  startChild,
  startService,
  stopChild,
} from './lib.ts';
import { percentile, runPaced } from './paced.ts';
import { type SinkProcess, startSinkProcess } from './smtp-sink-process.ts';

const TARGET = { ratio: 0.7, p99Ratio: 1.25, p99SlackMs: 10 };
const PHASES = ['throughput', 'registrations'];
const settings = {
  count: positiveInteger('BENCH_MAIL_COUNT', 2000),
  rate: positiveInteger('BENCH_MAIL_RATE', 50),
  durationS: positiveInteger('BENCH_MAIL_DURATION', 20),
  /**
   * Seconds of registrations before each round's measured ones, not counted (BENCH_MAIL_WARMUP_S):
   * long enough that a service started with MAIL_URL has started its mail threads and compiled
   * (JIT) the writing of a mail, 3–4 s of the threads' CPU at the bench's rate, as in a service
   * that has been running. Shorter, a round's p99 measures that start instead of mail beside
   * registrations.
   */
  warmupS: positiveInteger('BENCH_MAIL_WARMUP_S', 8),
  /** Rounds of each path in the throughput comparison (BENCH_MAIL_ROUNDS), alternated. */
  rounds: positiveInteger('BENCH_MAIL_ROUNDS', 2),
  /**
   * Mails of each path sent first and not counted (BENCH_MAIL_WARMUP): a burst as large as a round's,
   * so that the sender's second mail thread has started (from the sources, a second of CPU) and its
   * code is compiled before the rounds, as in a service that has been running.
   */
  warmup: positiveInteger('BENCH_MAIL_WARMUP', 2000),
  /** BENCH_MAIL_PHASES: `throughput`, `registrations` or both (the default), comma-separated. */
  phases: (process.env.BENCH_MAIL_PHASES ?? PHASES.join(','))
    .split(',')
    .map((name) => name.trim())
    .filter((name) => PHASES.includes(name)),
  databaseName: `${common.databaseName}_mail`,
  /**
   * Which process sends the mail of the rounds with mail (BENCH_MAIL_SENDER): `worker`, the
   * default, `npm run worker` beside a service started with MAIL_SENDER=false; `service`, the
   * service itself.
   */
  sender: process.env.BENCH_MAIL_SENDER === 'service' ? ('service' as const) : ('worker' as const),
};

/** `npm run worker` sending mail to `env`'s MAIL_URL; resolved once its mail sender runs. */
async function startMailWorker(
  databaseUrl: string,
  port: number,
  signer: Signer,
  env: Record<string, string>,
) {
  const worker = startChild(
    'worker',
    [...serviceArgs(), builtEntry('worker')],
    serviceEnv(databaseUrl, port, signer.publicJwks, { ...env, LOG_LEVEL: 'info' }),
  );
  await new Promise<void>((resolve, reject) => {
    worker.once('exit', (code) => reject(new Error(`the worker exited (${code}) while starting`)));
    worker.stdout?.on('data', (chunk: string) => {
      if (String(chunk).includes('mail sender started')) resolve();
    });
  });
  return worker;
}

async function waitForAccepted(accepted: () => number, count: number, what: string) {
  const deadline = Date.now() + 300_000;
  while (accepted() < count) {
    if (Date.now() > deadline) throw new Error(`${what}: ${accepted()} of ${count} accepted after 5 minutes`);
    await sleep(2);
  }
}

/** A paced round's measurement, with how late the bench itself sent (bench/paced.ts). */
type PacedMeasurement = RateMeasurement & { sendLagP99: number };

/**
 * One registration per token at `settings.rate`/s, evenly spaced and open-loop (bench/paced.ts:
 * autocannon's rate sends each second's requests in a burst at its top, and the burst's queue, not
 * the service, then makes the p99); latency from when each was due. The CPU of `service` over it.
 */
async function registerAtRate(
  service: ChildProcess,
  base: string,
  path: string,
  ticketTypeId: string,
  tokens: string[],
): Promise<PacedMeasurement> {
  const cpuBefore = cpuSeconds(service.pid);
  const body = JSON.stringify({ ticket_type_id: ticketTypeId });
  const result = await runPaced({
    origin: base,
    path,
    headers: {},
    headersOf: (index) => ({ authorization: `Bearer ${tokens[index]}` }),
    bodies: tokens.map(() => body),
    rate: settings.rate,
  });
  const non2xx = [...result.statuses].reduce((sum, [status, n]) => sum + (status >= 300 ? n : 0), 0);
  return {
    sent: result.sent,
    p50: Math.round(percentile(result.latencies, 50)),
    p99: Math.round(percentile(result.latencies, 99)),
    max: Math.round(result.latencies.at(-1) ?? Number.NaN),
    non2xx,
    errors: result.errors,
    cpuPercent: ((cpuSeconds(service.pid) - cpuBefore) / (tokens.length / settings.rate)) * 100,
    sendLagP99: Math.round(result.sendLagP99Ms),
  };
}

/**
 * Free registrations at `settings.rate`/s against the service started with `env`: an event of its
 * own (`label` in its slug), one person per registration. Answers the measurement of the run.
 */
async function registrations(
  databaseUrl: string,
  port: number,
  signer: Signer,
  label: string,
  env: Record<string, string>,
): Promise<PacedMeasurement> {
  const byWorker = env.MAIL_URL !== undefined && settings.sender === 'worker';
  const service = await startService(
    databaseUrl,
    port,
    signer.publicJwks,
    byWorker ? { ...env, MAIL_SENDER: 'false' } : env,
  );
  const worker = byWorker ? await startMailWorker(databaseUrl, port, signer, env) : undefined;
  try {
    const base = `http://127.0.0.1:${port}`;
    const organiser = await signer.token('organiser@bench.example');
    const { editionId } = await publishedEdition(base, organiser, 'Mail Bench', `mail-${label}`, 1);
    const ticket = (
      await callApi(base, 'POST', `/editions/${editionId}/ticket-types`, organiser, {
        name: 'Free pass',
        price_cents: 0,
        access_level: 1,
      })
    ).data;
    const tokens: string[] = [];
    for (let index = 0; index < settings.rate * (settings.warmupS + settings.durationS); index++) {
      tokens.push(await signer.token(`${label}-${index}@bench.example`));
    }
    const run = (batch: string[]) =>
      registerAtRate(service, base, `/editions/${editionId}/registrations`, ticket.id!, batch);
    await run(tokens.splice(0, settings.rate * settings.warmupS));
    return await run(tokens);
  } finally {
    await stopChild(service);
    if (worker !== undefined) await stopChild(worker);
  }
}

/** One round of the throughput comparison: its path, how long the burst took, and its CPU. */
interface Round {
  path: 'nodemailer alone' | 'the outbox';
  seconds: number;
  cpuSeconds: number;
  /** Mails recorded as `sent` (the outbox only). */
  sent: number | null;
}

/** Nodemailer alone: the rendered messages handed at once to a pooled transport like the outbox's. */
async function directRound(sink: SinkProcess, rendered: WrittenMail[], round: number): Promise<Round> {
  const transporter = nodemailer.createTransport({ url: sink.url, pool: true, maxConnections: 10 });
  const before = sink.accepted();
  const start = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    rendered.map((mail, i) =>
      transporter.sendMail({
        from: 'Convene <no-reply@localhost>',
        to: `person${i}@example.com`,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        attachments: mail.attachments,
        messageId: `<direct-${round}-${i}@127.0.0.1>`,
      }),
    ),
  );
  await waitForAccepted(() => sink.accepted() - before, rendered.length, 'nodemailer alone');
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  transporter.close();
  return { path: 'nodemailer alone', seconds, cpuSeconds: (used.user + used.system) / 1e6, sent: null };
}

/** The outbox: the mails queued in one transaction, timed from the commit to the last acceptance. */
async function outboxRound(
  sink: SinkProcess,
  database: Database,
  senderPid: number,
  round: number,
  count = settings.count,
): Promise<Round> {
  const before = sink.accepted();
  const cpu = cpuSeconds(senderPid);
  await database.transaction(async (tx) => {
    for (let i = 0; i < count; i += 1) {
      await queueMail(tx, {
        kind: 'signature_request',
        to: `round${round}-person${i}@example.com`,
        language: 'en',
        eventId: null,
        data: { subject: `Mail ${i}`, body: `Hello ${i}` },
      });
    }
  });
  const start = performance.now();
  await waitForAccepted(() => sink.accepted() - before, count, 'the outbox');
  const seconds = (performance.now() - start) / 1000;
  const cpuUsed = cpuSeconds(senderPid) - cpu;
  let sent = 0;
  for (const deadline = Date.now() + 30_000; sent < count && Date.now() < deadline; ) {
    [{ sent = 0 } = {}] = await queryRows<{ sent: number }>(
      database,
      sql`select count(*)::int as sent from emails
          where status = 'sent' and recipient like ${`round${round}-%`}`,
    );
    if (sent < count) await sleep(100);
  }
  return { path: 'the outbox', seconds, cpuSeconds: cpuUsed, sent };
}

/**
 * Steps 2 to 4: rounds of nodemailer alone and of the outbox, alternated (a drift of the machine's
 * load falls on both sides); true when the outbox met its target.
 */
async function throughput(databaseUrl: string, servicePort: number, signer: Signer, sink: SinkProcess) {
  // One after the other: a render has a wall-time limit (kernel/mail-templates/liquid.ts).
  const rendered: WrittenMail[] = [];
  for (let i = 0; i < settings.count; i += 1) {
    const draft = await simpleRenderer({ data: { subject: `Mail ${i}`, body: `Hello ${i}` } });
    rendered.push(await writeMail({ draft, envelope: null }));
  }
  const sender = startChild(
    'mail-sender',
    [...serviceArgs(), 'test/process-fixtures/mail-sender.ts'],
    serviceEnv(databaseUrl, servicePort, signer.publicJwks, {
      MAIL_URL: sink.url,
      JOBS_POLL_MS: '50',
      LOG_LEVEL: 'info',
    }),
  );
  const database = await openDatabase({ url: databaseUrl, dataDir: tmpdir() });
  try {
    await new Promise<void>((resolve, reject) => {
      sender.once('exit', (code) => reject(new Error(`the mail sender exited (${code}) while starting`)));
      sender.stdout?.on('data', (chunk: string) => {
        if (String(chunk).includes('mail sender ready')) resolve();
      });
    });
    const pid = sender.pid!;
    // A warm-up of each path, not counted: the code of both is compiled (JIT) before it is timed,
    // as in a service that has been running.
    await directRound(sink, rendered.slice(0, settings.warmup), -1);
    await outboxRound(sink, database.db, pid, -1, settings.warmup);
    const rounds: Round[] = [];
    for (let pair = 0; pair < settings.rounds; pair += 1) {
      logLoad(`before round pair ${pair + 1}`);
      const direct = () => directRound(sink, rendered, pair);
      const outbox = () => outboxRound(sink, database.db, pid, pair);
      for (const run of pair % 2 === 0 ? [direct, outbox] : [outbox, direct]) {
        const round = await run();
        log(`${round.path}: ${settings.count} mails in ${round.seconds.toFixed(2)} s`);
        rounds.push(round);
      }
    }
    const rate = (path: Round['path']) => {
      const side = rounds.filter((round) => round.path === path);
      return (settings.count * side.length) / side.reduce((sum, round) => sum + round.seconds, 0);
    };
    printTable(
      ['round', 'path', 'mails', 'seconds', 'mails/s', 'CPU s'],
      rounds.map((round, index) => [
        String(index + 1),
        round.path === 'the outbox'
          ? 'the outbox (batches of 50, 10 connections from its threads; the sending process)'
          : 'nodemailer alone (pooled, 10 connections; with the server)',
        String(settings.count),
        round.seconds.toFixed(2),
        (settings.count / round.seconds).toFixed(0),
        round.cpuSeconds.toFixed(2),
      ]),
    );
    const ratio = rate('the outbox') / rate('nodemailer alone');
    const unsent = rounds.filter((round) => round.sent !== null && round.sent !== settings.count).length;
    const passed = ratio >= TARGET.ratio && unsent === 0;
    log(
      `outbox / nodemailer alone: ${ratio.toFixed(2)} (mails/s over ${settings.rounds} rounds each; ` +
        `target ≥ ${TARGET.ratio}); ` +
        `${unsent === 0 ? 'every mail recorded as sent' : `${unsent} round(s) with mails not recorded as sent`}: ` +
        (passed ? 'passed' : 'FAILED'),
    );
    return passed;
  } finally {
    await stopChild(sender);
    await database.close();
  }
}

export async function runMail(): Promise<number> {
  const { databaseUrl, signer, servicePort } = await beginSuite(
    settings.databaseName,
    `${settings.count} mails to a local SMTP server`,
  );
  const sink = await startSinkProcess();
  try {
    const passed = settings.phases.includes('throughput')
      ? await throughput(databaseUrl, servicePort, signer, sink)
      : true;
    const unchanged = settings.phases.includes('registrations')
      ? await withAndWithoutMail(databaseUrl, servicePort, signer, sink)
      : true;
    return passed && unchanged ? 0 : 1;
  } finally {
    await cleanUp();
    await sink.close();
  }
}

/** Step 5: registrations in rounds without and with mail; true when mail left their p99 unchanged. */
async function withAndWithoutMail(
  databaseUrl: string,
  servicePort: number,
  signer: Signer,
  sink: SinkProcess,
) {
  {
    // 5. Registrations with and without mail.
    logLoad('before the registrations');
    // Rounds alternated (off, on, on, off): a drift of the machine's load falls on both sides.
    const rounds: { mail: boolean; measured: PacedMeasurement }[] = [];
    let acceptedDuring = 0;
    for (const [index, mail] of [false, true, true, false].entries()) {
      const accepted = sink.accepted();
      const env: Record<string, string> = mail ? { MAIL_URL: sink.url } : {};
      const measured = await registrations(databaseUrl, servicePort, signer, `r${index}`, env);
      if (mail) acceptedDuring += sink.accepted() - accepted;
      rounds.push({ mail, measured });
    }
    const registrationRow = ({ mail, measured: m }: (typeof rounds)[number], index: number) => [
      `round ${index + 1}: ${mail ? `with MAIL_URL, sent by the ${settings.sender}` : 'without MAIL_URL'}`,
      String(m.sent),
      `${m.p50} / ${m.p99} / ${m.max}`,
      `${m.non2xx} / ${m.errors}`,
      m.cpuPercent.toFixed(0),
      String(m.sendLagP99),
    ];
    printTable(
      [
        'POST /editions/{id}/registrations (free)',
        'requests',
        'p50 / p99 / max ms',
        'non-2xx / errors',
        'CPU %',
        'bench late p99 ms',
      ],
      rounds.map(registrationRow),
    );
    const meanP99 = (mail: boolean) => {
      const side = rounds.filter((round) => round.mail === mail);
      return side.reduce((sum, round) => sum + round.measured.p99, 0) / side.length;
    };
    const without = meanP99(false);
    const withMail = meanP99(true);
    const bound = Math.max(without * TARGET.p99Ratio, without + TARGET.p99SlackMs);
    const refused = rounds.reduce((sum, round) => sum + round.measured.non2xx, 0);
    const unchanged = withMail <= bound && refused === 0;
    log(
      `registration p99 with mail ${withMail.toFixed(0)} ms against ${without.toFixed(0)} ms without ` +
        `(means of two rounds each; bound ${bound.toFixed(0)} ms; mail sent by the ${settings.sender}); ` +
        `${acceptedDuring} mails accepted during and after the rounds with mail: ${unchanged ? 'passed' : 'FAILED'}`,
    );
    return unchanged;
  }
}
