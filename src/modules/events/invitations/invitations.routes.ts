/** Routes of docs/mail.md: invitations to an event's team by e-mail. Handlers: authorize via service, envelope. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { created, ok, pageWindow, paginated } from '../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  withReasons,
} from '../../../kernel/http/schemas.ts';
import type { EventsDeps } from '../deps.ts';
import {
  CreateInvitationBody,
  INVITATION_EXAMPLE,
  Invitation,
  InvitationsQuery,
} from './invitations.schemas.ts';
import * as invitations from './invitations.service.ts';

const tags = ['Events'];
const ACCESS = 'Owner or admin of the event (staff get 403; a non-member 404 for a draft event).';

export const invitationRoutes: FastifyPluginAsyncTypebox<EventsDeps> = async (app, { db, mail }) => {
  app.post(
    '/events/:event_id/invitations',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'inviteToEvent',
        summary: 'Invite someone to the event by e-mail',
        description:
          `${ACCESS} Only the owner invites an admin (403). The person need not have used the service: ` +
          'an `event_invitation` mail is queued with the invitation, and when an actor with this e-mail is ' +
          'recorded (their first bearer token or sign-in) before `expires_at`, the invitation becomes their ' +
          'membership (`status` `accepted`). 409 `already_member` when the e-mail is a member already (adding ' +
          'an existing actor stays `POST /events/{event_id}/members`), `already_invited` while another ' +
          'invitation for it is pending.',
        params: idParams('event_id'),
        body: CreateInvitationBody,
        response: {
          201: envelope(Invitation, INVITATION_EXAMPLE, 'events', 201),
          ...errorResponses(400, 401, 403, 404, withReasons(409, 'already_member', 'already_invited')),
        },
      },
    },
    async (request, reply) =>
      created(
        request,
        reply,
        await invitations.invite(db, mail, request.params.event_id, actorOf(request), request.body),
      ),
  );

  app.get(
    '/events/:event_id/invitations',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listEventInvitations',
        summary: "List the event's invitations",
        description: `${ACCESS} Newest first; \`status\` filters by stored status.`,
        params: idParams('event_id'),
        querystring: InvitationsQuery,
        response: {
          200: listEnvelope(Invitation, INVITATION_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await invitations.listInvitations(
          db,
          request.params.event_id,
          actorOf(request),
          request.query,
          pageWindow(request.query),
        ),
      ),
  );

  app.delete(
    '/events/:event_id/invitations/:invitation_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'withdrawEventInvitation',
        summary: 'Withdraw an invitation',
        description:
          `${ACCESS} A pending invitation (expired or not) is withdrawn and can no longer be accepted; ` +
          '409 `invitation_not_pending` once it was accepted or withdrawn.',
        params: idParams('event_id', 'invitation_id'),
        response: {
          200: envelope(Invitation, { ...INVITATION_EXAMPLE, status: 'withdrawn' }, 'events'),
          ...errorResponses(400, 401, 403, 404, withReasons(409, 'invitation_not_pending')),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await invitations.withdrawInvitation(
          db,
          request.params.event_id,
          request.params.invitation_id,
          actorOf(request),
        ),
      ),
  );
};
