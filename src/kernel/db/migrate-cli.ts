/** `npm run migrate`: applies pending migrations to the configured database and exits. */
import { loadConfig } from '../config.ts';
import { openDatabase } from './client.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    const outcome = await database.migrate();
    process.stdout.write(
      outcome === 'applied'
        ? `migrations applied (${database.kind})\n`
        : `migrations up to date (${database.kind})\n`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`migrate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
