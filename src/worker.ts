/**
 * `npm run worker`: webhook delivery workers as a process of their own, beside service processes
 * started with WEBHOOK_WORKER=false (or beside ones that run their own). They share the
 * PostgreSQL server; claims with `FOR UPDATE SKIP LOCKED` keep them from attempting the same
 * delivery. The embedded database belongs to one process, so this needs DATABASE_URL.
 *
 * With MAIL_URL set, it also sends the outbox's mail, for services started with MAIL_SENDER=false
 * (or beside ones that send their own: claims skip what another holds). The mail's renderers
 * belong to the modules that own the kinds, so it builds the app for them (no HTTP listener, no
 * job runner, no second delivery worker) and starts only its mail sender (docs/mail.md).
 *
 * SIGTERM/SIGINT: stop claiming, let attempts and mails in flight finish (bounded), close the
 * database.
 */
import { pino } from 'pino';
import type { App } from './app.ts';
import { bootstrap } from './kernel/bootstrap.ts';
import { ConfigError } from './kernel/config.ts';
import { REDACT_PATHS } from './kernel/http/logging.ts';
import { startProgress } from './kernel/start-up.ts';
import { createDeliveryWorker } from './modules/payments/index.ts';

async function main(): Promise<void> {
  const progress = startProgress('convene worker');
  const { config, database, verifier, notices } = await bootstrap({
    progress,
    // Refused before the database opens: an embedded one belongs to the service process, and
    // opening its files from a second process could damage them.
    beforeDatabase: async (config) => {
      if (config.databaseUrl?.startsWith('postgres') === true) return;
      throw new ConfigError(
        'DATABASE_URL',
        'a separate worker process needs a PostgreSQL server (the embedded database runs its worker inside the service)',
      );
    },
  });
  const logger = pino({ level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[REDACTED]' } });
  for (const notice of notices) logger.warn(notice);
  const worker = createDeliveryWorker({ database, config, logger });
  let mailApp: App | undefined;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    try {
      await Promise.all([worker.stop(), mailApp?.close()]);
      await database.close();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  progress.phase('starting the webhook delivery worker');
  await worker.start();
  if (config.mail.mode === 'smtp') {
    progress.phase('starting the mail sender');
    // Loaded only here: the app's modules (fonts, schemas, every feature) cost a worker that only
    // delivers webhooks about a second of CPU and tens of MB at start, for nothing.
    const { buildApp } = await import('./app.ts');
    mailApp = await buildApp({
      config,
      database,
      verifier,
      shedLoad: false,
      worker: false,
      jobs: false,
      mailSender: true,
      compileSchemasOnFirstUse: true,
    });
    await mailApp.ready();
    logger.info('mail sender started');
  }
  process.stderr.write(`convene worker is ready in ${progress.elapsed()} s\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    error instanceof ConfigError
      ? `convene worker: invalid configuration: ${error.message}\n`
      : `convene worker: start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
