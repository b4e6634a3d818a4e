/**
 * One error type with a closed list of codes and one status map (docs/reference/errors.md). Everything
 * that reaches the client as an error goes through `AppError`; the global handler in
 * `error-handler.ts` turns framework and database errors into one first. A 409 always names its
 * `reason` (see reasons.ts): the constructor's types refuse a CONFLICT without one.
 */
import type { ErrorReason } from './reasons.ts';

export type { ErrorReason } from './reasons.ts';

export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE_ENTITY: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  field: string;
  message: string;
}

export interface AppErrorOptions {
  /** The stable word for the cause (`error.reason`); required with CONFLICT. */
  reason?: ErrorReason;
  fields?: FieldError[];
  meta?: Record<string, unknown>;
  cause?: unknown;
  headers?: Record<string, string>;
  /**
   * Only for answers the HTTP layer gives with a status of its own and the code BAD_REQUEST
   * (431 headers too large, 408 request too slow); every other status follows its code.
   */
  status?: number;
}

export class AppError extends Error {
  readonly status: number;
  readonly reason: ErrorReason | undefined;
  readonly fields: FieldError[] | undefined;
  readonly meta: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  readonly code: ErrorCode;

  constructor(code: 'CONFLICT', message: string, options: AppErrorOptions & { reason: ErrorReason });
  constructor(code: Exclude<ErrorCode, 'CONFLICT'>, message: string, options?: AppErrorOptions);
  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.reason = options.reason;
    this.status = options.status ?? ERROR_STATUS[code];
    this.fields = options.fields;
    this.meta = options.meta;
    this.headers = options.headers;
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const forbidden = (message = 'You do not have the role this operation needs') =>
  new AppError('FORBIDDEN', message);
/** A 409: the state does not allow the operation, for the `reason` named. */
export const conflict = (reason: ErrorReason, message: string, meta?: Record<string, unknown>) =>
  new AppError('CONFLICT', message, meta === undefined ? { reason } : { reason, meta });
/** A 400 for a broken rule of the domain (not a field failing its schema), for the `reason` named. */
export const badRequest = (reason: ErrorReason, message: string, fields?: FieldError[]) =>
  new AppError('BAD_REQUEST', message, fields === undefined ? { reason } : { reason, fields });
export const unauthorized = (message = 'Missing or invalid credentials') =>
  new AppError('UNAUTHORIZED', message);
export const validationError = (fields: FieldError[], message = 'The request is not valid') =>
  new AppError('VALIDATION_ERROR', message, { fields });
