/**
 * The mail suite of `npm run bench` (`BENCH_SUITES=mail`): mail through the outbox against nodemailer
 * alone, in the same run, to the same local SMTP server (test/smtp-sink.ts, in this process, which
 * counts messages without parsing them). Target: the outbox delivers ≥ 0.7 × the mails/s of
 * nodemailer sending the same rendered messages straight to the server.
 *
 * Steps:
 *   1. a fresh database (`<BENCH_DATABASE_NAME>_mail`) and the SMTP server;
 *   2. nodemailer alone: BENCH_MAIL_COUNT (2,000) messages rendered by the tests' simple renderer,
 *      handed at once to one pooled transport with the outbox's pool settings; mails/s from the
 *      first send to the server's last acceptance;
 *   3. the outbox: a service process (test/process-fixtures/mail-sender.ts: the app as in
 *      production, with that renderer registered, JOBS_POLL_MS=50) on the database; the same number
 *      of mails queued in one transaction, as a burst of registrations would; mails/s from the
 *      commit to the server's last acceptance, and every mail recorded as sent;
 *   4. the table and the verdict; stop the child, drop the database; 1 if the target failed.
 *
 * Environment (all optional): BENCH_MAIL_COUNT (2000), and BENCH_DATABASE_URL, BENCH_DATABASE_NAME,
 * BENCH_PORT as for the other suites. Registration p99 with and without MAIL_URL is not measured
 * here: see docs/mail.md, "Figures".
 */
import { tmpdir } from 'node:os';
import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { openDatabase } from '../src/kernel/db/client.ts';
import { queryRows } from '../src/kernel/db/raw.ts';
import { queueMail } from '../src/modules/mail/index.ts';
import { simpleRenderer } from '../src/modules/mail/mail.fixtures.ts';
import { startSmtpSink } from '../test/smtp-sink.ts';
import {
  beginSuite,
  cleanUp,
  common,
  cpuSeconds,
  log,
  logLoad,
  positiveInteger,
  printTable,
  serviceEnv,
  sleep,
  startChild,
} from './lib.ts';

const TARGET = { ratio: 0.7 };
const settings = {
  count: positiveInteger('BENCH_MAIL_COUNT', 2000),
  databaseName: `${common.databaseName}_mail`,
};

async function waitForAccepted(accepted: () => number, count: number, what: string) {
  const deadline = Date.now() + 300_000;
  while (accepted() < count) {
    if (Date.now() > deadline) throw new Error(`${what}: ${accepted()} of ${count} accepted after 5 minutes`);
    await sleep(2);
  }
}

export async function runMail(): Promise<number> {
  const { databaseUrl, signer, servicePort } = await beginSuite(
    settings.databaseName,
    `${settings.count} mails to a local SMTP server`,
  );
  const sink = await startSmtpSink({ parse: false });
  try {
    // 2. nodemailer alone, with the outbox's pool settings (sending/transport.ts).
    const rendered = await Promise.all(
      Array.from({ length: settings.count }, (_, i) =>
        simpleRenderer({ data: { subject: `Mail ${i}`, body: `Hello ${i}` } }),
      ),
    );
    const transporter = nodemailer.createTransport({ url: sink.url, pool: true, maxConnections: 10 });
    const directStart = performance.now();
    const selfBefore = process.cpuUsage();
    await Promise.all(
      rendered.map((mail, i) =>
        transporter.sendMail({
          from: 'Convene <no-reply@localhost>',
          to: `person${i}@example.com`,
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
          attachments: mail.attachments,
          messageId: `<direct-${i}@127.0.0.1>`,
        }),
      ),
    );
    await waitForAccepted(sink.accepted, settings.count, 'nodemailer alone');
    const directSeconds = (performance.now() - directStart) / 1000;
    const directCpu = process.cpuUsage(selfBefore);
    transporter.close();
    log(`nodemailer alone: ${settings.count} mails in ${directSeconds.toFixed(2)} s`);

    // 3. The outbox, in a service process.
    const sender = startChild(
      'mail-sender',
      // The heap cap of `npm start` (package.json); serviceArgs() reads the flags before an
      // `--import` that the start script no longer has.
      [
        '--max-old-space-size=512',
        ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
        'test/process-fixtures/mail-sender.ts',
      ],
      serviceEnv(databaseUrl, servicePort, signer.publicJwks, {
        MAIL_URL: sink.url,
        JOBS_POLL_MS: '50',
        LOG_LEVEL: 'info',
      }),
    );
    await new Promise<void>((resolve, reject) => {
      sender.once('exit', (code) => reject(new Error(`the mail sender exited (${code}) while starting`)));
      sender.stdout?.on('data', (chunk: string) => {
        if (String(chunk).includes('mail sender ready')) resolve();
      });
    });
    const database = await openDatabase({ url: databaseUrl, dataDir: tmpdir() });
    try {
      logLoad('before the outbox run');
      const before = sink.accepted();
      const senderCpuBefore = cpuSeconds(sender.pid);
      await database.db.transaction(async (tx) => {
        for (let i = 0; i < settings.count; i += 1) {
          await queueMail(tx, {
            kind: 'signature_request',
            to: `person${i}@example.com`,
            language: 'en',
            eventId: null,
            data: { subject: `Mail ${i}`, body: `Hello ${i}` },
          });
        }
      });
      const outboxStart = performance.now();
      await waitForAccepted(() => sink.accepted() - before, settings.count, 'the outbox');
      const outboxSeconds = (performance.now() - outboxStart) / 1000;
      const senderCpu = cpuSeconds(sender.pid) - senderCpuBefore;
      let sent = 0;
      for (const deadline = Date.now() + 30_000; sent < settings.count && Date.now() < deadline; ) {
        [{ sent = 0 } = {}] = await queryRows<{ sent: number }>(
          database.db,
          sql`select count(*)::int as sent from emails where status = 'sent'`,
        );
        if (sent < settings.count) await sleep(100);
      }
      log(`the outbox: ${settings.count} mails in ${outboxSeconds.toFixed(2)} s; ${sent} recorded as sent`);

      const directRate = settings.count / directSeconds;
      const outboxRate = settings.count / outboxSeconds;
      const ratio = outboxRate / directRate;
      printTable(
        ['path', 'mails', 'seconds', 'mails/s', 'CPU s (sender)'],
        [
          [
            'nodemailer alone (pooled, 10 connections)',
            String(settings.count),
            directSeconds.toFixed(2),
            directRate.toFixed(0),
            `${((directCpu.user + directCpu.system) / 1e6).toFixed(2)} (with the server)`,
          ],
          [
            'the outbox (mail.send jobs, same pool)',
            String(settings.count),
            outboxSeconds.toFixed(2),
            outboxRate.toFixed(0),
            senderCpu.toFixed(2),
          ],
        ],
      );
      const passed = ratio >= TARGET.ratio && sent === settings.count;
      log(
        `outbox / nodemailer alone: ${ratio.toFixed(2)} (target ≥ ${TARGET.ratio}); ` +
          `${sent === settings.count ? 'every mail recorded as sent' : `only ${sent} recorded as sent`}: ` +
          (passed ? 'passed' : 'FAILED'),
      );
      return passed ? 0 : 1;
    } finally {
      await database.close();
    }
  } finally {
    await cleanUp();
    await sink.close();
  }
}
