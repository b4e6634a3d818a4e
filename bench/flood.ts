/**
 * The flood suite of `npm run bench` (`BENCH_SUITES=flood`): what hostile clients do to everyone
 * else. Issue 11 (item 8 and its "Done when"): while 20 connections pipeline `/docs/openapi.json`
 * without ever reading, and while 40 connections send JSON nested 10,000 levels deep, `/health`
 * answers with p99 < 1 s and the service's RSS stays under 300 MiB, on PostgreSQL. Issue 27
 * (item 2): while clients loop certificate PDFs with five signatures of the largest size,
 * `/health` answers with p99 < 250 ms and no other request is turned away (503).
 *
 * Steps:
 *   1. a fresh database, a key pair, the service as in production (NODE_ENV=production, load
 *      shedding on) but with the rate limit off, the worst case: only the service's own bounds
 *      protect it;
 *   2. a quiet phase: the probes alone, for the figures at rest;
 *   3. phases `openapi`, `deep-json`, `both` and `pdf`, each BENCH_FLOOD_DURATION seconds:
 *      - openapi: 20 sockets each write 50 pipelined `GET /docs/openapi.json` (no Accept-Encoding,
 *        so the largest answer) every 500 ms and never read; a socket the service drops is opened
 *        again at once;
 *      - deep-json: 40 connections each send `POST /webhooks/mercadopago` with 10,000 nested `[`
 *        (20 KB, no credentials needed) in a loop, reading each answer;
 *      - pdf: 4 clients loop `GET /certificates/{id}/pdf`, each time a certificate not asked
 *        before, of an edition with five 614 x 614 RGBA signatures (bench/flood-pdf.ts, which
 *        seeds them before the phases);
 *   4. meanwhile, in every phase: `GET /health` every 50 ms (latency), `GET /events` every 50 ms
 *      (an unrelated API read: its status, to see whether load shedding turned it away), and the
 *      service's RSS every 100 ms from /proc;
 *   5. the table and the verdict; 1 when a target failed.
 *
 * Environment (optional): BENCH_FLOOD_DURATION (seconds per phase, 15), BENCH_FLOOD_PHASES (some
 * of the phases, comma-separated, e.g. `quiet,pdf`; default all), BENCH_FLOOD_CERTIFICATES
 * (certificates seeded for the pdf phase, 300), BENCH_DATABASE_URL, BENCH_DATABASE_NAME
 * (`<name>_flood` is used), BENCH_PORT.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { Agent, request } from 'undici';
import { loopPdfs, type PdfAnswers, type PdfSeed, seedCertificates } from './flood-pdf.ts';
import {
  beginSuite,
  cleanUp,
  common,
  log,
  logLoad,
  positiveInteger,
  printTable,
  sleep,
  startService,
} from './lib.ts';

const PHASES = ['quiet', 'openapi', 'deep-json', 'both', 'pdf'];

const settings = {
  durationS: positiveInteger('BENCH_FLOOD_DURATION', 15),
  /** BENCH_FLOOD_PHASES: some phases, comma-separated (`quiet,pdf`); default all, in order. */
  phases: (process.env.BENCH_FLOOD_PHASES ?? PHASES.join(','))
    .split(',')
    .map((name) => name.trim())
    .filter((name) => PHASES.includes(name)),
  databaseName: `${common.databaseName}_flood`,
};

const PIPELINING_SOCKETS = 20;
const PIPELINED_REQUESTS = 50;
const DEEP_CONNECTIONS = 40;
const DEEP_BODY = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
const TARGET_HEALTH_P99_MS = 1_000;
/** The pdf phase's: rendering is CPU work of the service's own, which must not reach /health. */
const TARGET_PDF_HEALTH_P99_MS = 250;
const TARGET_RSS_MIB = 300;

interface PhaseResult {
  name: string;
  healthMs: number[];
  healthFailures: number;
  /** Status of each unrelated read (0: no answer). */
  readStatuses: Map<number, number>;
  maxRssMiB: number;
  pipelinedConnections: number;
  deepAnswers: Map<number, number>;
  pdfAnswers: PdfAnswers | undefined;
}

