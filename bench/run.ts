/**
 * `npm run bench`: runs the benchmark suites one after the other, each on a fresh database with
 * its own service process, and exits with the worst result (0 every target passed, 1 a target
 * failed, 2 a suite could not run). See bench/README.md.
 *
 * - `reads` (bench/reads.ts): public read routes against a bare Fastify route (issue 2, item 10),
 *   and uncached against a bare route running the same statement through pg (issue 17).
 * - `webhooks` (bench/webhooks.ts): the webhook pipeline, test-mode intent to subscriber receipt.
 * - `flood` (bench/flood.ts): /health and memory while hostile clients flood the service.
 * - `checkout` (bench/checkout.ts): paid registrations through the Mercado Pago simulator.
 * - `attendance` (bench/attendance.ts): check-ins at 200 scans/s, then 5,000 certificates issued.
 * - `scale` (bench/webhooks-scale.ts): delivery against the database's ceiling, slow and failing
 *   subscribers, one worker process against two (issue 17).
 * - `mail` (bench/mail.ts): mail through the outbox against nodemailer alone, to one SMTP server.
 * - `console` (bench/console.ts): the organiser console's sales screen on 10,000 registrations (the
 *   registrations' search and the sales summary) against a bare route.
 * - `door` (bench/door.ts): the console's door in Chromium, four scanners at 2 scans/s, code to
 *   painted answer, beside the check-in API alone.
 *
 * BENCH_SUITES picks some, comma-separated, in the order given (default: all nine).
 */
import { cleanUpOnInterrupt, log } from './lib.ts';

/** Each suite is imported only when it runs, so one suite's settings cannot fail another's run. */
const SUITES: Record<string, () => Promise<number>> = {
  reads: async () => (await import('./reads.ts')).runReads(),
  webhooks: async () => (await import('./webhooks.ts')).runWebhooks(),
  flood: async () => (await import('./flood.ts')).runFlood(),
  checkout: async () => (await import('./checkout.ts')).runCheckout(),
  attendance: async () => (await import('./attendance.ts')).runAttendance(),
  scale: async () => (await import('./webhooks-scale.ts')).runScale(),
  mail: async () => (await import('./mail.ts')).runMail(),
  console: async () => (await import('./console.ts')).runConsole(),
  door: async () => (await import('./door.ts')).runDoor(),
};

async function main(): Promise<number> {
  const names = (process.env.BENCH_SUITES ?? Object.keys(SUITES).join(','))
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(name in SUITES));
  if (unknown.length > 0 || names.length === 0) {
    throw new Error(`BENCH_SUITES: unknown ${unknown.join(', ')}; known: ${Object.keys(SUITES).join(', ')}`);
  }
  cleanUpOnInterrupt();
  let worst = 0;
  for (const name of names) {
    let code: number;
    try {
      code = await SUITES[name]!();
    } catch (error) {
      // Each suite cleans up after itself; a suite that could not run does not stop the next one.
      process.stderr.write(
        `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      code = 2;
    }
    if (names.length > 1) log(`suite ${name}: ${['passed', 'FAILED', 'could not run'][code] ?? code}`);
    worst = Math.max(worst, code);
  }
  return worst;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
