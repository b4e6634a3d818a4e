/**
 * The answers the HTTP layer gives before any route runs, as the envelope of docs/reference/errors.md
 * instead of Node's and Fastify's own bodies:
 * - Node's parser refuses the request (`clientError`): headers over 16 KiB are 431, a request too
 *   slow to arrive 408, bad framing (`Content-Length` with `Transfer-Encoding`, a length that is not
 *   a number, a NUL in a header, not HTTP at all) 400, each with the code BAD_REQUEST. There is no
 *   Fastify request yet, so the answer is written on the socket by hand.
 * - Fastify's router refuses the URL (`frameworkErrors`): malformed percent-encoding is 400
 *   BAD_REQUEST; a path parameter longer than the router allows is 400 VALIDATION_ERROR.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyServerOptions } from 'fastify';
import { uuidv7 } from '../db/ids.ts';
import { errorEnvelope, sendError, toAppError } from './error-handler.ts';
import { AppError, validationError } from './errors.ts';
import type { SecurityHeaders } from './security-headers.ts';

/** How long a refused connection keeps reading (and discarding) before it is dropped. */
const LINGER_MS = 2_000;

const PARSER_REFUSALS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request headers are larger than 16 KiB'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request did not arrive in time'],
};

/** Sockets already answered: the parser reports every later chunk of a refused stream again. */
const answered = new WeakSet<Socket>();

/** `headers`: the security headers every answer carries (`securityHeadersFor`). */
export function wireErrorOptions(
  exposeDebug: boolean,
  headers: SecurityHeaders,
): Partial<FastifyServerOptions> {
  return {
    clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
      answered.add(socket);
      const [status, message] = PARSER_REFUSALS[error.code ?? ''] ?? [400, 'The request is not valid HTTP'];
      const requestId = uuidv7();
      this.log.debug({ reqId: requestId, code: error.code }, 'malformed request refused');
      if (!socket.writable) {
        socket.destroy();
        return;
      }
      // Not the debug details: the parser's message says nothing a client can act on.
      const body = JSON.stringify(
        errorEnvelope(new AppError('BAD_REQUEST', message, { status }), 'system', false),
      );
      const head = [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
        `x-request-id: ${requestId}`,
        'content-type: application/json; charset=utf-8',
        `content-length: ${Buffer.byteLength(body)}`,
        'connection: close',
      ];
      socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
      // Closing at once, with the client still writing, would reset the connection and lose the
      // answer; the parser ignores what still arrives, and the socket goes after a moment.
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    },
    frameworkErrors(error: FastifyError, request, reply) {
      reply.headers(headers);
      reply.header('x-request-id', request.id);
      const refusal =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? validationError([{ field: 'params', message: 'a path parameter is too long' }])
          : toAppError(error);
      sendError(request, reply, refusal, exposeDebug).catch((thrown: unknown) => {
        request.log.error({ err: thrown }, 'could not answer a refused URL');
      });
    },
  };
}
