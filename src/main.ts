/**
 * Start-up: config -> port reserved -> secrets and keys -> database -> migrations -> app -> listen,
 * with one line on stderr per phase and a ready banner (kernel/start-up.ts).
 * SIGTERM/SIGINT: stop accepting, finish in-flight requests (bounded), close the database, exit 0.
 */
import type { AddressInfo } from 'node:net';
import { bootstrap, describeDatabase } from './kernel/bootstrap.ts';
import { ConfigError } from './kernel/config.ts';
import { humanUrl, PortInUseError, readyBanner, reservePort, startProgress } from './kernel/start-up.ts';

const SHUTDOWN_DEADLINE_MS = 10_000;

async function main(): Promise<void> {
  const progress = startProgress('convene');
  // 1. The port first: a busy one is refused before the database opens or any worker starts.
  let releasePort = async () => {};
  const { config, database, verifier, notices, usesDevKeys } = await bootstrap({
    progress,
    beforeDatabase: async (config) => {
      ({ release: releasePort } = await reservePort(config.host, config.port));
    },
  });
  // 2. The application: modules, routes and every schema compiled.
  progress.phase('loading the application');
  // Imported here, not at the top: loading every module is a phase of its own, and the first
  // line above appears before it rather than after.
  const { buildApp } = await import('./app.ts');
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

  // 3. Ready (onReady hooks start the jobs and the webhook worker) while the port is still held,
  // then the port handed from the reservation to the server.
  await app.ready();
  progress.phase(`listening on ${config.host}:${config.port}`);
  await releasePort();
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // Taken in the instant between the release and the listen: stop what ready() started.
    await app.close().catch(() => {});
    await database.close().catch(() => {});
    throw (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? new PortInUseError(config.port) : error;
  }
  app.log.info(
    { database: database.kind, docs: `${config.publicBaseUrl}/docs`, test_mode: config.testMode },
    'convene is ready',
  );
  process.stderr.write(
    readyBanner({
      url: humanUrl(app.server.address() as AddressInfo),
      seconds: progress.elapsed(),
      database: describeDatabase(config),
      usesDevKeys,
    }),
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`convene: invalid configuration: ${error.message}\n`);
  } else if (error instanceof PortInUseError) {
    // What to do is the whole message; a stack trace would only bury it.
    process.stderr.write(`convene: ${error.message}\n`);
  } else {
    process.stderr.write(
      `convene: start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