/** Resident set size of a process in MiB, from /proc (Linux); NaN elsewhere. */
function rssMiB(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return line ? Number(line[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

const count = (map: Map<number, number>, key: number) => map.set(key, (map.get(key) ?? 0) + 1);

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Keeps PIPELINING_SOCKETS sockets open, each with PIPELINED_REQUESTS unread requests; counts opens. */
function pipelineWithoutReading(
  port: number,
  isRunning: () => boolean,
): { opened: () => number; stop(): void } {
  const sockets = new Set<Socket>();
  let opened = 0;
  const burst = `GET /docs/openapi.json HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`.repeat(PIPELINED_REQUESTS);
  const open = () => {
    if (!isRunning()) return;
    opened++;
    const socket = connect(port, '127.0.0.1');
    sockets.add(socket);
    socket.pause(); // never read
    socket.on('error', () => {});
    // More requests every half second, as a flooding client sends: a write is also how a client
    // that never reads learns that the service dropped the connection (EPIPE, then 'close').
    const timer = setInterval(() => socket.write(burst), 500);
    socket.once('connect', () => socket.write(burst));
    socket.once('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      // Reconnect at once, as an attacker would; a short pause keeps a refused connect from spinning.
      setTimeout(open, 10);
    });
  };
  for (let i = 0; i < PIPELINING_SOCKETS; i++) open();
  return {
    opened: () => opened,
    stop: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** DEEP_CONNECTIONS loops sending the deep body; resolves with the answers by status when stopped. */
async function sendDeepJson(base: string, isRunning: () => boolean, answers: Map<number, number>) {
  const agent = new Agent({ connections: DEEP_CONNECTIONS, pipelining: 1 });
  const loop = async () => {
    while (isRunning()) {
      try {
        const answer = await request(`${base}/webhooks/mercadopago`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: DEEP_BODY,
          dispatcher: agent,
        });
        await answer.body.dump();
        count(answers, answer.statusCode);
      } catch {
        count(answers, 0);
      }
    }
  };
  await Promise.all(Array.from({ length: DEEP_CONNECTIONS }, loop));
  await agent.close();
}

/** Every `intervalMs`, one request; its latency (or a failure) recorded. Resolves when stopped. */
async function probe(
  url: string,
  intervalMs: number,
  isRunning: () => boolean,
  onAnswer: (ms: number, status: number) => void,
) {
  const agent = new Agent({ connections: 1 });
  const inFlight: Array<Promise<void>> = [];
  while (isRunning()) {
    const started = performance.now();
    inFlight.push(
      request(url, { dispatcher: agent, headersTimeout: 30_000, bodyTimeout: 30_000 })
        .then(async (answer) => {
          await answer.body.dump();
          onAnswer(performance.now() - started, answer.statusCode);
        })
        .catch(() => onAnswer(performance.now() - started, 0)),
    );
    await sleep(intervalMs);
  }
  await Promise.all(inFlight);
  await agent.close();
}

async function runPhase(
  name: string,
  base: string,
  port: number,
  pid: number,
  pdfSeed: PdfSeed | undefined,
): Promise<PhaseResult> {
  const result: PhaseResult = {
    name,
    healthMs: [],
    healthFailures: 0,
    readStatuses: new Map(),
    maxRssMiB: 0,
    pipelinedConnections: 0,
    deepAnswers: new Map(),
    pdfAnswers: undefined,
  };
  let running = true;
  const isRunning = () => running;
  const rssTimer = setInterval(() => {
    result.maxRssMiB = Math.max(result.maxRssMiB, rssMiB(pid));
  }, 100);
  const pipelining =
    name === 'openapi' || name === 'both' ? pipelineWithoutReading(port, isRunning) : undefined;
  const deep =
    name === 'deep-json' || name === 'both' ? sendDeepJson(base, isRunning, result.deepAnswers) : undefined;
  const pdfs = name === 'pdf' && pdfSeed !== undefined ? loopPdfs(base, pdfSeed, isRunning) : undefined;
  const probes = Promise.all([
    probe(`${base}/health`, 50, isRunning, (ms, status) => {
      if (status === 200) result.healthMs.push(ms);
      else result.healthFailures++;
    }),
    probe(`${base}/events`, 50, isRunning, (_ms, status) => count(result.readStatuses, status)),
  ]);
  await sleep(settings.durationS * 1000);
  running = false;
  pipelining?.stop();
  [, , result.pdfAnswers] = await Promise.all([probes, deep, pdfs]);
  clearInterval(rssTimer);
  result.pipelinedConnections = pipelining?.opened() ?? 0;
  return result;
}

const kib = (bytes: number | undefined) => (bytes === undefined ? '-' : (bytes / 1024).toFixed(0));

const describeStatuses = (map: Map<number, number>) =>
  [...map]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status === 0 ? 'none' : status}×${n}`)
    .join(' ') || '-';

/** A hostile-client phase: /health within its target, every probe answered, memory bounded. */
function isFloodPhaseOk(r: PhaseResult): boolean {
  const deep5xx = [...r.deepAnswers].some(([status]) => status >= 500 || status === 0);
  return (
    percentile(r.healthMs, 99) < TARGET_HEALTH_P99_MS &&
    r.healthFailures === 0 &&
    r.maxRssMiB < TARGET_RSS_MIB &&
    !deep5xx
  );
}

/**
 * The pdf phase: /health within its tighter target and every probe answered; the unrelated read
 * never turned away; PDFs answered (a 503 of a full render queue is allowed, it says when to come
 * back), and some rendered, or the phase measured nothing.
 */
function isPdfPhaseOk(r: PhaseResult): boolean {
  const pdf = r.pdfAnswers;
  const onlyOk = [...r.readStatuses.keys()].every((status) => status === 200);
  const pdfFailed = [...(pdf?.statuses ?? [])].some(
    ([status]) => status === 0 || (status >= 500 && status !== 503),
  );
  return (
    percentile(r.healthMs, 99) < TARGET_PDF_HEALTH_P99_MS &&
    r.healthFailures === 0 &&
    onlyOk &&
    !pdfFailed &&
    (pdf?.statuses.get(200) ?? 0) > 0
  );
}

export async function runFlood(): Promise<number> {
  try {
    const { databaseUrl, signer, servicePort } = await beginSuite(
      settings.databaseName,
      `${settings.durationS} s per phase`,
    );
    // Production settings, load shedding included; the rate limit off, the worst case.
    const service = await startService(databaseUrl, servicePort, signer.publicJwks, {
      RATE_LIMIT_PER_MINUTE: '0',
      MERCADOPAGO_WEBHOOK_SECRET: 'bench-secret',
    });
    const base = `http://127.0.0.1:${servicePort}`;
    log(`service ready (pid ${service.pid})`);
    // The document is built on first use; the phases measure serving it, not building it.
    await (await fetch(`${base}/docs/openapi.json`)).arrayBuffer();

    const results: PhaseResult[] = [];
    let pdfSeed: PdfSeed | undefined;
    for (const name of settings.phases) {
      // Seeded just before its phase: the worker thread that normalises the signatures then
      // idles for a minute, and its memory belongs to the pdf phase's figures, not the others'.
      if (name === 'pdf') pdfSeed = await seedCertificates(base, signer);
      log(`phase ${name}: ${settings.durationS} s`);
      results.push(await runPhase(name, base, servicePort, service.pid ?? 0, pdfSeed));
      await sleep(1_000);
    }

    let failed = false;
    const rows = results.map((r) => {
      const p99 = percentile(r.healthMs, 99);
      const isOk = r.name === 'pdf' ? isPdfPhaseOk(r) : isFloodPhaseOk(r);
      if (!isOk) failed = true;
      return [
        r.name,
        String(r.healthMs.length),
        percentile(r.healthMs, 50).toFixed(1),
        p99.toFixed(1),
        String(r.healthFailures),
        r.maxRssMiB.toFixed(0),
        describeStatuses(r.readStatuses),
        r.pipelinedConnections === 0 ? '-' : String(r.pipelinedConnections),
        describeStatuses(r.deepAnswers),
        r.pdfAnswers === undefined
          ? '-'
          : `${describeStatuses(r.pdfAnswers.statuses)} (${r.pdfAnswers.firstAsks} first, ` +
            `p50 ${percentile(r.pdfAnswers.okMs, 50).toFixed(0)} ms)`,
        isOk ? 'PASS' : 'FAIL',
      ];
    });
    printTable(
      [
        'phase',
        '/health n',
        'p50 ms',
        'p99 ms',
        'failed',
        'max RSS MiB',
        'GET /events statuses',
        'pipelining conns',
        'deep-JSON answers',
        'PDF answers',
        'verdict',
      ],
      rows,
    );
    log(
      `targets: /health p99 < ${TARGET_HEALTH_P99_MS} ms with every probe answered, RSS < ${TARGET_RSS_MIB} MiB, ` +
        'no 5xx or unanswered deep-JSON request',
    );
    const quiet = results.find((r) => r.name === 'quiet');
    log(
      `pdf phase: /health p99 < ${TARGET_PDF_HEALTH_P99_MS} ms (quiet: ${percentile(quiet?.healthMs ?? [], 99).toFixed(1)} ms) ` +
        'with every probe answered, GET /events only 200 (no 503), no PDF answered 5xx but 503 or left ' +
        `unanswered, at least one certificate rendered; signatures planted ${kib(pdfSeed?.plantedBytes)} KiB, ` +
        `stored ${kib(pdfSeed?.storedBytes)} KiB`,
    );
    logLoad('after the run');
    return failed ? 1 : 0;
  } finally {
    await cleanUp();
  }
}
