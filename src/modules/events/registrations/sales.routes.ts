/**
 * Routes of the organisers' sales view (docs/reference/tickets.md, "Sales"): the summary and the CSV
 * export. The filtered listing is `GET /editions/{edition_id}/registrations` (registrations.routes.ts).
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { Coalescer } from '../../../kernel/coalesce.ts';
import { ok } from '../../../kernel/http/respond.ts';
import { envelope, errorResponses, idParams, withReasons } from '../../../kernel/http/schemas.ts';
import type { EventsDeps } from '../deps.ts';
import { filterOf } from './registrations.schemas.ts';
import {
  REGISTRATIONS_CSV_EXAMPLE,
  RegistrationExportQuery,
  SALES_SUMMARY_EXAMPLE,
  SalesSummary,
} from './sales.schemas.ts';
import { exportRegistrations, type SummaryRuns, salesSummary } from './sales.service.ts';

const tags = ['Tickets and registrations'];

export const salesRoutes: FastifyPluginAsyncTypebox<EventsDeps> = async (app, deps) => {
  const summaries: SummaryRuns = new Coalescer();
  app.get(
    '/editions/:edition_id/sales',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getSalesSummary',
        summary: 'Sales summary of an edition',
        description:
          'Owners and admins of the event (staff get 403 `sales_restricted`: they see registrations, never ' +
          'money; 404 for a draft event to a non-member). The registrations counted by state (`sold` = ' +
          '`confirmed`, split into paid and free; `held` = `pending_payment` with a live seat hold; ' +
          '`cancelled`, `expired`, `refunded`) and the money of the paid checkouts, per currency: `revenue_cents` ' +
          '(what the payments took), `refunds_cents` (full and partial refunds), `fees_cents` (the platform’s ' +
          'marketplace fee on what was kept, at the wallet’s `fee_bps` when each checkout was made) and ' +
          '`net_cents`; the same per ticket type (every ticket type of the edition, those with no ' +
          'registration too). Never cached: each answer is read after its request arrived (requests for one ' +
          'edition at once share the reads).',
        params: idParams('edition_id'),
        response: {
          200: envelope(SalesSummary, SALES_SUMMARY_EXAMPLE, 'events'),
          ...errorResponses(400, 401, withReasons(403, 'sales_restricted'), 404),
        },
      },
    },
    async (request) =>
      ok(request, await salesSummary(deps, summaries, request.params.edition_id, actorOf(request))),
  );

  app.get(
    '/editions/:edition_id/registrations.csv',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'exportRegistrations',
        summary: 'Export registrations as CSV',
        description:
          'Staff and above (403 for others; 404 for a draft event to a non-member). Every registration of ' +
          'the edition matching the filters of `GET /editions/{edition_id}/registrations` (`q`, `status`, ' +
          '`ticket_type_id`, `paid`; no paging), newest first, as a CSV file: `text/csv; charset=utf-8`, ' +
          'no byte-order mark, a header row, RFC 4180 quoting, CRLF line ends, `Content-Disposition: ' +
          'attachment`. Columns: `registration_id`, `created_at`, `status`, `status_reason`, `email`, `name`, ' +
          '`ticket_type_id`, `ticket_name`, `intent_id`, then for owners and admins only `amount_cents`, ' +
          '`refunded_cents`, `currency`, `payment_status` (staff see no money), and `cancelled_at`. A text ' +
          "cell starting with `=`, `+`, `-`, `@`, a tab or a CR is written with a leading `'` so no " +
          'spreadsheet runs it as a formula. Streamed in batches: any size of edition in bounded memory. ' +
          'The body is the CSV itself, not an envelope; errors (decided before the first byte) are.',
        params: idParams('edition_id'),
        querystring: RegistrationExportQuery,
        response: {
          200: {
            description: 'The registrations as CSV (RFC 4180)',
            headers: {
              'content-disposition': Type.String({
                description: 'attachment; filename="registrations-<edition slug>-<YYYY-MM-DD>.csv"',
              }),
            },
            content: {
              'text/csv; charset=utf-8': {
                // A stream of text: the lines are sent as they are read (`exportRegistrations`).
                schema: Type.Unsafe<Readable>({ type: 'string', examples: [REGISTRATIONS_CSV_EXAMPLE] }),
              },
            },
          },
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { filename, lines } = await exportRegistrations(
        deps,
        request.params.edition_id,
        actorOf(request),
        filterOf(request.query),
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(Readable.from(lines));
    },
  );
};
