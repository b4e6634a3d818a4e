/**
 * The sender loop of one process (docs/mail.md, "Sending in batches"): claims due mails from the
 * outbox in batches (one statement each), hands each batch to `handle`, and records the mails'
 * outcomes in small groups as they come in (`record`). A new batch is claimed as soon as there is
 * room for one, not when the slowest mail of the last batch is answered. Outcomes are written at
 * most FLUSH_MS after they are known, or as soon as FLUSH_EVERY of them wait: a process killed
 * mid-batch leaves only the mails whose acceptance was not yet written to be sent again.
 */
import type { Logger } from 'pino';
import type { Database } from '../../../kernel/db/client.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import {
  type ClaimedMail,
  claimDueMails,
  finishMails,
  type MailOutcome,
  secondsToNextMail,
} from '../outbox/index.ts';

/** Mails per claim. */
const BATCH = 50;
/** Mails claimed and not yet answered, at most, in one process: two batches. */
const MAX_IN_FLIGHT = 2 * BATCH;
/** Outcomes waiting to be written, at most, and for how long. */
const FLUSH_EVERY = 16;
const FLUSH_MS = 5;
/**
 * The shortest time between two claims started by wake-ups (each commit that queued mail wakes the
 * sender). A claim, its start record and its look for the next due mail are three statements on
 * the pool the requests use: claimed at every commit, a confirmation per registration at 50 a
 * second cost about as many statements as the registrations themselves. Mail can wait a tenth of
 * a second; gathered, a claim takes several mails. A burst is not slowed: while a claim comes back
 * full, the next follows as soon as there is room, without waiting.
 */
export const CLAIM_INTERVAL_MS = 100;

export interface SenderOptions {
  db: Database;
  log: Logger;
  pollMs: number;
  /** How long a claim holds its mails (JOBS_LEASE_MS): a batch's sending must fit well inside. */
  leaseMs: number;
  /**
   * Renders, starts and sends the mails of one claim; calls `done` once per mail with its outcome
   * (or null when nothing is to be written for it), as soon as it is known.
   */
  handle(mails: ClaimedMail[], claimId: string, done: (outcome: MailOutcome | null) => void): Promise<void>;
}

export class MailSender {
  private running = false;
  private ticking: Promise<void> | undefined;
  private lastTickAt = Number.NEGATIVE_INFINITY;
  private paceTimer: NodeJS.Timeout | undefined;
  /** A look was asked for while one was under way: look again at once when it ends. */
  private again = false;
  /** A wake-up came while a look was under way: look again when the interval allows. */
  private wokenDuringTick = false;
  private timer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private more = false;
  private readonly batches = new Set<Promise<void>>();
  private pending: MailOutcome[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly options: SenderOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.wake();
  }

  /**
   * Looks for due mail (after a commit that queued some): now, or CLAIM_INTERVAL_MS after the last
   * look started, whichever is later.
   */
  wake(): void {
    if (!this.running || this.paceTimer !== undefined) return;
    if (this.ticking !== undefined) {
      this.wokenDuringTick = true;
      return;
    }
    const wait = this.lastTickAt + CLAIM_INTERVAL_MS - performance.now();
    if (wait <= 0) {
      this.look();
      return;
    }
    this.paceTimer = setTimeout(() => {
      this.paceTimer = undefined;
      this.look();
    }, wait);
    this.paceTimer.unref();
  }

  /** Looks for due mail now (again once the look under way ends). */
  private look(): void {
    if (!this.running) return;
    if (this.ticking !== undefined) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.lastTickAt = performance.now();
    this.ticking = this.tick().finally(() => {
      this.ticking = undefined;
      const [again, woken] = [this.again, this.wokenDuringTick];
      this.again = false;
      this.wokenDuringTick = false;
      if (again) this.look();
      else if (woken) this.wake();
    });
  }

  /** Stops claiming, waits for the mails in hand and writes their outcomes. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    clearTimeout(this.paceTimer);
    this.paceTimer = undefined;
    await this.ticking;
    await Promise.all(this.batches);
    await this.flush();
  }

  private async tick(): Promise<void> {
    const { db, log, pollMs, leaseMs } = this.options;
    let next = pollMs;
    try {
      this.more = false;
      while (this.running) {
        if (MAX_IN_FLIGHT - this.inFlight < BATCH) {
          // Full: a mail answered makes room and wakes the loop (`record`).
          this.more = true;
          break;
        }
        const claimId = uuidv7();
        const claimed = await claimDueMails(db, claimId, BATCH, leaseMs);
        if (claimed.length > 0) this.follow(claimed, claimId);
        if (claimed.length < BATCH) break;
      }
      // Full, the next claim comes with the answers; otherwise look again when the next mail is due.
      const seconds = this.more ? null : await secondsToNextMail(db);
      if (seconds !== null) next = Math.max(10, Math.min(pollMs, seconds * 1000));
    } catch (error) {
      if (this.running) log.error({ err: error }, 'mail: claim failed');
    }
    if (this.running) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.wake(), next);
      this.timer.unref();
    }
  }

  private follow(mails: ClaimedMail[], claimId: string): void {
    this.inFlight += mails.length;
    let left = mails.length;
    const done = (outcome: MailOutcome | null) => {
      if (left === 0) return;
      left -= 1;
      this.record(outcome);
    };
    const batch = this.options
      .handle(mails, claimId, done)
      .catch((error: unknown) => this.options.log.error({ err: error }, 'mail: a batch failed'))
      .finally(() => {
        // Mails the handler never answered (it threw) stay claimed until their lease ends.
        while (left > 0) done(null);
        this.batches.delete(batch);
      });
    this.batches.add(batch);
  }

  /** Queues one mail's outcome for the next write, and makes room for the next claim. */
  private record(outcome: MailOutcome | null): void {
    this.inFlight -= 1;
    if (outcome !== null) {
      this.pending.push(outcome);
      if (this.pending.length >= FLUSH_EVERY) void this.flush();
      else this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_MS);
    }
    if (this.more && MAX_IN_FLIGHT - this.inFlight >= BATCH) {
      // Room for a batch after a full claim: the burst goes on at once.
      this.more = false;
      this.look();
    }
  }

  /** Writes the outcomes waiting, one statement at a time (in the order they were known). */
  private flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const outcomes = this.pending;
    if (outcomes.length === 0) return this.writing;
    this.pending = [];
    this.writing = this.writing.then(() =>
      finishMails(this.options.db, outcomes).catch((error: unknown) =>
        // Left claimed: once the lease ends another claim tries them again (the case of a duplicate).
        this.options.log.error({ err: error, mails: outcomes.length }, 'mail: recording outcomes failed'),
      ),
    );
    return this.writing;
  }
}
