/**
 * The console's one way to the service: a client typed from the OpenAPI document
 * (`openapi-typescript` writes `convene-api.d.ts` from build/openapi.json in `npm run openapi`;
 * `openapi-fetch` sends the requests). Nothing here names a path the document lacks: a typo or a
 * removed operation fails `npm run typecheck`, and the browser test checks every request it sees.
 *
 * The session cookie goes with every request (same origin). A write signed in by the cookie must
 * carry `X-Convene-CSRF: 1` (docs/reference/sign-in.md, "The cookie on every route"); the browser
 * adds `Origin` itself, which index.html's `same-origin` referrer policy keeps meaningful.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './convene-api';

export type Schemas = components['schemas'];
export type Event = Schemas['Event'];
export type MyEvent = Schemas['MyEvent'];
export type Edition = Schemas['Edition'];
export type TicketType = Schemas['TicketType'];
export type Program = Schemas['Program'];
export type EventMember = Schemas['EventMember'];
export type EventInvitation = Schemas['EventInvitation'];
export type Session = Schemas['Session'];

const csrf: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD') request.headers.set('X-Convene-CSRF', '1');
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });
api.use(csrf);

/** An answer the service refused, with the envelope's error as the console shows it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly reason: string | undefined,
    message: string,
    readonly fields: Array<{ field: string; message: string }> = [],
    /** The envelope's `error.meta`: what a refusal carries beside its words (a check-in's answer). */
    readonly meta: unknown = undefined,
  ) {
    super(message);
  }
}

interface Answer<T> {
  data?: { data: T } | undefined;
  error?: unknown;
  response: Response;
}

/** The `data` of a successful envelope, or an `ApiError` thrown from the error envelope. */
export async function unwrap<T>(pending: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (data !== undefined && response.ok) return data.data;
  throw refusalOf(response, error);
}

/** The refusal an error envelope (`error`, as the client parsed it) says, as an `ApiError`. */
export function refusalOf(response: Response, error: unknown): ApiError {
  const detail = (error ?? {}) as {
    message?: string;
    error?: {
      code?: string;
      message?: string;
      reason?: string;
      fields?: Array<{ field: string; message: string }>;
      meta?: unknown;
    };
  };
  return new ApiError(
    response.status,
    detail.error?.code ?? 'ERROR',
    detail.error?.reason,
    detail.error?.message ?? detail.message ?? response.statusText,
    detail.error?.fields ?? [],
    detail.error?.meta,
  );
}

/** Where the sign-in sends a person back: the console, at the screen they were on. */
export function signInHref(returnTo: string): string {
  return `/auth/sign-in?return_to=${encodeURIComponent(returnTo)}`;
}

/** A `<input type="datetime-local">` value (local time) as the API's ISO instant, or null when empty. */
export function toInstant(local: string): string | null {
  return local === '' ? null : new Date(local).toISOString();
}

/** An ISO instant as a `<input type="datetime-local">` value in the browser's time zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return '';
  const date = new Date(iso);
  const offset = date.getTimezoneOffset() * 60_000;
  return new Date(date.getTime() - offset).toISOString().slice(0, 16);
}
