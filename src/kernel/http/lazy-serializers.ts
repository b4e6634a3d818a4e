/**
 * Response serializers compiled when a route first answers, not when it is added: for test apps
 * (`AppDeps.compileSchemasOnFirstUse`). Fastify compiles a fast-json-stringify serializer for every
 * response schema of every route as the route is added, about 1.5 s of CPU per app, while a test
 * file answers from a few routes. The serializer is Fastify's own (its default compiler), only
 * compiled later; the service keeps compiling at start-up.
 */
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type SerializerFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
>;

// Fastify's default serializer compiler, resolved from Fastify itself (it is Fastify's dependency).
const requireFromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
const defaultFactory = requireFromFastify('@fastify/fast-json-stringify-compiler') as () => SerializerFactory;

export const buildLazySerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = defaultFactory()(externalSchemas, options);
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => {
      serialize ??= compile(route) as (data: unknown) => string;
      return serialize(data);
    };
  };
};
