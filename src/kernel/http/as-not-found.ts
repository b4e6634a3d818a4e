/**
 * Rethrows a guard's 404 as the 404 of `what`: a resource under a hidden (draft or deleted)
 * parent answers exactly like an unknown id, so its existence is not revealed. Used as
 * `await guard(…).catch(asNotFound('Program'))`.
 */
import { AppError, notFound } from './errors.ts';

export const asNotFound =
  (what: string) =>
  (error: unknown): never => {
    if (error instanceof AppError && error.code === 'NOT_FOUND') throw notFound(what);
    throw error;
  };
