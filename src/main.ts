/**
 * Start-up: config -> secrets and keys -> database -> migrations -> app -> listen.
 * SIGTERM/SIGINT: stop accepting, finish in-flight requests (bounded), close the database, exit 0.
 */
import { buildApp } from './app.ts';
import { bootstrap } from './kernel/bootstrap.ts';
import { ConfigError } from './kernel/config.ts';

const SHUTDOWN_DEADLINE_MS = 10_000;

async function main(): Promise<void> {
  const { config, database, verifier, notices } = await bootstrap();
  const app = await buildApp({ config, database, verifier });
  for (const notice of notices) app.log.warn(notice);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      app.log.error('shutdown deadline passed; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { database: database.kind, docs: `${config.publicBaseUrl}/docs`, test_mode: config.testMode },
    'convene is ready',
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`convene: invalid configuration: ${error.message}\n`);
  } else {
    process.stderr.write(
      `convene: start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
