/** A task module for pool.test.ts: tells which thread ran it. */
import { threadId } from 'node:worker_threads';

export function whichThread(label: string): { label: string; threadId: number } {
  return { label, threadId };
}
