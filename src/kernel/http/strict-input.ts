/**
 * Unknown input is refused everywhere, not only where a schema exists: a route that declares no
 * body refuses a non-empty one, and a route that declares no querystring refuses any parameter.
 * (Routes with schemas get the same through `additionalProperties: false`.) Only the API's own
 * routes are checked, those that name their module; the docs UI serves static files.
 */
import type { FastifyInstance } from 'fastify';
import { validationError } from './errors.ts';

const isEmptyObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

export function registerStrictInput(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config?.module === undefined) return;
    const schema = request.routeOptions.schema;
    if (schema?.body === undefined && request.body !== undefined && !isEmptyObject(request.body)) {
      throw validationError([{ field: 'body', message: 'this operation takes no body' }]);
    }
    if (schema?.querystring === undefined) {
      const names = Object.keys((request.query as Record<string, unknown> | undefined) ?? {});
      if (names.length > 0) {
        throw validationError(
          names.map((name) => ({ field: `query.${name}`, message: 'is not a known parameter' })),
        );
      }
    }
  });
}
