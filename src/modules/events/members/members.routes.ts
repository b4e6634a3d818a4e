/** Routes of docs/reference/events.md: an event's members. Handlers: authorize via service, envelope. */
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
import { eventMemberSchemas as memberSchemas } from './members.schemas.ts';
import * as members from './members.service.ts';

// The events' tag: members are listed with their event in the reference (docs/reference/events.md).
const tags = ['Events'];

/** The members' routes are given what a membership change does to staff badges (badges/, wired in index.ts). */
export interface MembersContext extends ModuleDeps {
  staffBadges: members.MemberStaffBadges;
}

export const memberRoutes: FastifyPluginAsyncTypebox<MembersContext> = async (app, { db, staffBadges }) => {
  app.get(
    '/events/:event_id/members',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listEventMembers',
        summary: 'List event members',
        description: 'Staff or above. The owner first, then admins, then staff.',
        params: idParams('event_id'),
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(memberSchemas.Member, memberSchemas.example, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await members.listMembers(db, request.params.event_id, actorOf(request), pageWindow(request.query)),
      ),
  );

  app.post(
    '/events/:event_id/members',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'addEventMember',
        summary: 'Add an event member',
        description:
          'Owner or admin; only the owner adds an admin (403). The person must be an existing actor ' +
          '(404 otherwise); 409 when already a member.',
        params: idParams('event_id'),
        body: memberSchemas.AddBody,
        response: {
          201: envelope(memberSchemas.Member, memberSchemas.example, 'events', 201),
          ...errorResponses(400, 401, 403, 404, withReasons(409, 'already_member')),
        },
      },
    },
    async (request, reply) =>
      created(
        request,
        reply,
        await members.addMember(db, staffBadges, request.params.event_id, actorOf(request), request.body),
      ),
  );

  app.delete(
    '/events/:event_id/members/:user_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'removeEventMember',
        summary: 'Remove an event member',
        description:
          'Owner or admin (only the owner removes an admin). The member is the one named by `email` in the ' +
          'body; the path `user_id` does not select it, and naming a different member there is a 400. ' +
          'The owner cannot be removed (409). Answers the removed member.',
        params: idParams('event_id', 'user_id'),
        body: memberSchemas.RemoveBody,
        response: {
          200: envelope(memberSchemas.Member, memberSchemas.example, 'events'),
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
        await members.removeMember(
          db,
          staffBadges,
          request.params.event_id,
          request.params.user_id,
          actorOf(request),
          request.body.email,
        ),
      ),
  );
};
