/**
 * The judged baseline of the uncached read routes (issue 17, bench/reads.ts): a bare Fastify
 * server (no plugins, no hooks, no schemas, no logger) that answers `GET /bare-pg/<key>` by
 * running that target's SQL statement straight through `pg` and sending its rows as
 * `{"data": rows}` (`JSON.stringify`). It pays the HTTP cost the service pays, and the query, and
 * nothing else: no envelope, no row mapping, no hooks. So the service's uncached req/s as a ratio
 * to it measures what the service adds to "the same query straight through pg".
 *
 * The statement is the one the route's repository function sends: `captureQuery` runs that
 * function here, once per target, on a database opened as the service opens its own (a
 * `pg.Pool` of 10, its settings), and every request sends exactly that query config (statement
 * name, SQL text, `rowMode: 'array'`, Drizzle's type parsers) and those parameters. It is captured
 * in this process rather than passed in, because the type parsers are functions.
 *
 * Usage: node --import tsx bench/reads-bare-pg.ts <port> <database url> <setup JSON>
 * where the setup is `{ "keys": ["editions-list", …], "seed": <Seed> }` (bench/reads-targets.ts).
 * A query that answers another number of rows than at capture answers 500. `GET /__ready` answers
 * once every statement is captured and the server listens.
 */
import Fastify from 'fastify';
import { captureQuery, openServiceDatabase } from './reads-pg.ts';
import { type Seed, targetsOf } from './reads-targets.ts';

const [portText, databaseUrl, setupText] = process.argv.slice(2);
if (portText === undefined || databaseUrl === undefined || setupText === undefined) {
  process.stderr.write('usage: reads-bare-pg.ts <port> <database url> <setup JSON>\n');
  process.exit(2);
}
const setup = JSON.parse(setupText) as { keys: string[]; seed: Seed };

const database = await openServiceDatabase(databaseUrl);
const { db, pool } = database;
const app = Fastify({ logger: false });
for (const target of targetsOf(setup.keys)) {
  const query = await captureQuery(pool, db, (captureDb) => target.query(captureDb, setup.seed));
  app.get(`/bare-pg/${target.key}`, async (_request, reply) => {
    const { rows } = await pool.query(query.config, query.values);
    if (rows.length !== query.rowCount) throw new Error(`${rows.length} rows, ${query.rowCount} at capture`);
    reply.type('application/json; charset=utf-8');
    return JSON.stringify({ data: rows });
  });
}
app.get('/__ready', async () => ({ ready: true }));

process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});

await app.listen({ port: Number(portText), host: '127.0.0.1' });
