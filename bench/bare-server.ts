/**
 * The baseline of `npm run bench`: a bare Fastify server (no plugins, no hooks, no logger, no
 * schemas) answering each route with a fixed JSON body captured from the real service. It shows
 * what Fastify itself costs on this machine for a response of that size, so the service's figure
 * can be read as a ratio instead of an absolute number that depends on the hardware.
 *
 * Usage: node --import tsx bench/bare-server.ts <routes.json> <port>
 * where routes.json is `[{ "method"?: "POST", "path": "/bare/x", "status"?: 201, "body": "<the JSON
 * text>" }, …]` (see `BareRoute` in bench/lib.ts). A POST route parses the JSON body it is sent
 * (Fastify's own parser) and ignores it. `GET /__ready` answers once it listens.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import type { BareRoute } from './lib.ts';

const [routesFile, portText] = process.argv.slice(2);
if (routesFile === undefined || portText === undefined) {
  process.stderr.write('usage: bare-server.ts <routes.json> <port>\n');
  process.exit(2);
}
const routes = JSON.parse(readFileSync(routesFile, 'utf8')) as BareRoute[];

const app = Fastify({ logger: false });
app.get('/__ready', (_request, reply) => {
  reply.send({ ready: true });
});
for (const route of routes) {
  // The body is sent as the already-serialized text: the cheapest answer Fastify can give, which
  // is the point of a ceiling.
  app.route({
    method: route.method ?? 'GET',
    url: route.path,
    handler: (_request, reply) => {
      reply
        .code(route.status ?? 200)
        .type('application/json; charset=utf-8')
        .send(route.body);
    },
  });
}

const stop = () => {
  void app.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

await app.listen({ port: Number(portText), host: '127.0.0.1' });
