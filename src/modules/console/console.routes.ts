/**
 * The organiser console's addresses (docs/reference/console.md): each screen's address answers the
 * single-page application's `index.html`, whose router shows that screen (so a reload or a shared
 * link lands where it was), and `/console/assets/{file}` its hashed, immutable scripts and
 * stylesheet. Each screen is a route of its own, documented, rather than a catch-all: the document
 * lists every address the console has, and an unknown one is a 404. All under the pages' CSP
 * (docs/reference/pages.md): scripts and styles from this origin only, nothing inline, plain HTTP
 * on any address.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { notFound } from '../../kernel/http/errors.ts';
import { matchesEtag, preferredEncoding } from '../../kernel/http/precomputed.ts';
import { errorResponses, idParams, Uuid } from '../../kernel/http/schemas.ts';
import { pickLanguage } from '../../kernel/pages/language.ts';
import { messagePage, PAGE_CSP, sendHtml } from '../../kernel/pages/layout.ts';
import { type ConsoleFile, consoleBuildOnce } from './console.files.ts';

const tags = ['Console'];

/** Hashed names never change content: a year, and no revalidation. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT = {
  en: ['The console is not built', 'Run npm run build (or npm start, which builds it) and reload.'],
  'pt-BR': [
    'O console não foi construído',
    'Rode npm run build (ou npm start, que o constrói) e recarregue.',
  ],
  es: ['La consola no está construida', 'Ejecuta npm run build (o npm start, que la construye) y recarga.'],
} as const;

/**
 * What the provider's callback adds to `final_redirect_url` (docs/reference/payments.md, "Connect"):
 * the screen the seller connection returns to takes it, so the console can say how it went.
 */
const ConnectReturnQuery = Type.Object(
  {
    status: Type.Optional(Type.Union([Type.Literal('connected'), Type.Literal('error')])),
    flow: Type.Optional(Type.Union([Type.Literal('collector'), Type.Literal('seller')])),
    credential_id: Type.Optional(Uuid({ description: 'the seller connected (`status=connected`)' })),
    error: Type.Optional(
      Type.String({ maxLength: 64, description: 'why not (`status=error`), e.g. `access_denied`' }),
    ),
  },
  { additionalProperties: false },
);

const htmlAnswer = (description: string) => ({
  description,
  content: { 'text/html': { schema: Type.String(), example: '<!doctype html><html lang="en">…' } },
});

/**
 * The pages' CSP, and the console's own web app manifest and service worker (web/console/public/),
 * and frames of `blob:` addresses only: the PDFs it draws itself (a certificate template's preview).
 */
const CONSOLE_CSP = `${PAGE_CSP}; manifest-src 'self'; worker-src 'self'; frame-src blob:`;

/**
 * The worker's own CSP governs the requests it makes: the console's origin only. It may control
 * `/console` itself as well as what is under `/console/`, its script's folder.
 */
const WORKER_HEADERS = {
  'content-security-policy': "default-src 'none'; connect-src 'self'",
  'service-worker-allowed': '/console',
};

const notModified = { description: 'not modified: the `If-None-Match` version is current', type: 'null' };

