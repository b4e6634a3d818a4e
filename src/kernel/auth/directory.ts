/**
 * Records every authenticated caller in the actor directory without a write per request: a
 * bounded in-process cache remembers what was written and when, and the row is written again only
 * when the e-mail changed or the last write is older than REFRESH_MS (so `last_seen_at` is accurate
 * to that window).
 */
import type { Database } from '../db/client.ts';
import { upsertActor } from './actors.repository.ts';
import type { Identity } from './identity.ts';

const REFRESH_MS = 5 * 60_000;
const MAX_ENTRIES = 10_000;

export class ActorDirectory {
  private readonly written = new Map<string, { email: string; at: number }>();

  constructor(private readonly db: Database) {}

  async record(identity: Identity): Promise<void> {
    const now = Date.now();
    const seen = this.written.get(identity.userId);
    if (seen !== undefined && seen.email === identity.email && now - seen.at < REFRESH_MS) return;
    await upsertActor(this.db, identity.userId, identity.email);
    // Map keeps insertion order: delete-then-set moves the entry to the end, so the first key is
    // the least recently written one and is the one evicted.
    this.written.delete(identity.userId);
    this.written.set(identity.userId, { email: identity.email, at: now });
    if (this.written.size > MAX_ENTRIES) {
      const oldest = this.written.keys().next().value;
      if (oldest !== undefined) this.written.delete(oldest);
    }
  }
}
