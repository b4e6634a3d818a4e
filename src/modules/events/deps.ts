/** What the events module's route plugins receive (built in app.ts, completed in index.ts). */

import type { IssuerKey } from '../../kernel/credentials/issuer-key.ts';
import type { JobRunner } from '../../kernel/jobs/runner.ts';
import type { ModuleDeps } from '../../kernel/module.ts';
import type { PaymentsPort } from '../../kernel/payments-port.ts';
import type { WorkerPool } from '../../kernel/workers/pool.ts';
import type { BadgeCodes } from './badges/badge-codes.ts';
import type * as DocumentTasks from './documents.worker.ts';

/** The worker threads that render PDFs and normalise signature images (documents.worker.ts). */
export type DocumentPool = WorkerPool<typeof DocumentTasks>;

export interface EventsDeps extends ModuleDeps {
  /** Checkout, refunds and registration webhooks, through the payments module (docs/reference/checkout.md). */
  payments: PaymentsPort;
  /** Where the module's background jobs (hold expiry, certificate issuance) are registered. */
  jobs: JobRunner;
}

/** EventsDeps plus what the module builds once for its routes (index.ts). */
export interface EventsContext extends EventsDeps {
  /** Makes and reads the codes of badge QR codes (docs/reference/attendance.md). */
  badgeCodes: BadgeCodes;
  /** Signs certificates' credentials and status lists (`CREDENTIAL_SIGNING_KEY`, docs/reference/attendance.md). */
  issuer: IssuerKey;
  /** Where PDFs are rendered and signature images normalised: never on the event loop. */
  documents: DocumentPool;
}