/** The documentation of a screen's address (`params` for one with ids); `GET /console` says the rest. */
function screen(
  operationId: string,
  summary: string,
  what: string,
  params?: ReturnType<typeof idParams>,
  querystring?: typeof ConnectReturnQuery,
) {
  return {
    schema: {
      tags,
      operationId,
      summary,
      description: what,
      ...(params === undefined ? {} : { params }),
      ...(querystring === undefined ? {} : { querystring }),
      response: {
        200: htmlAnswer('the console (`index.html`)'),
        304: notModified,
        503: htmlAnswer('the console is not built'),
      },
    },
  };
}

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
    reply.header('content-security-policy', CONSOLE_CSP).header('referrer-policy', 'same-origin');
    return send(request, reply, built.index, 'no-cache');
  }

  app.get(
    '/console',
    screen(
      'getConsole',
      'The organiser console (HTML)',
      'The organiser console (docs/console.md): a single-page application on the session cookie and the ' +
        'operations of this document. Every screen’s address answers this `index.html`, `no-cache`.',
    ),
    sendIndex,
  );

  app.get(
    '/console/events/:event_id',
    screen(
      'getConsoleEvent',
      'Console: an event (HTML)',
      'The console’s screen of an event (the page of `GET /console`).',
      idParams('event_id'),
    ),
    sendIndex,
  );

  app.get(
    '/console/events/:event_id/editions/:edition_id',
    screen(
      'getConsoleEdition',
      'Console: an edition (HTML)',
      'The console’s screen of an edition (the page of `GET /console`).',
      idParams('event_id', 'edition_id'),
    ),
    sendIndex,
  );

  // Talk (an event's mail), Sell (an edition's registrations and sales) and the door: docs/console.md.
  const more: Array<[string, string, string, string, ReturnType<typeof idParams>]> = [
    [
      '/console/events/:event_id/email-templates',
      'getConsoleEmailTemplates',
      'Console: an event’s e-mail templates (HTML)',
      'The console’s screen of an event’s e-mail templates, with a live preview (the page of `GET /console`).',
      idParams('event_id'),
    ],
    [
      '/console/events/:event_id/emails',
      'getConsoleEmails',
      'Console: an event’s mail log (HTML)',
      'The console’s screen of an event’s mail log, with resend (the page of `GET /console`).',
      idParams('event_id'),
    ],
    [
      '/console/events/:event_id/editions/:edition_id/registrations',
      'getConsoleRegistrations',
      'Console: an edition’s registrations (HTML)',
      'The console’s screen of an edition’s registrations: search, filters, CSV, cancel and refund ' +
        '(the page of `GET /console`).',
      idParams('event_id', 'edition_id'),
    ],
    [
      '/console/events/:event_id/editions/:edition_id/sales',
      'getConsoleSales',
      'Console: an edition’s sales (HTML)',
      'The console’s screen of an edition’s sales summary, for owners and admins (the page of `GET /console`).',
      idParams('event_id', 'edition_id'),
    ],
    [
      '/console/events/:event_id/editions/:edition_id/attendance',
      'getConsoleAttendance',
      'Console: an edition’s attendance (HTML)',
      'The console’s screen of who came to an edition, for staff and up: the counts per edition and ' +
        'program, the check-ins by place, the programs’ participants (the page of `GET /console`).',
      idParams('event_id', 'edition_id'),
    ],
    [
      '/console/events/:event_id/editions/:edition_id/certificates',
      'getConsoleCertificates',
      'Console: an edition’s certificates (HTML)',
      'The console’s screen of an edition’s certificates, for owners and admins: templates, signature ' +
        'requests, issuing with its progress, the issued certificates with search and revocation (the ' +
        'page of `GET /console`).',
      idParams('event_id', 'edition_id'),
    ],
    [
      '/console/editions/:edition_id/scan',
      'getConsoleScan',
      'Console: the door scanner of an edition (HTML)',
      'The console’s door screen of an edition, for staff and up: the place chosen once, badges checked ' +
        'in by their code with the answer at a glance, and the attendance counts (the page of `GET /console`).',
      idParams('edition_id'),
    ],
  ];
  for (const [path, operationId, summary, what, params] of more) {
    app.get(path, screen(operationId, summary, what, params), sendIndex);
  }

  app.get(
    '/console/events/:event_id/payments',
    screen(
      'getConsoleEventPayments',
      'Console: get paid (HTML)',
      'The console’s “Get paid” screen of an event: its payment link, the person’s wallets and their ' +
        'Mercado Pago accounts (the page of `GET /console`). The seller connection comes back here: ' +
        'the console gives this absolute address as `final_redirect_url`, so the callback’s ' +
        '`status=connected` or `status=error&error=…` is added to its query.',
      idParams('event_id'),
      ConnectReturnQuery,
    ),
    sendIndex,
  );

  app.get(
    '/console/wallets/:wallet_id/webhooks',
    screen(
      'getConsoleWalletWebhooks',
      'Console: integrate (HTML)',
      'The console’s “Integrate” screen of a wallet: its webhook endpoints and their deliveries (the ' +
        'page of `GET /console`).',
      idParams('wallet_id'),
    ),
    sendIndex,
  );

  app.get(
    '/console/sw.js',
    {
      schema: {
        tags,
        operationId: 'getConsoleServiceWorker',
        summary: 'The console’s service worker',
        description:
          'The script the console registers (scope `/console`) where the browser allows a service worker ' +
          '(HTTPS or loopback), so the door opens and keeps scanning offline: screens from the network, ' +
          'else the last `index.html`; scripts from its cache; the door’s few reads from the network, ' +
          'else their last answer. `no-cache`, so a new build replaces it.',
        response: {
          200: {
            description: 'the script',
            content: {
              'text/javascript': { schema: Type.String(), example: "self.addEventListener('fetch', …)" },
            },
          },
          304: notModified,
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const worker = (await build())?.worker;
      if (worker === undefined) throw notFound('Console file');
      reply.headers(WORKER_HEADERS);
      return send(request, reply, worker, 'no-cache');
    },
  );

  app.get(
    '/console/manifest.webmanifest',
    {
      schema: {
        tags,
        operationId: 'getConsoleManifest',
        summary: 'The console’s web app manifest',
        description:
          'What makes the console installable on a phone’s home screen: its name, start address ' +
          '(`/console`), standalone display and icon. `no-cache`.',
        response: {
          200: {
            description: 'the manifest',
            content: {
              'application/manifest+json': {
                schema: Type.String(),
                example: '{"name":"Convene console","start_url":"/console",…}',
              },
            },
          },
          304: notModified,
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const manifest = (await build())?.manifest;
      if (manifest === undefined) throw notFound('Console file');
      return send(request, reply, manifest, 'no-cache');
    },
  );

  app.get(
    '/console/assets/:file',
    {
      schema: {
        tags,
        operationId: 'getConsoleAsset',
        summary: 'A console script or stylesheet',
        description: `A script or stylesheet of the console, named after its content: \`${IMMUTABLE}\`.`,
        params: Type.Object(
          {
            file: Type.String({
              pattern: '^[A-Za-z0-9_.-]+$',
              maxLength: 200,
              description: 'as `index.html` links it',
            }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: {
            description: 'the file',
            content: {
              'text/javascript': { schema: Type.String(), example: 'import{…}' },
              'text/css': { schema: Type.String(), example: ':root{…}' },
            },
          },
          304: notModified,
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const file = (await build())?.assets.get(request.params.file);
      if (file === undefined) throw notFound('Console file');
      return send(request, reply, file, IMMUTABLE);
    },
  );
};
