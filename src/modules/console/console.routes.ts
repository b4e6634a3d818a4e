/**
 * `GET /console` and `GET /console/*` (docs/reference/console.md): the organiser console, a
 * single-page application. Every address under `/console` that is not a file of `assets/` answers
 * the application's `index.html`, whose router shows the screen of that address (so a reload or a
 * shared link lands where it was); `assets/` holds its hashed, immutable scripts and stylesheet.
 * All under the pages' CSP (docs/reference/pages.md): scripts and styles from this origin only,
 * nothing inline, plain HTTP on any address.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { notFound } from '../../kernel/http/errors.ts';
import { matchesEtag, preferredEncoding } from '../../kernel/http/precomputed.ts';
import { errorResponses } from '../../kernel/http/schemas.ts';
import { pickLanguage } from '../../kernel/pages/language.ts';
import { messagePage, PAGE_CSP, sendHtml } from '../../kernel/pages/layout.ts';
import { type ConsoleFile, consoleBuildOnce } from './console.files.ts';

const tags = ['Console'];

/** Hashed names never change content: a year, and no revalidation. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT = {
  en: ['The console is not built', 'Run npm run build (or npm start, which builds it) and reload.'],
  'pt-BR': ['O console não foi construído', 'Rode npm run build (ou npm start, que o constrói) e recarregue.'],
  es: ['La consola no está construida', 'Ejecuta npm run build (o npm start, que la construye) y recarga.'],
} as const;

const htmlAnswer = (description: string) => ({
  description,
  content: { 'text/html': { schema: Type.String(), example: '<!doctype html><html lang="en">…' } },
});

function send(request: FastifyRequest, reply: FastifyReply, file: ConsoleFile, cacheControl: string) {
  const { etag, bodies } = file.forms;
  reply.header('etag', etag).header('vary', 'accept-encoding').header('cache-control', cacheControl);
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.type(file.type).send(bodies[encoding]);
}

export const consoleRoutes: FastifyPluginAsyncTypebox<{ buildDir?: string }> = async (app, options) => {
  const build = consoleBuildOnce(options.buildDir);

  async function sendIndex(request: FastifyRequest, reply: FastifyReply) {
    const built = await build();
    if (built === undefined) {
      const language = pickLanguage(request.headers['accept-language']);
      const [title, text] = NOT_BUILT[language];
      return sendHtml(reply, 503, language, messagePage(language, title, text));
    }
    // The page's CSP, and `same-origin` referrers: under the API's `no-referrer` a browser sends
    // `Origin: null` with the console's writes, which the cookie's same-origin rule refuses
    // (docs/reference/sign-in.md).
    reply.header('content-security-policy', PAGE_CSP).header('referrer-policy', 'same-origin');
    return send(request, reply, built.index, 'no-cache');
  }

  const indexResponses = {
    200: htmlAnswer('the console (`index.html`); its script shows the screen of the address'),
    304: { description: 'not modified: the `If-None-Match` version is current', type: 'null' },
    503: htmlAnswer('a page saying the console is not built (`npm run build`)'),
  };

  app.get(
    '/console',
    {
      schema: {
        tags,
        operationId: 'getConsole',
        summary: 'The organiser console (HTML)',
        description:
          'The organiser console (docs/console.md): a single-page application signed in by the session cookie ' +
          '(`GET /auth/session`), built only on the operations of this document. `Cache-Control: no-cache` with an ' +
          '`ETag`; brotli or gzip as `Accept-Encoding` allows. 503 with a page when the console was not built.',
        response: indexResponses,
      },
    },
    sendIndex,
  );

  app.get(
    '/console/*',
    {
      schema: {
        tags,
        operationId: 'getConsoleFile',
        summary: 'A console screen or file',
        description:
          'Under `assets/`, a script or stylesheet of the console, named after its content: ' +
          `\`Cache-Control: ${IMMUTABLE}\`, 404 for a name the build does not have. Any other address is a ` +
          'screen of the console (`/console/events/{event_id}`, …): the same `index.html` as `GET /console`, ' +
          'whose script shows that screen.',
        params: Type.Object({
          '*': Type.String({ maxLength: 2000, description: 'the rest of the address after `/console/`' }),
        }),
        response: {
          ...indexResponses,
          200: {
            description: 'a console file, or the console itself',
            content: {
              'text/html': { schema: Type.String(), example: '<!doctype html><html lang="en">…' },
              'text/javascript': { schema: Type.String(), example: 'import{…}' },
              'text/css': { schema: Type.String(), example: ':root{…}' },
            },
          },
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const rest = request.params['*'];
      if (!rest.startsWith('assets/')) return sendIndex(request, reply);
      const built = await build();
      const file = built?.assets.get(rest.slice('assets/'.length));
      if (file === undefined) throw notFound('Console file');
      return send(request, reply, file, IMMUTABLE);
    },
  );
};
