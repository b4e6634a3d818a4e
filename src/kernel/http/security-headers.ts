/**
 * Security headers on every response: helmet's defaults with a policy fit for a JSON API (no
 * scripts, styles or framing). They are a constant object set in one call, instead of running the
 * helmet middleware per request (@fastify/helmet rebuilds its policy on every request, measured
 * at 3–5 % of a cheap read's CPU). The reference page (`system/docs.ts`) and the people-facing
 * pages (`kernel/pages/layout.ts`) replace the CSP with their own, set later in the request.
 *
 * Three of helmet's headers only mean something over HTTPS, and a browser reached over plain HTTP
 * on an address that is not loopback ignores them, Chromium with a console error on every page
 * (docs/reference/pages.md): `Cross-Origin-Opener-Policy` (ignored on an untrustworthy origin),
 * `Strict-Transport-Security` (ignored over HTTP) and `Origin-Agent-Cluster` (origin-keyed agent
 * clusters exist only in secure contexts). They are sent only when `PUBLIC_BASE_URL` is https: the
 * service is then reached over HTTPS, and they are kept.
 */
import type { FastifyInstance } from 'fastify';

/** What every response carries, over HTTP or HTTPS. */
export const SECURITY_HEADERS = Object.freeze({
  'content-security-policy':
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
});

/** What responses carry in addition when the service is served over HTTPS. */
export const HTTPS_ONLY_HEADERS = Object.freeze({
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
});

export type SecurityHeaders = Readonly<Record<string, string>>;

/** The headers for a service reached at `publicBaseUrl`: the HTTPS-only ones only when it is https. */
export function securityHeadersFor(publicBaseUrl: string): SecurityHeaders {
  const isHttps = publicBaseUrl.toLowerCase().startsWith('https://');
  return Object.freeze(isHttps ? { ...SECURITY_HEADERS, ...HTTPS_ONLY_HEADERS } : { ...SECURITY_HEADERS });
}

/**
 * One callback-style onRequest hook for what every response carries: the security headers and the
 * request id (so errors carry it too). Callback style and a single hook because each async hook
 * costs a promise per request on the hottest path.
 */
export function registerResponseHeaders(app: FastifyInstance, headers: SecurityHeaders): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    done();
  });
}
