/**
 * A stand-in for a test process (test/processes.test.ts): it starts the service described by the
 * JSON in SERVICE_ENV through test/processes.ts (a service that never becomes ready, its database
 * never answers), says `spawned`, and on SIGUSR2 ends as its argument says: `exit` (process.exit)
 * or `throw` (an uncaught error). The test sends SIGTERM or SIGINT itself for the other endings.
 * The service must not outlive it.
 */
import { startService } from '../processes.ts';

const how = process.argv[2];
startService(JSON.parse(process.env.SERVICE_ENV ?? '{}'), { readyTimeoutMs: 600_000 }).catch(() => {});
process.on('SIGUSR2', () => {
  if (how === 'throw') throw new Error('the test process fails');
  process.exit(3);
});
process.stdout.write('spawned\n');
