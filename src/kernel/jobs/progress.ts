/**
 * A job kind's progress, as `GET /jobs/{job_id}` shows it (docs/reference/attendance.md, "Issuing
 * certificates"). The kernel knows no kind: a module that lets people follow a kind of job registers, beside
 * the kind's handler, how to read one job's view (`JobRunner.registerJobKind`). The route answers the view of
 * whichever kind knows the id.
 */
import type { Static, TSchema } from 'typebox';
import type { Identity } from '../auth/identity.ts';
import type { ModuleName } from '../http/schemas.ts';

export interface JobProgress<S extends TSchema = TSchema> {
  /** The module that owns the kind, named in the envelope of the answer. */
  module: ModuleName;
  /** The view of one job of the kind; its `kind` field is the kind's literal name. */
  schema: S;
  /** The view shown in the OpenAPI document. */
  example: Static<S>;
  /**
   * The job's view for `actor`; `undefined` when no job of this kind has the id. A job the actor
   * may not see is thrown as a 404, like a job that does not exist.
   */
  read(jobId: string, actor: Identity): Promise<Static<S> | undefined>;
}
