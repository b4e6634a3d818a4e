/**
 * The error envelope of docs/reference/errors.md, checked exactly: the answer to a bad request must be
 * `{code, message, error: {code, message, reason?, fields?, meta?, debug?}, timestamp, module}` as JSON,
 * nothing more and nothing less. Returns the problems found (empty: a conforming envelope).
 */
import type { WireAnswer } from '../wire.ts';

/** The closed list of error codes (docs/reference/errors.md) and their statuses (431 is BAD_REQUEST as well). */
export const ERROR_STATUS: Record<string, number> = {
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
};

const MODULES = ['events', 'projects', 'payments', 'identity', 'console', 'system'];
const TOP_KEYS = ['code', 'message', 'error', 'timestamp', 'module'];
const ERROR_KEYS = ['code', 'message', 'reason', 'fields', 'meta', 'debug'];
/** `error.reason`: a snake_case word, present on every 409 (docs/reference/errors.md, "Error reasons"). */
const REASON = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `code` may answer with HTTP `status`. */
export function codeFitsStatus(code: string, status: number): boolean {
  if (status === 431) return code === 'BAD_REQUEST';
  return ERROR_STATUS[code] === status;
}

/** The envelope's problems, if any, as short phrases. */
export function envelopeProblems(answer: WireAnswer): string[] {
  const problems: string[] = [];
  const contentType = answer.headers['content-type'] ?? '';
  if (!/^application\/json(\s*;|$)/i.test(contentType)) {
    problems.push(`content-type is ${contentType === '' ? 'missing' : JSON.stringify(contentType)}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    problems.push(answer.body.length === 0 ? 'empty body' : 'body is not JSON');
    return problems;
  }
  if (!isObject(body)) return [...problems, 'body is not a JSON object'];
  const extra = Object.keys(body).filter((key) => !TOP_KEYS.includes(key));
  if (extra.length > 0) problems.push(`unexpected keys ${extra.join(', ')}`);
  for (const key of TOP_KEYS) if (!(key in body)) problems.push(`no ${key}`);
  if ('code' in body && body.code !== answer.status) {
    problems.push(`code ${JSON.stringify(body.code)} is not the status ${answer.status}`);
  }
  if ('message' in body && (typeof body.message !== 'string' || body.message === '')) {
    problems.push('message is not a non-empty string');
  }
  if ('timestamp' in body && (typeof body.timestamp !== 'string' || !ISO.test(body.timestamp))) {
    problems.push('timestamp is not ISO 8601 UTC with milliseconds');
  }
  if ('module' in body && !MODULES.includes(body.module as string)) {
    problems.push(`module ${JSON.stringify(body.module)} is not one of ${MODULES.join('/')}`);
  }
  if ('error' in body) problems.push(...errorProblems(body.error, answer.status));
  return problems;
}

function errorProblems(error: unknown, status: number): string[] {
  if (!isObject(error)) return ['error is not an object'];
  const problems: string[] = [];
  const extra = Object.keys(error).filter((key) => !ERROR_KEYS.includes(key));
  if (extra.length > 0) problems.push(`unexpected error keys ${extra.join(', ')}`);
  if (typeof error.code !== 'string' || !(error.code in ERROR_STATUS)) {
    problems.push(`error.code ${JSON.stringify(error.code)} is not a documented code`);
  } else if (!codeFitsStatus(error.code, status)) {
    problems.push(`error.code ${error.code} does not go with status ${status}`);
  }
  if (typeof error.message !== 'string' || error.message === '') {
    problems.push('error.message is not a non-empty string');
  }
  if ('fields' in error) {
    const fields = error.fields;
    const fine =
      Array.isArray(fields) &&
      fields.every(
        (entry) =>
          isObject(entry) &&
          typeof entry.field === 'string' &&
          typeof entry.message === 'string' &&
          Object.keys(entry).every((key) => key === 'field' || key === 'message'),
      );
    if (!fine) problems.push('error.fields is not [{field, message}]');
  }
  if ('reason' in error && (typeof error.reason !== 'string' || !REASON.test(error.reason))) {
    problems.push(`error.reason ${JSON.stringify(error.reason)} is not a snake_case word`);
  } else if (status === 409 && !('reason' in error)) {
    problems.push('a 409 without error.reason');
  }
  if ('meta' in error && !isObject(error.meta)) problems.push('error.meta is not an object');
  if ('debug' in error) {
    const debug = error.debug;
    if (!isObject(debug) || Object.keys(debug).some((key) => key !== 'raw_error' && key !== 'stack_trace')) {
      problems.push('error.debug is not {raw_error, stack_trace}');
    }
  }
  return problems;
}

/** `error.code` of an answer when it has one (for the report). */
export function errorCodeOf(answer: WireAnswer): string | undefined {
  try {
    const body = JSON.parse(answer.body.toString('utf8')) as { error?: { code?: unknown } };
    return typeof body.error?.code === 'string' ? body.error.code : undefined;
  } catch {
    return undefined;
  }
}
