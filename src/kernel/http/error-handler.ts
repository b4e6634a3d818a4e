/**
 * The one error handler. Every failure, ours or Fastify's, leaves as the error envelope of
 * docs/reference/errors.md: `{code, message, error: {code, message, reason?, fields?, meta?, debug?},
 * timestamp, module}`.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mapDatabaseError } from '../db/errors.ts';
import { discardBody } from './drain.ts';
import { AppError, type ErrorCode } from './errors.ts';
import { moduleOf } from './respond.ts';
import type { ModuleName } from './schemas.ts';

const FASTIFY_CODES: Record<string, [Exclude<ErrorCode, 'CONFLICT'>, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['BAD_REQUEST', 'The content-length header does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['BAD_REQUEST', 'The JSON body is empty'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['BAD_REQUEST', 'The body is not valid JSON'],
  FST_ERR_BAD_URL: ['BAD_REQUEST', 'The URL is malformed'],
  FST_ERR_INVALID_URL: ['BAD_REQUEST', 'The URL is malformed'],
};

/** Normalizes anything thrown into an AppError; unknown errors become INTERNAL_ERROR. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as FastifyError;
  const known = fastifyError.code === undefined ? undefined : FASTIFY_CODES[fastifyError.code];
  if (known !== undefined) return new AppError(known[0], known[1], { cause: error });
  const database = mapDatabaseError(error);
  if (database !== undefined) return database;
  if (error instanceof SyntaxError)
    return new AppError('BAD_REQUEST', 'The body is not valid JSON', { cause: error });
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const message = fastifyError.message || 'The request is not valid';
    // Every 409 names its reason; one the framework raised knows none more precise than this.
    if (status === 409) return new AppError('CONFLICT', message, { reason: 'state_conflict', cause: error });
    const code = STATUS_FALLBACK[status] ?? 'BAD_REQUEST';
    return new AppError(code, message, { cause: error });
  }
  return new AppError('INTERNAL_ERROR', 'An unexpected error occurred', { cause: error });
}

const STATUS_FALLBACK: Record<number, Exclude<ErrorCode, 'CONFLICT'>> = {
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
};

export function errorBody(request: FastifyRequest, error: AppError, exposeDebug: boolean) {
  return errorEnvelope(error, moduleOf(request), exposeDebug);
}

/** The error envelope of docs/reference/errors.md, for a request Fastify knows or one it never routed. */
export function errorEnvelope(error: AppError, module: ModuleName, exposeDebug: boolean) {
  const root = error.cause ?? error;
  const debug =
    exposeDebug && (error.status >= 500 || error.cause !== undefined)
      ? {
          raw_error: root instanceof Error ? `${root.name}: ${root.message}` : String(root),
          stack_trace: (root instanceof Error ? root.stack : undefined) ?? '',
        }
      : undefined;
  return {
    code: error.status,
    message: error.message,
    error: {
      code: error.code,
      message: error.message,
      ...(error.reason === undefined ? {} : { reason: error.reason }),
      ...(error.fields === undefined ? {} : { fields: error.fields }),
      ...(error.meta === undefined || Object.keys(error.meta).length === 0 ? {} : { meta: error.meta }),
      ...(debug === undefined ? {} : { debug }),
    },
    timestamp: new Date().toISOString(),
    module,
  };
}

/**
 * Sends the error envelope once the request's body has been read to its end (or dropped past a
 * bound): see drain.ts for why an answer sent earlier can be lost. Answers the reply: an async
 * error handler must resolve with it, or Fastify, finding the reply not yet sent (an async
 * `onSend` hook still running), sends an empty body in its place.
 */
export async function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: AppError,
  exposeDebug: boolean,
): Promise<FastifyReply> {
  await discardBody(request.raw);
  if (error.headers !== undefined) reply.headers(error.headers);
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send(errorBody(request, error, exposeDebug));
}

export function registerErrorHandler(app: FastifyInstance, options: { exposeDebug: boolean }): void {
  app.setErrorHandler(async (thrown, request, reply) => {
    const error = toAppError(thrown);
    if (thrown instanceof AppError && error.code === 'SERVICE_UNAVAILABLE') {
      // Shedding load, shutting down, a feature not configured: the service's own decision, worth
      // a line but not an error with a stack trace.
      request.log.warn({ code: error.code, reason: error.message }, 'request turned away');
    } else if (error.status >= 500) {
      request.log.error({ err: thrown }, 'request failed');
    } else if (error.cause !== undefined && !(thrown instanceof AppError)) {
      request.log.info({ code: error.code, reason: (thrown as Error).message }, 'request refused');
    }
    return sendError(request, reply, error, options.exposeDebug);
  });
}
