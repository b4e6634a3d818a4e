/** Assertions on the envelope of docs/reference/errors.md, shared by every test file. */
import assert from 'node:assert/strict';
import type { ApiResponse, ErrorDetail } from './harness.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A success envelope with this status and module; returns `data`, typed as the request was
 * (`t.get<T>`) or as given here (`expectOk<T>`).
 */
export function expectOk<T>(response: ApiResponse<T>, status = 200, module?: string): T {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  assert.equal(response.body.code, status);
  assert.match(response.body.timestamp, ISO);
  assert.ok('data' in response.body, 'envelope has data');
  assert.equal(response.body.error, undefined);
  if (module !== undefined) assert.equal(response.body.module, module);
  return response.body.data;
}

/** An error envelope with this status and error code; returns `error`. */
export function expectError(response: ApiResponse<unknown>, status: number, code: string): ErrorDetail {
  assert.equal(
    response.status,
    status,
    `expected ${status} ${code}, got ${response.status}: ${response.text}`,
  );
  const body = response.body;
  assert.ok(body !== undefined, `an envelope body: ${response.text}`);
  assert.equal(body.code, status);
  assert.equal(body.error?.code, code, `error code: ${response.text}`);
  assert.equal(typeof body.message, 'string');
  assert.equal(typeof body.error?.message, 'string');
  assert.match(body.timestamp, ISO);
  assert.ok(
    ['events', 'projects', 'payments', 'identity', 'console', 'system'].includes(body.module),
    `module: ${body.module}`,
  );
  assert.equal(body.data, undefined, 'an error has no data');
  assert.equal(body.pagination, undefined, 'an error has no pagination');
  return body.error!;
}

/** A VALIDATION_ERROR naming (at least) these fields. */
export function expectFields(response: ApiResponse<unknown>, ...fields: string[]): void {
  const error = expectError(response, 400, 'VALIDATION_ERROR');
  const named = (error.fields ?? []).map((entry) => entry.field);
  for (const field of fields)
    assert.ok(named.includes(field), `fields ${JSON.stringify(named)} include ${field}`);
}
