/**
 * A bound on the answers one connection may have waiting. An HTTP/1.1 client may pipeline many
 * requests in one write; Node parses them all and each gets an answer queued behind the previous
 * one, which leaves only as fast as the client reads. A client that never reads makes the process
 * hold every answer: 20 connections pipelining the OpenAPI document grew it past 1 GiB. Past
 * MAX_WAITING answers still unsent on one connection, the connection is dropped: nothing honest
 * pipelines that deep without reading.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export const MAX_WAITING = 32;

const waiting = Symbol('convene.waitingAnswers');
type CountedSocket = Socket & { [waiting]?: number };

export function registerConnectionGuard(app: FastifyInstance): void {
  // Callback-style hooks: every request passes here.
  app.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket as CountedSocket;
    const count = (socket[waiting] ?? 0) + 1;
    socket[waiting] = count;
    if (count <= MAX_WAITING) return done();
    // Requests already parsed from the same socket still pass here after the drop: log it once.
    if (!socket.destroyed) {
      request.log.warn({ waiting: count }, 'connection dropped: too many answers waiting unread');
      socket.destroy();
    }
    // Hijacked: Fastify runs nothing more for this request and writes nothing.
    reply.hijack();
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    const socket = request.raw.socket as CountedSocket;
    socket[waiting] = Math.max(0, (socket[waiting] ?? 0) - 1);
    done();
  });
}
