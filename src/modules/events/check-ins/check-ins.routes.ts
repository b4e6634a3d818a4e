/** Routes of docs/reference/attendance.md: scanning badges (check-ins), the check-in list and attendance counts. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { ok, pageWindow, sendPage } from '../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  withReasons,
} from '../../../kernel/http/schemas.ts';
import type { BadgeCodes } from '../badges/index.ts';
import type { EventsDeps } from '../deps.ts';
import {
  ATTENDANCE_EXAMPLE,
  Attendance,
  CHECK_IN_ANSWER_EXAMPLE,
  CHECK_IN_EXAMPLE,
  CheckIn,
  CheckInAnswer,
  CheckInBody,
  CheckInListQuery,
} from './check-ins.schemas.ts';
import * as checkIns from './check-ins.service.ts';

const tags = ['Check-ins'];

/** What the check-ins' routes are given (index.ts): the codes that badges' QR codes carry. */
export interface CheckInsContext extends EventsDeps {
  badgeCodes: BadgeCodes;
}

export const checkInRoutes: FastifyPluginAsyncTypebox<CheckInsContext> = async (app, { db, badgeCodes }) => {
  app.post(
    '/editions/:edition_id/check-ins',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'checkIn',
        summary: 'Check a badge in (scan)',
        description:
          'Staff and up of the event. `code` is what the badge QR code holds (the code or the whole ' +
          '`PUBLIC_BASE_URL/b/<code>` URL). Without `program_id` the holder enters the edition; with one, that ' +
          'program. Answers `ok` (recorded now) or `already_checked_in` (with `first_checked_in_at`, the earliest ' +
          'scan) with 200. Refusals are 409 `CONFLICT` with the same object in `error.meta` and record nothing: ' +
          '`unknown` (not a code of this service: forged, truncated or mistyped), `wrong_edition` (a badge of ' +
          'another edition; nothing about its holder is shown), `revoked`, `not_open` (the scan, by `scanned_at`, ' +
          'is outside the check-in window: from 24 hours before the edition starts to 24 hours after it ends), ' +
          '`not_allowed` (`reason` `staff_only`: ' +
          "a participant badge at a staff-only program; `access_level`: the ticket's access level is below the " +
          "program's `min_access_level`; staff badges enter everything). An offline scanner sends `scanned_at` " +
          '(at most 7 days old, not in the future, else 400) and a `nonce`: uploading a scan again answers its ' +
          'first `ok` and is counted once; a nonce reused for a different badge or place is a 409. A `program_id` ' +
          'that is not a live program of this edition is a 400 naming `program_id`.',
        params: idParams('edition_id'),
        body: CheckInBody,
        response: {
          200: envelope(CheckInAnswer, CHECK_IN_ANSWER_EXAMPLE, 'events'),
          ...errorResponses(
            400,
            401,
            403,
            404,
            withReasons(
              409,
              'badge_unknown',
              'wrong_edition',
              'badge_revoked',
              'not_allowed',
              'not_open',
              'nonce_reused',
            ),
          ),
        },
      },
    },
    async (request) =>
      ok(
        request,
        await checkIns.checkIn(
          { db, codes: badgeCodes },
          request.params.edition_id,
          actorOf(request),
          request.body,
        ),
      ),
  );

  app.get(
    '/editions/:edition_id/check-ins',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listCheckIns',
        summary: 'List check-ins',
        description:
          'Staff and up of the event. Newest scan first; filter by `program_id` or `user_id`. Refused scans are ' +
          'not recorded, so they are not listed.',
        params: idParams('edition_id'),
        querystring: CheckInListQuery,
        response: {
          200: listEnvelope(CheckIn, CHECK_IN_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) =>
      sendPage(
        request,
        reply,
        await checkIns.listCheckIns(
          db,
          request.params.edition_id,
          actorOf(request),
          request.query,
          pageWindow(request.query),
        ),
      ),
  );

  app.get(
    '/editions/:edition_id/attendance',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getAttendance',
        summary: 'Attendance counts',
        description:
          'Staff and up of the event. For the edition: confirmed registrations and participant badges checked in ' +
          'at the edition itself. For each live program (in schedule order): active sign-ups and badges checked ' +
          'in there.',
        params: idParams('edition_id'),
        response: {
          200: envelope(Attendance, ATTENDANCE_EXAMPLE, 'events'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) =>
      ok(request, await checkIns.attendance(db, request.params.edition_id, actorOf(request))),
  );
};
