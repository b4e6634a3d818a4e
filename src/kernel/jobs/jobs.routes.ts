/**
 * `GET /jobs/{job_id}`: the progress of a background job of any kind that shows one
 * (docs/reference/attendance.md, "Issuing certificates"; docs/reference/webhooks.md, "Replaying deliveries"). Registered after the modules, which register their
 * job kinds (with `progress`) while they load: the answer's schema is the union of the kinds' views.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../auth/plugin.ts';
import { notFound } from '../http/errors.ts';
import { ok } from '../http/respond.ts';
import { envelope, errorResponses, idParams } from '../http/schemas.ts';
import type { JobRunner } from './runner.ts';

export const jobRoutes: FastifyPluginAsyncTypebox<{ jobs: JobRunner }> = async (app, { jobs }) => {
  const kinds = jobs.progressKinds();
  const [first] = kinds;
  if (first === undefined) return;
  // Kinds of several modules (events: certificate runs; payments: webhook replays): the route
  // itself belongs to none, and each answer names the module of the kind that knew the id.
  const module = kinds.every((kind) => kind.module === first.module) ? first.module : 'system';
  app.get(
    '/jobs/:job_id',
    {
      config: { auth: 'required', module },
      schema: {
        tags: ['Jobs'],
        operationId: 'getJob',
        summary: 'Progress of a background job',
        description:
          'The progress of a job that an operation answered 202 for, whatever its kind (`kind` names it). ' +
          'Visible to whoever may start such a job: for a certificate run (`certificates.issue`), an owner or ' +
          'admin of its edition; for a replay of webhook deliveries (`webhooks.replay`), the owner of the ' +
          'endpoint’s wallet; anyone else gets 404, as for a job that does not exist. `done` of `total` ' +
          'shows the progress while `running`; `completed` when every qualifying pair holds a certificate, ' +
          'or every matching delivery was looked at.',
        params: idParams('job_id'),
        response: {
          200: envelope(
            kinds.length === 1 ? first.schema : Type.Union(kinds.map((kind) => kind.schema)),
            first.example,
            module,
          ),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      for (const kind of kinds) {
        const view = await kind.read(request.params.job_id, actor);
        if (view !== undefined) return { ...ok(request, view), module: kind.module };
      }
      throw notFound('Job');
    },
  );
};
