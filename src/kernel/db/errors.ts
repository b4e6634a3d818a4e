/**
 * Maps PostgreSQL errors (from `pg` or PGlite, possibly wrapped by Drizzle) to `AppError`s, so a
 * constraint is the last line of defence and still answers with the envelope of docs/reference/errors.md.
 * Modules register friendly messages for their constraint names with `describeConstraint`.
 */
import { AppError, type ErrorCode, type ErrorReason } from '../http/errors.ts';

interface PgErrorLike {
  code: string;
  constraint?: string;
  detail?: string;
  message: string;
}

interface ConstraintDescription {
  message: string;
  field?: string;
  /** `error.reason` when the constraint is broken, in place of the kind's default. */
  reason?: ErrorReason;
}

const constraintDescriptions = new Map<string, ConstraintDescription>();

export function describeConstraint(name: string, description: ConstraintDescription): void {
  constraintDescriptions.set(name, description);
}

/** Finds the PostgreSQL error in a cause chain (Drizzle wraps driver errors). */
export function findPgError(error: unknown): PgErrorLike | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const candidate = current as Partial<PgErrorLike> & { cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return candidate as PgErrorLike;
    }
    current = candidate.cause;
  }
  return undefined;
}

export function mapDatabaseError(error: unknown): AppError | undefined {
  const pg = findPgError(error);
  if (pg === undefined) return undefined;
  const described = pg.constraint === undefined ? undefined : constraintDescriptions.get(pg.constraint);
  // A 409 and a broken rule (400) name a reason: the constraint's own, else the kind's `reason`.
  const make = (code: ErrorCode, fallback: string, reason?: ErrorReason) => {
    const message = described?.message ?? fallback;
    const options = {
      cause: error,
      meta: pg.constraint === undefined ? {} : { constraint: pg.constraint },
      ...(described?.field === undefined
        ? {}
        : { fields: [{ field: described.field, message: described.message }] }),
    };
    const chosen = reason === undefined ? undefined : (described?.reason ?? reason);
    if (code === 'CONFLICT')
      return new AppError(code, message, { ...options, reason: chosen ?? 'already_exists' });
    return new AppError(code, message, chosen === undefined ? options : { ...options, reason: chosen });
  };

  switch (pg.code) {
    case '23505':
      return make('CONFLICT', 'A resource with these values already exists', 'already_exists');
    case '23P01':
      return make('CONFLICT', 'The change conflicts with an existing resource', 'overlaps_existing');
    case '23514':
      return make('BAD_REQUEST', 'The values break a rule of the resource', 'rule_broken');
    case '23502':
      return make('BAD_REQUEST', 'A required value is missing');
    case '23503':
      return pg.detail?.includes('still referenced')
        ? make('CONFLICT', 'The resource is still referenced by others', 'still_referenced')
        : make('NOT_FOUND', 'A referenced resource does not exist');
    case '22001':
    case '22003':
    case '22007':
    case '22008':
    case '22P02':
    case '22021':
      return make('BAD_REQUEST', 'A value is out of range or malformed');
    case '40001':
    case '40P01':
    case '55P03':
    case '57014':
      return make('SERVICE_UNAVAILABLE', 'The database was busy; retry the request');
    default:
      if (pg.code.startsWith('08') || pg.code === '57P01' || pg.code === '57P03') {
        return make('SERVICE_UNAVAILABLE', 'The database is unavailable');
      }
      return undefined;
  }
}
