/**
 * Role ranking shared by the role guards of every module: a role satisfies a requirement when it
 * ranks at least as high (event: owner > admin > staff; project: owner > admin > member).
 */
import { forbidden } from '../http/errors.ts';

export function hasRole<R extends string>(ranking: readonly R[], role: R | undefined, minimum: R): boolean {
  if (role === undefined) return false;
  // Rankings are listed from highest to lowest.
  return ranking.indexOf(role) <= ranking.indexOf(minimum);
}

export function requireRole<R extends string>(ranking: readonly R[], role: R | undefined, minimum: R): R {
  if (!hasRole(ranking, role, minimum)) throw forbidden();
  return role as R;
}
