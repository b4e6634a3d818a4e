/**
 * The mail sender's own connections, for its claims and records (not for rendering, which reads
 * what requests wrote), and their session settings.
 */
import type { DatabaseHandle } from '../../../kernel/db/types.ts';

/** A claim, a start record and the outcomes' records can be in flight at once. */
const SENDER_POOL_SIZE = 3;

/**
 * `synchronous_commit = off` (PostgreSQL server only): a claim or a recorded outcome does not wait
 * for its WAL to reach disk. Waiting, they queued on the same WAL flushes as the requests' commits;
 * and a registration holds its ticket type's row until its commit is on disk, so every flush the
 * sender added before it made the registrations waiting for that row wait too (docs/mail.md,
 * "Figures"). If the server crashes, the last few of these records may be lost: the mails concerned
 * are sent again once their lease runs out, with the same Message-ID. Mail is sent at least once
 * either way (an acceptance not yet recorded when a process dies is sent again); the mails
 * themselves are queued by the requests' durable commits, so none is lost.
 */
export const SENDER_SESSION_SETTINGS = { synchronous_commit: 'off' } as const;

/** The sender's connections (the embedded database has one: the same handle). Opened lazily. */
export function openSenderPool(database: DatabaseHandle): ReturnType<DatabaseHandle['dedicated']> {
  return database.dedicated(SENDER_POOL_SIZE, { settings: SENDER_SESSION_SETTINGS });
}
