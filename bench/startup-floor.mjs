/**
 * The floor of `npm run bench:startup` (bench/startup.ts): the least a service on this stack does
 * before answering, with nothing of Convene's. It opens PGlite on `<dataDir>/pglite` (created when
 * empty, like Convene's first start) and a bare Fastify server answering `GET /health` 200 once a
 * `select 1` went through. Plain JavaScript, so no compiler is timed: the floor of compiled code.
 *
 * Usage: node bench/startup-floor.mjs <dataDir> <port>. SIGTERM closes both and exits 0.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import Fastify from 'fastify';

const [dataDir, portText] = process.argv.slice(2);
if (dataDir === undefined || portText === undefined) {
  process.stderr.write('usage: startup-floor.mjs <dataDir> <port>\n');
  process.exit(2);
}
mkdirSync(`${dataDir}/pglite`, { recursive: true });
// The extensions the service opens PGlite with (src/kernel/db/pglite.ts), so the floor loads what it loads.
const database = new PGlite(`${dataDir}/pglite`, { extensions: { pg_trgm } });
await database.waitReady;
await database.query('select 1');

const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'ok' }));
const stop = () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
await app.listen({ port: Number(portText), host: '127.0.0.1' });
