/**
 * Records every authenticated caller in the actor directory without a write per request: a
 * bounded in-process cache (`lru-cache`) remembers which e-mail and name were written for a user,
 * for REFRESH_MS, and the row is written again only when either changed or that time has passed
 * (so `last_seen_at` is accurate to that window).
 *
 * After each write, the listeners the modules gave (`onRecorded`) run: the events module turns the
 * pending invitations of the actor's e-mail into memberships (docs/mail.md). A first request is always
 * a write, so an invitee is a member from their first authenticated request on.
 */
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/client.ts';
import { upsertActor } from './actors.repository.ts';
import type { Identity } from './identity.ts';

const REFRESH_MS = 5 * 60_000;
const MAX_ENTRIES = 10_000;

export class ActorDirectory {
  /** user id -> the e-mail and name last written for it, forgotten REFRESH_MS after the write. */
  private readonly written: LRUCache<string, string>;
  private readonly listeners: Array<(identity: Identity) => Promise<void>> = [];

  constructor(
    private readonly db: Database,
    clock: Clock,
  ) {
    this.written = new LRUCache<string, string>({
      max: MAX_ENTRIES,
      ttl: REFRESH_MS,
      ttlResolution: 0,
      perf: clock,
    });
  }

  async record(identity: Identity): Promise<void> {
    const written = JSON.stringify([identity.email, identity.name ?? null]);
    if (this.written.get(identity.userId) === written) return;
    await upsertActor(this.db, identity);
    for (const listener of this.listeners) await listener(identity);
    this.written.set(identity.userId, written);
  }

  /** Runs `listener` after each write of an actor's row (see above). */
  onRecorded(listener: (identity: Identity) => Promise<void>): void {
    this.listeners.push(listener);
  }
}
