/**
 * One error type with a closed list of codes and one status map (contract section 3). Everything
 * that reaches the client as an error goes through `AppError`; the global handler in
 * `error-handler.ts` turns framework and database errors into one first.
 */

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
  readonly fields: FieldError[] | undefined;
  readonly meta: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = options.status ?? ERROR_STATUS[code];
    this.fields = options.fields;
    this.meta = options.meta;
    this.headers = options.headers;
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const forbidden = (message = 'You do not have the role this operation needs') =>
  new AppError('FORBIDDEN', message);
export const conflict = (message: string, meta?: Record<string, unknown>) =>
  new AppError('CONFLICT', message, meta === undefined ? {} : { meta });
export const badRequest = (message: string, fields?: FieldError[]) =>
  new AppError('BAD_REQUEST', message, fields === undefined ? {} : { fields });
export const unauthorized = (message = 'Missing or invalid credentials') =>
  new AppError('UNAUTHORIZED', message);
export const validationError = (fields: FieldError[], message = 'The request is not valid') =>
  new AppError('VALIDATION_ERROR', message, { fields });
