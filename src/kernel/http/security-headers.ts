/**
 * Security headers on every response: helmet's defaults with a policy fit for a JSON API (no
 * scripts, styles or framing). They are a constant object set in one call, instead of running the
 * helmet middleware per request (@fastify/helmet rebuilds its policy on every request, measured
 * at 3–5 % of a cheap read's CPU). The reference page (`system/docs.ts`) and the people-facing
 * pages (`kernel/pages/layout.ts`) replace the CSP with their own, set later in the request.
 */
import type { FastifyInstance } from 'fastify';

export const SECURITY_HEADERS = Object.freeze({
  'content-security-policy':
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
});

/**
 * One callback-style onRequest hook for what every response carries: the security headers and the
 * request id (so errors carry it too). Callback style and a single hook because each async hook
 * costs a promise per request on the hottest path.
 */
export function registerResponseHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    reply.header('x-request-id', request.id);
    done();
  });
}
