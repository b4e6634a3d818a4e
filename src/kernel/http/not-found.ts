/**
 * 404 for unknown paths and 405 (with `Allow`) for a known path asked with another method.
 * Fastify does not expose "which methods match this URL", so every registered route is mirrored
 * into a second find-my-way router that only answers that question.
 */
import type { FastifyInstance } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { sendError } from './error-handler.ts';
import { AppError } from './errors.ts';

const METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The router's bound on a path parameter. Node's 16 KiB limit on the request head bounds a URL
 * already; above it, every parameter reaches its route's schema (a UUID, a slug of at most 64
 * characters), which names it (`params.event_id`) instead of the router refusing the whole path.
 */
export const MAX_PARAM_LENGTH = 16 * 1024;

export function registerNotFound(
  app: FastifyInstance,
  options: { exposeDebug: boolean; rateLimited: boolean },
): void {
  const mirror = FindMyWay({ maxParamLength: MAX_PARAM_LENGTH });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (!METHODS.includes(method as HTTPMethod)) continue;
      try {
        mirror.on(method as HTTPMethod, route.url, () => {});
      } catch {
        // Already mirrored (the same path under two prefixes); nothing to add.
      }
    }
  });

  const preHandler = options.rateLimited ? app.rateLimit() : undefined;
  app.setNotFoundHandler(preHandler === undefined ? {} : { preHandler }, async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((method) => mirror.find(method, path) !== null);
    if (allowed.length > 0) {
      const error = new AppError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on this path`, {
        headers: { allow: allowed.join(', ') },
        meta: { allow: allowed },
      });
      return sendError(request, reply, error, options.exposeDebug);
    }
    return sendError(request, reply, new AppError('NOT_FOUND', 'Route not found'), options.exposeDebug);
  });
}
