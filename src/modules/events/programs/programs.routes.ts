/** Routes of docs/reference/events.md: programs (schedule items) of an edition. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { created, ok, pageWindow, sendPage } from '../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  withReasons,
} from '../../../kernel/http/schemas.ts';
import type { ModuleDeps } from '../../../kernel/module.ts';
import {
  CreateProgramBody,
  PROGRAM_EXAMPLE,
  Program,
  ProgramListQuery,
  UpdateProgramBody,
} from './programs.schemas.ts';
import * as programs from './programs.service.ts';

const tags = ['Programs'];
const VISIBILITY =
  'Public when the edition and its event are published; members of the event (staff and up) see drafts. ' +
  'Programs with `staff_only: true` exist for members only: the public never sees them (404 when read by id).';
const TIMES =
  "`starts_at` and `ends_at` must lie within the edition's `starts_at`..`ends_at` (bounds included) and " +
  '`ends_at` must be after `starts_at` (400 `VALIDATION_ERROR` naming the field).';

/** The programs' routes are given the sign-ups of a program (participants/, wired in index.ts). */
export interface ProgramsContext extends ModuleDeps {
  programSignUps: programs.ProgramSignUps;
}

export const programRoutes: FastifyPluginAsyncTypebox<ProgramsContext> = async (
  app,
  { db, programSignUps },
) => {
  app.get(
    '/editions/:edition_id/programs',
    {
      config: { publicCache: true, auth: 'optional' },
      schema: {
        tags,
        operationId: 'listPrograms',
        summary: 'List the programs of an edition',
        description:
          `${VISIBILITY} Optional filter \`kind\` (\`activity\` or \`checkpoint\`). Ordered by ` +
          '`starts_at` (programs without one last), then `created_at`, then `id`. Deleted programs are never listed.',
        params: idParams('edition_id'),
        querystring: ProgramListQuery,
        response: { 200: listEnvelope(Program, PROGRAM_EXAMPLE, 'events'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) =>
      sendPage(
        request,
        reply,
        await programs.listPrograms(
          db,
          request.params.edition_id,
          request.actor,
          request.query,
          pageWindow(request.query),
        ),
      ),
  );

  app.post(
    '/editions/:edition_id/programs',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'createProgram',
        summary: 'Create a program',
        description:
          `Owner or admin of the event. ${TIMES} Defaults: \`min_access_level\` 0, \`staff_only\` false, ` +
          '`price` 0 (an integer in minor currency units).',
        params: idParams('edition_id'),
        body: CreateProgramBody,
        response: {
          201: envelope(Program, PROGRAM_EXAMPLE, 'events', 201),
          ...errorResponses(withReasons(400, 'ends_before_start'), 401, 403, 404),
        },
      },
    },
    async (request, reply) =>
      created(
        request,
        reply,
        await programs.createProgram(db, request.params.edition_id, actorOf(request), request.body),
      ),
  );

  app.get(
    '/programs/:program_id',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        operationId: 'getProgram',
        summary: 'Read a program',
        description: `${VISIBILITY} A deleted program is 404.`,
        params: idParams('program_id'),
        response: { 200: envelope(Program, PROGRAM_EXAMPLE, 'events'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ok(request, await programs.getProgram(db, request.params.program_id, request.actor)),
  );

  app.patch(
    '/programs/:program_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'updateProgram',
        summary: 'Update a program',
        description:
          'Owner or admin of the event. Partial update; optional fields accept `null`. When a time changes, ' +
          `the rules apply to the resulting values: ${TIMES}`,
        params: idParams('program_id'),
        body: UpdateProgramBody,
        response: {
          200: envelope(Program, PROGRAM_EXAMPLE, 'events'),
          ...errorResponses(
            withReasons(400, 'ends_before_start'),
            401,
            403,
            404,
            withReasons(409, 'below_sign_ups'),
          ),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await programs.updateProgram(
          db,
          programSignUps,
          request.params.program_id,
          actorOf(request),
          request.body,
        ),
      ),
  );

  app.delete(
    '/programs/:program_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'deleteProgram',
        summary: 'Delete a program',
        description:
          'Owner or admin of the event. Soft delete: sets `deleted_at` and answers the deleted program, which ' +
          'then vanishes from every read (lists, reads by id, certification template links).',
        params: idParams('program_id'),
        response: {
          200: envelope(Program, { ...PROGRAM_EXAMPLE, deleted_at: '2026-11-23T10:00:00.000Z' }, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(request, await programs.deleteProgram(db, request.params.program_id, actorOf(request))),
  );
};
