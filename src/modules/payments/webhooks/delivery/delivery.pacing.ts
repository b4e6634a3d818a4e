/**
 * Pacing of the worker's statements and of the outbox's notifications to other processes. Under
 * load every commit wakes the worker and every answer finishes an attempt; starting a claim, or a record of
 * finished attempts, at most once per interval turns a stream of one-row statements into batches (the
 * benchmark found claims of one or two rows each to be half of PostgreSQL's work, and records of two or three
 * the worker's largest cost). It adds at most one interval to when a delivery is claimed or its attempt
 * recorded. The pacing itself is the kernel's `Pacer` (kernel/pacer.ts).
 */
/**
 * The shortest time between two claims started by wake-ups, and between two notifications to other
 * processes (a notification more often than its listeners claim would buy nothing). A delivery
 * waits for its claim in the table, not in a slot, so the interval costs only latency (up to 20 ms,
 * and up to 20 ms more for the notification when the writer is another process) and under load
 * gathers four times the rows per claim of 5 ms (the scale bench: 1.14–1.36 transactions per
 * delivery at 5 ms, 1.0–1.1 at 20 ms).
 */
export const DEFAULT_CLAIM_INTERVAL_MS = 20;
