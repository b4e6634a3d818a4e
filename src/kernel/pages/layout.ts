/**
 * The frame of every page (docs/reference/pages.md): one HTML document with the page's language, a title, the
 * icon and stylesheet served by the service itself, and a `main` landmark. Pages carry a strict Content
 * Security Policy of their own: everything from this origin only (`'self'` works over plain HTTP
 * on any address: no `upgrade-insecure-requests`), no inline script or style, no framing.
 */
import type { FastifyReply } from 'fastify';
import type { Asset } from './assets.ts';
import { type Html, html } from './html.ts';
import { FAVICON_ASSET, ICON_SVG_ASSET } from './icon.ts';
import type { Language } from './language.ts';
import { STYLESHEET_ASSET } from './stylesheet.ts';

export const PAGE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface PageOptions {
  language: Language;
  title: string;
  body: Html;
  /** Scripts the page runs (deferred, from this origin: the CSP allows nothing else). */
  scripts?: Asset[];
  /**
   * `same-origin` for a page whose form posts with the session cookie or signs in: under
   * `no-referrer` a browser sends `Origin: null` with a form's POST, which the cookie's same-origin
   * rule refuses (docs/reference/sign-in.md). Other sites still get no referrer. Default `no-referrer`.
   */
  referrerPolicy?: 'no-referrer' | 'same-origin';
}

export function page({
  language,
  title,
  body,
  scripts = [],
  referrerPolicy = 'no-referrer',
}: PageOptions): Html {
  return html`<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="${referrerPolicy}">
<title>${title} · Convene</title>
<link rel="icon" href="${FAVICON_ASSET.path}" sizes="32x32">
<link rel="icon" href="${ICON_SVG_ASSET.url}" type="image/svg+xml">
<link rel="stylesheet" href="${STYLESHEET_ASSET.url}">
${scripts.map(
  (script) => html`<script src="${script.url}" defer></script>
`,
)}</head>
<body>
<main id="main">
${body}
</main>
<footer class="footer"><p>Convene</p></footer>
</body>
</html>
`;
}

/** A page that only says one thing: a heading and a sentence (an unknown code, a used link). */
export function messagePage(language: Language, title: string, text: string, more: Html | '' = ''): Html {
  return page({
    language,
    title,
    body: html`<div class="card"><h1>${title}</h1><p>${text}</p>${more}</div>`,
  });
}

/** Sends a page with its status, language and the page CSP (replacing the API's). */
export function sendHtml(reply: FastifyReply, status: number, language: Language, document: Html) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('content-language', language)
    .header('content-security-policy', PAGE_CSP)
    .header('vary', 'Accept, Accept-Language')
    .header('cache-control', 'no-store')
    .send(document.value);
}
