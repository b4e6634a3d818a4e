/** Routes of docs/reference/projects.md: projects (members: `members/members.routes.ts`). Handlers: authorize via service, envelope. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { created, ok, pageWindow, paginated } from '../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  PageQuerySchema,
  withReasons,
} from '../../../kernel/http/schemas.ts';
import type { ModuleDeps } from '../../../kernel/module.ts';
import {
  CreateProjectBody,
  MyProject,
  PROJECT_EXAMPLE,
  Project,
  UpdateProjectBody,
} from './projects.schemas.ts';
import * as projects from './projects.service.ts';

const tags = ['Projects'];

export const projectRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db }) => {
  app.post(
    '/projects',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'createProject',
        summary: 'Create a project',
        description:
          'Any authenticated caller. The caller becomes the owner. `slug` is unique across projects (409).',
        body: CreateProjectBody,
        response: {
          201: envelope(Project, PROJECT_EXAMPLE, 'projects', 201),
          ...errorResponses(400, 401, withReasons(409, 'slug_taken')),
        },
      },
    },
    async (request, reply) =>
      created(request, reply, await projects.createProject(db, actorOf(request), request.body)),
  );

  app.get(
    '/projects',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listProjects',
        summary: 'List my projects',
        description: 'Projects where the caller holds any role, newest first, each with the caller `role`.',
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(MyProject, { ...PROJECT_EXAMPLE, role: 'owner' }, 'projects'),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) =>
      paginated(request, await projects.listMyProjects(db, actorOf(request), pageWindow(request.query))),
  );

  app.get(
    '/projects/:project_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getProject',
        summary: 'Read a project',
        description: 'Any member. A project is private: to a non-member it is unknown (404).',
        params: idParams('project_id'),
        response: { 200: envelope(Project, PROJECT_EXAMPLE, 'projects'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) =>
      ok(request, await projects.getProject(db, request.params.project_id, actorOf(request))),
  );

  app.patch(
    '/projects/:project_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'updateProject',
        summary: 'Update a project',
        description:
          'Owner or admin (a member gets 403, a non-member 404). `name` and/or `slug`, at least one; ' +
          'a slug taken by another project is a 409.',
        params: idParams('project_id'),
        body: UpdateProjectBody,
        response: {
          200: envelope(Project, PROJECT_EXAMPLE, 'projects'),
          ...errorResponses(400, 401, 403, 404, withReasons(409, 'slug_taken')),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await projects.updateProject(db, request.params.project_id, actorOf(request), request.body),
      ),
  );
};
