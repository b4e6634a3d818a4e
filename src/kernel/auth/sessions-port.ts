/**
 * Browser sessions as the kernel sees them (docs/reference/sign-in.md): the identity module owns
 * the sessions and gives the auth plugin this port (app.ts), so the kernel imports no module. The
 * cookie rules that every cookie-authenticated route shares live here too: reading the cookie and
 * the cross-site request check.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.ts';
import type { Identity } from './identity.ts';

export interface SessionPort {
  /** `convene_session`, or `__Host-convene_session` when PUBLIC_BASE_URL is https. */
  cookieName: string;
  /** Who a live session with this cookie value speaks for; undefined when unknown, ended or expired. */
  resolve(cookieValue: string): Promise<Identity | undefined>;
}

/** The value of the cookie `name` in a `Cookie` header (the first one, as browsers send the most specific first). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined || header.length > 8192) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const value = part.slice(at + 1).trim();
    return value === '' ? undefined : value;
  }
  return undefined;
}

/**
 * The session cookie's name: over https it takes the `__Host-` prefix, which browsers accept only
 * with `Secure`, `Path=/` and no `Domain`, so no sibling host can set or shadow it.
 */
export function sessionCookieName(publicBaseUrl: string): string {
  return publicBaseUrl.startsWith('https:') ? '__Host-convene_session' : 'convene_session';
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** The origin a request says it comes from: `Origin`, else the origin of `Referer`. */
function requestOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  // `null` (an opaque origin: a sandboxed frame, a redirect from elsewhere) matches no origin.
  if (typeof origin === 'string' && origin !== '') return origin;
  const referer = request.headers.referer;
  if (typeof referer !== 'string' || referer === '') return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/**
 * The cross-site request check of a request authenticated by the session cookie: a method that may
 * change something must come from the service's own origin (`Origin`, or `Referer` without it) and
 * carry `X-Convene-CSRF: 1`, a header no plain form or cross-site image can set. SameSite=Lax already
 * keeps the cookie off cross-site POSTs; this holds even where a browser does not honour it.
 */
export function assertSameOriginRequest(
  request: FastifyRequest,
  publicOrigin: string,
  options: { requireHeader: boolean } = { requireHeader: true },
): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = requestOrigin(request);
  if (origin !== publicOrigin) {
    throw new AppError(
      'FORBIDDEN',
      origin === undefined
        ? 'A request signed in by the session cookie must carry Origin (or Referer)'
        : `A request signed in by the session cookie must come from ${publicOrigin}`,
      { reason: 'csrf' },
    );
  }
  if (options.requireHeader && request.headers['x-convene-csrf'] !== '1') {
    throw new AppError(
      'FORBIDDEN',
      'A request signed in by the session cookie must carry X-Convene-CSRF: 1',
      {
        reason: 'csrf',
      },
    );
  }
}
