/** Routes of docs/reference/attendance.md: signing up to programs, cancelling, and the participants list. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { created, ok, pageWindow, sendPage } from '../../../kernel/http/respond.ts';
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
  PARTICIPANT_EXAMPLE,
  PARTICIPANT_LIST_EXAMPLE,
  Participant,
  ParticipantListItem,
} from './participants.schemas.ts';
import * as participants from './participants.service.ts';

const tags = ['Programs'];

export const participantRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db }) => {
  app.post(
    '/programs/:program_id/participants',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'joinProgram',
        summary: 'Sign up to a program',
        description:
          'The caller signs themselves up (no body). A program needs a confirmed registration to its edition ' +
          "whose ticket `access_level` is at least the program's `min_access_level` (403 otherwise); a " +
          '`staff_only` program needs staff and up of the event instead (to anyone else it does not exist: 404). ' +
          '409 when already signed up, or when `max_participants` active sign-ups exist: the capacity is checked ' +
          'under a lock on the program and is never exceeded. A cancelled sign-up can sign up again.',
        params: idParams('program_id'),
        response: {
          201: envelope(Participant, PARTICIPANT_EXAMPLE, 'events', 201),
          ...errorResponses(400, 401, 403, 404, withReasons(409, 'already_signed_up', 'program_full')),
        },
      },
    },
    async (request, reply) =>
      created(request, reply, await participants.signUp(db, request.params.program_id, actorOf(request))),
  );

  app.delete(
    '/programs/:program_id/participants/me',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'leaveProgram',
        summary: 'Cancel my sign-up',
        description:
          "Cancels the caller's active sign-up (404 when there is none) and answers it, `cancelled`.",
        params: idParams('program_id'),
        response: {
          200: envelope(
            Participant,
            { ...PARTICIPANT_EXAMPLE, status: 'cancelled', cancelled_at: '2026-11-23T10:00:00.000Z' },
            'events',
          ),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      ok(request, await participants.cancelSignUp(db, request.params.program_id, actorOf(request))),
  );

  app.get(
    '/programs/:program_id/participants',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listProgramParticipants',
        summary: 'List the participants of a program',
        description:
          'Staff and up of the event. Active sign-ups, first come first, each with whether (and when) the person ' +
          'was checked in at the program.',
        params: idParams('program_id'),
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(ParticipantListItem, PARTICIPANT_LIST_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) =>
      sendPage(
        request,
        reply,
        await participants.listParticipants(
          db,
          request.params.program_id,
          actorOf(request),
          pageWindow(request.query),
        ),
      ),
  );
};
