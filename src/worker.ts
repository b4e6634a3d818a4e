/**
 * `npm run worker`: webhook delivery workers as a process of their own, beside service processes
 * started with WEBHOOK_WORKER=false (or beside ones that run their own). They share the
 * PostgreSQL server; claims with `FOR UPDATE SKIP LOCKED` keep them from attempting the same
 * delivery. The embedded database belongs to one process, so this needs DATABASE_URL.
 * SIGTERM/SIGINT: stop claiming, let attempts in flight finish (bounded), close the database.
 */
import { pino } from 'pino';
import { bootstrap } from './kernel/bootstrap.ts';
import { ConfigError } from './kernel/config.ts';
import { REDACT_PATHS } from './kernel/http/logging.ts';
import { createDeliveryWorker } from './modules/payments/index.ts';

async function main(): Promise<void> {
  const { config, database, notices } = await bootstrap();
  const logger = pino({ level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[REDACTED]' } });
  if (database.kind !== 'postgres') {
    await database.close();
    throw new ConfigError(
      'DATABASE_URL',
      'a separate worker process needs a PostgreSQL server (the embedded database runs its worker inside the service)',
    );
  }
  for (const notice of notices) logger.warn(notice);
  const worker = createDeliveryWorker({ database, config, logger });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    try {
      await worker.stop();
      await database.close();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  await worker.start();
}

main().catch((error: unknown) => {
  process.stderr.write(
    error instanceof ConfigError
      ? `convene worker: invalid configuration: ${error.message}\n`
      : `convene worker: start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
