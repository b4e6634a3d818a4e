import type { Clock } from '../src/kernel/clock.ts';

export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

/** A clock the test moves by hand; it starts at the real time so freshly signed tokens are valid. */
export function manualClock(): ManualClock {
  let at = Date.now();
  return {
    now: () => at,
    advance(ms) {
      at += ms;
    },
    set(ms) {
      at = ms;
    },
  };
}
