/** Routes of docs/reference/projects.md: a project's members. Handlers: authorize via service, envelope. */
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
import { Empty, projectMemberSchemas as memberSchemas } from './members.schemas.ts';
import * as members from './members.service.ts';

const tags = ['Projects'];

export const projectMemberRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db }) => {
  app.get(
    '/projects/:project_id/members',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listProjectMembers',
        summary: 'List project members',
        description: 'Any member (a non-member gets 404). The owner first, then admins, then members.',
        params: idParams('project_id'),
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(memberSchemas.Member, memberSchemas.example, 'projects'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await members.listMembers(db, request.params.project_id, actorOf(request), pageWindow(request.query)),
      ),
  );

  app.post(
    '/projects/:project_id/members',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'addProjectMember',
        summary: 'Add a project member',
        description:
          'Owner or admin; only the owner adds an admin (403). `actor_email` names an existing actor ' +
          '(case-insensitive; 404 when nobody with that e-mail has called the API); 409 when already a member.',
        params: idParams('project_id'),
        body: memberSchemas.AddBody,
        response: {
          201: envelope(memberSchemas.Member, memberSchemas.example, 'projects', 201),
          ...errorResponses(400, 401, 403, 404, withReasons(409, 'already_member')),
        },
      },
    },
    async (request, reply) =>
      created(
        request,
        reply,
        await members.addMember(db, request.params.project_id, actorOf(request), request.body),
      ),
  );

  app.delete(
    '/projects/:project_id/members',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'removeProjectMember',
        summary: 'Remove a project member',
        description:
          'Owner or admin; only the owner removes an admin (403). Removes the member named by `actor_email` ' +
          '(case-insensitive; 404 when no member has it). The owner cannot be removed (409). ' +
          'Answers 200 with `data` `{}`.',
        params: idParams('project_id'),
        body: memberSchemas.RemoveBody,
        response: {
          200: envelope(Empty, {}, 'projects'),
          ...errorResponses(
            withReasons(400, 'member_mismatch'),
            401,
            403,
            404,
            withReasons(409, 'owner_not_removable'),
          ),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await members.removeMember(db, request.params.project_id, actorOf(request), request.body.actor_email),
      ),
  );
};
